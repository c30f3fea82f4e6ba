import { render, waitFor } from '@testing-library/react';
import { createMemoryRouter, type RouteObject, RouterProvider } from 'react-router';
import { afterEach, describe, expect, it } from 'vitest';
import en from '../i18n/en.json';
import es from '../i18n/es.json';
import { initI18n } from '../i18n/index.ts';
import { routes } from '../router.tsx';
import { DocumentTitle } from './DocumentTitle.tsx';

/** Every route of the router with a path, as `path → name`, the name undefined when it has none. */
function routeNames(tree: RouteObject[]): [string, string | undefined][] {
  return tree.flatMap((route) => [
    ...(route.path
      ? [[route.path, (route.handle as { name?: string } | undefined)?.name] as [string, string | undefined]]
      : []),
    ...routeNames(route.children ?? []),
  ]);
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

    function renderAt(path: string) {
      const router = createMemoryRouter(
        [
          {
            element: <DocumentTitle />,
            children: [
              { path: '/settings', handle: { name: 'settings' }, element: null },
              { path: '/bpts/:id/terminal', handle: { name: 'bpt-terminal-signed-in' }, element: null },
            ],
          },
        ],
        { initialEntries: [path] },
      );
      render(<RouterProvider router={router} />);
      return router;
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
