import { MantineProvider } from '@mantine/core';
import { render, screen } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import { beforeAll, describe, expect, it } from 'vitest';
import { initI18n } from './i18n/index.ts';
import { AppRoutes } from './router.tsx';

/** The app at a path, in its first render: before the code of any lazily loaded screen has arrived. */
function firstRenderAt(path: string) {
  return render(
    <MantineProvider>
      <MemoryRouter initialEntries={[path]}>
        <AppRoutes />
      </MemoryRouter>
    </MantineProvider>,
  );
}

describe('first render', () => {
  beforeAll(async () => {
    await initI18n().changeLanguage('en');
  });

  it.each([
    '/ecommerce/checkout/7f9c1e52-3b8a-4d0e-9a61-2c4b5d6e7f80',
    '/donation/7f9c1e52-3b8a-4d0e-9a61-2c4b5d6e7f80',
    '/bpts/share-token',
  ])('%s shows the page frame, logo and language, while the page code arrives', (path) => {
    const { unmount } = firstRenderAt(path);
    expect(screen.getByLabelText('Rayo')).toBeInTheDocument();
    expect(screen.getByRole('radio', { name: 'Español' })).toBeInTheDocument();
    unmount();
  });

  it("does not show the customer's frame on the signed-in screens", () => {
    const { unmount } = firstRenderAt('/settings');
    expect(screen.queryByLabelText('Rayo')).not.toBeInTheDocument();
    unmount();
  });
});
