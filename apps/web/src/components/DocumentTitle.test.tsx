import { act, render, waitFor } from '@testing-library/react';
import { MemoryRouter, type NavigateFunction, type RouteObject, useNavigate } from 'react-router';
import { afterEach, describe, expect, it } from 'vitest';
import en from '../i18n/en.json';
import es from '../i18n/es.json';
import { initI18n } from '../i18n/index.ts';
import { routes } from '../router.tsx';
import { DocumentTitle } from './DocumentTitle.tsx';
import { NamedRoutes } from './NamedRoutes.tsx';

/** Every route of the router with a path, as `path → name`, the name undefined when it has none. */
function routeNames(tree: RouteObject[]): [string, string | undefined][] {
  return tree.flatMap((route) => [
    ...(route.path
      ? [[route.path, (route.handle as { name?: string } | undefined)?.name] as [string, string | undefined]]
      : []),
    ...routeNames(route.children ?? []),
  ]);
}

/** Hands the test the router's navigate, as a link inside the app would use it. */
function Navigator({ onReady }: { onReady: (navigate: NavigateFunction) => void }) {
  onReady(useNavigate());
  return null;
}

describe('page titles', () => {
  it('every route has a name with a title in English and Spanish, and no title is left without its route', () => {
    const named = routeNames(routes);
    expect(named.length).toBeGreaterThan(20);
    for (const [path, name] of named) {
      expect(name, path).toBeDefined();
      expect(en.pageTitles, path).toHaveProperty([name as string]);
      expect(es.pageTitles, path).toHaveProperty([name as string]);
    }
    expect(Object.keys(en.pageTitles).sort()).toEqual([...new Set(named.map(([, name]) => name))].sort());
  });

  describe('DocumentTitle', () => {
    afterEach(async () => {
      await initI18n().changeLanguage('en');
    });

    const titledRoutes: RouteObject[] = [
      {
        element: <DocumentTitle />,
        children: [
          { path: '/settings', handle: { name: 'settings' }, element: null },
          { path: '/bpts/:id/terminal', handle: { name: 'bpt-terminal-signed-in' }, element: null },
        ],
      },
    ];

    /** Renders the routes at a path, and gives back a way to navigate as a link would. */
    function renderAt(path: string): { navigate: (to: string) => Promise<void> } {
      let navigate: NavigateFunction | undefined;
      render(
        <MemoryRouter initialEntries={[path]}>
          <NamedRoutes routes={titledRoutes} />
          <Navigator
            onReady={(ready) => {
              navigate = ready;
            }}
          />
        </MemoryRouter>,
      );
      return {
        navigate: (to) =>
          act(async () => {
            await navigate?.(to);
          }),
      };
    }

    it('names the screen shown, and follows navigation and the language', async () => {
      const i18n = initI18n();
      await i18n.changeLanguage('en');
      const router = renderAt('/settings');
      await waitFor(() => expect(document.title).toBe('Settings · Rayo'));
      await router.navigate('/bpts/7/terminal');
      await waitFor(() => expect(document.title).toBe('Terminal · Rayo'));
      await i18n.changeLanguage('es');
      await router.navigate('/settings');
      await waitFor(() => expect(document.title).toBe('Configuración · Rayo'));
    });
  });
});
