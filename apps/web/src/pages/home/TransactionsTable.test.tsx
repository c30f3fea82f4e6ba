import { MantineProvider } from '@mantine/core';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { initI18n } from '../../i18n/index.ts';
import { saveColumns } from './columns.ts';
import { TransactionsTable } from './TransactionsTable.tsx';

afterEach(() => vi.unstubAllGlobals());

async function renderTable() {
  const fetch = vi.fn(async (_url: string) => Response.json({ transactions: [], total: 0 }));
  vi.stubGlobal('fetch', fetch);
  const i18n = initI18n();
  await i18n.changeLanguage('en');
  render(
    <MantineProvider>
      <QueryClientProvider client={new QueryClient()}>
        <TransactionsTable filter={{ account: 'all' }} timeZone="America/Guatemala" accountNames={new Map()} />
      </QueryClientProvider>
    </MantineProvider>,
  );
  const lastQuery = () => new URLSearchParams(String(fetch.mock.lastCall?.[0]).split('?')[1]);
  await waitFor(() => expect(fetch).toHaveBeenCalled());
  return lastQuery;
}

const header = (name: string) => screen.getByRole('columnheader', { name: new RegExp(`^${name}`) });

describe('the transactions table', () => {
  it('marks as sorted the column the server is asked to sort by, and sorts by the header clicked', async () => {
    saveColumns(['createdAt', 'settledAt', 'billAmount']);
    const lastQuery = await renderTable();
    expect(lastQuery().get('sort')).toBe('settledAt');
    expect(lastQuery().get('order')).toBe('desc');
    expect(header('Date settled')).toHaveAttribute('aria-sort', 'descending');
    expect(header('Date created')).toHaveAttribute('aria-sort', 'none');
    expect(header('Bill amount')).not.toHaveAttribute('aria-sort');

    await userEvent.click(screen.getByRole('button', { name: 'Date created' }));
    await waitFor(() => expect(lastQuery().get('sort')).toBe('createdAt'));
    expect(lastQuery().get('order')).toBe('desc');
    expect(header('Date created')).toHaveAttribute('aria-sort', 'descending');
    expect(header('Date settled')).toHaveAttribute('aria-sort', 'none');

    await userEvent.click(screen.getByRole('button', { name: /^Date created/ }));
    await waitFor(() => expect(lastQuery().get('order')).toBe('asc'));
    expect(header('Date created')).toHaveAttribute('aria-sort', 'ascending');
  });

  it('shows by default the date it sorts by', async () => {
    await renderTable();
    expect(header('Date settled')).toHaveAttribute('aria-sort', 'descending');
  });
});
