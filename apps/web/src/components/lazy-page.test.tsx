import { render, screen } from '@testing-library/react';
import type { ReactNode } from 'react';
import { MemoryRouter, Outlet } from 'react-router';
import { describe, expect, it } from 'vitest';
import { lazyPage } from './lazy-page.tsx';
import { NamedRoutes } from './NamedRoutes.tsx';

/** A screen whose code arrives when the test says so, counting how often it was asked for. */
function heldScreen(text: string, withOutlet = false) {
  let release = () => {};
  const asked = { count: 0 };
  const arrived = new Promise<void>((resolve) => {
    release = resolve;
  });
  const Screen = lazyPage(async () => {
    asked.count += 1;
    await arrived;
    return () => (
      <div>
        {text}
        {withOutlet && <Outlet />}
      </div>
    );
  });
  return { Screen, asked, release };
}

function Guard({ children }: { children: ReactNode }) {
  return <>{children}</>;
}

describe('lazily loaded screens', () => {
  it('a route asks for its layout and its wrapped page at once, not the page after the layout', async () => {
    const layout = heldScreen('the layout', true);
    const page = heldScreen('the page');
    render(
      <MemoryRouter initialEntries={['/x']}>
        <NamedRoutes
          routes={[
            {
              element: <layout.Screen />,
              children: [
                {
                  path: '/x',
                  element: (
                    <Guard>
                      <page.Screen />
                    </Guard>
                  ),
                },
              ],
            },
          ]}
        />
      </MemoryRouter>,
    );
    expect(layout.asked.count).toBe(1);
    expect(page.asked.count).toBe(1);
    layout.release();
    page.release();
    expect(await screen.findByText('the page')).toBeInTheDocument();
    expect(screen.getByText('the layout')).toBeInTheDocument();
    expect(page.asked.count).toBe(1);
  });
});
