import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import type { SaleNarrowing } from '../../api/dashboard.ts';
import { renderWithProviders } from '../../test-render.tsx';
import { saveColumns } from './columns.ts';
import { TransactionsTable } from './TransactionsTable.tsx';

afterEach(() => vi.unstubAllGlobals());
// jsdom lays nothing out, so it has no scrollIntoView, which Mantine's list of options calls.
beforeAll(() => {
  Element.prototype.scrollIntoView = () => {};
});

/** The table as home holds it: home keeps the chosen source, which the CSV button also reads. */
function TableWithOrigin() {
  const [narrowing, setNarrowing] = useState<SaleNarrowing>({});
  return (
    <TransactionsTable
      filter={{ account: 'all' }}
      timeZone="America/Guatemala"
      accountNames={new Map()}
      narrowing={narrowing}
      onNarrow={setNarrowing}
    />
  );
}

async function renderTable() {
  // The total tells the narrowings apart: 1 for a source, 2 for on-chain, 3 for every sale.
  const fetch = vi.fn(async (url: string) => {
    const query = new URLSearchParams(url.split('?')[1]);
    return Response.json({ transactions: [], total: query.has('source') ? 1 : query.has('paidVia') ? 2 : 3 });
  });
  vi.stubGlobal('fetch', fetch);
  await renderWithProviders(<TableWithOrigin />);
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

  it('narrows to one source, or to the sales paid on-chain, and back to all', async () => {
    const lastQuery = await renderTable();
    expect(lastQuery().has('source')).toBe(false);
    const choose = async (name: string) => {
      await userEvent.click(screen.getByRole('combobox', { name: 'Source' }));
      await userEvent.click(await screen.findByRole('option', { name, hidden: true }));
    };
    await choose('Donation');
    await waitFor(() => expect(lastQuery().get('source')).toBe('donation'));
    await choose('On-chain');
    await waitFor(() => expect(lastQuery().get('paidVia')).toBe('onchain'));
    expect(lastQuery().has('source')).toBe(false);
    // Every sale again: asked for before, it may be answered from the cache.
    await choose('All');
    await waitFor(() => expect(screen.getByRole('table')).toHaveAttribute('data-total', '3'));
  });

  it('shows by default the date it sorts by', async () => {
    await renderTable();
    expect(header('Date settled')).toHaveAttribute('aria-sort', 'descending');
  });
});
