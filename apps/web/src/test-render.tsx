import { MantineProvider } from '@mantine/core';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render } from '@testing-library/react';
import type { ReactNode } from 'react';
import { MemoryRouter } from 'react-router';
import { initI18n } from './i18n/index.ts';

export type ProviderOptions = {
  /** The texts' language; English unless told. */
  language?: 'en' | 'es';
  /** The address a router starts at; without it there is no router. */
  route?: string;
  /** Rendered beside `ui` inside Mantine, outside the query client (`<Notifications />`, say). */
  beside?: ReactNode;
  /** Mantine's test mode: no transitions and no portals, so a menu's items are there, in place, once it opens. */
  withoutTransitions?: boolean;
};

function Providers({
  client,
  options,
  children,
}: {
  client: QueryClient;
  options: ProviderOptions;
  children: ReactNode;
}) {
  return (
    <MantineProvider env={options.withoutTransitions ? 'test' : 'default'}>
      {options.beside}
      <QueryClientProvider client={client}>
        {options.route === undefined ? (
          children
        ) : (
          <MemoryRouter initialEntries={[options.route]}>{children}</MemoryRouter>
        )}
      </QueryClientProvider>
    </MantineProvider>
  );
}

/**
 * Renders `ui` inside what the app wraps every screen in: Mantine, the texts in `language`, a
 * query client of its own that does not retry (a refused call shows at once) and, with `route`,
 * a router at that address. A `rerender` keeps them.
 */
export async function renderWithProviders(ui: ReactNode, options: ProviderOptions = {}) {
  const i18n = initI18n();
  await i18n.changeLanguage(options.language ?? 'en');
  const client = new QueryClient({ defaultOptions: { queries: { retry: false }, mutations: { retry: false } } });
  const wrap = (node: ReactNode) => (
    <Providers client={client} options={options}>
      {node}
    </Providers>
  );
  const view = render(wrap(ui));
  return { ...view, rerender: (next: ReactNode) => view.rerender(wrap(next)) };
}
