import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { AppRoutes } from './router.tsx';
import { renderWithProviders } from './test-render.tsx';

/** The app at a path, in its first render: before the code of any lazily loaded screen has arrived. */
function firstRenderAt(path: string) {
  return renderWithProviders(<AppRoutes />, { route: path });
}

describe('first render', () => {
  it.each([
    '/ecommerce/checkout/7f9c1e52-3b8a-4d0e-9a61-2c4b5d6e7f80',
    '/donation/7f9c1e52-3b8a-4d0e-9a61-2c4b5d6e7f80',
    '/bpts/share-token',
  ])('%s shows the page frame, logo and language, while the page code arrives', async (path) => {
    const { unmount } = await firstRenderAt(path);
    expect(screen.getByLabelText('Rayo')).toBeInTheDocument();
    expect(screen.getByRole('radio', { name: 'Español' })).toBeInTheDocument();
    unmount();
  });

  it("does not show the customer's frame on the signed-in screens", async () => {
    const { unmount } = await firstRenderAt('/settings');
    expect(screen.queryByLabelText('Rayo')).not.toBeInTheDocument();
    unmount();
  });
});
