import type { TransactionPage } from '@rayo/shared';
import { QueryClient, QueryObserver } from '@tanstack/react-query';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { csvRowCounter, filenameFromDisposition, transactionPageQuery } from './dashboard.ts';

describe('filenameFromDisposition', () => {
  it('prefers the RFC 6266 extended name', () => {
    expect(
      filenameFromDisposition(`attachment; filename="plain.csv"; filename*=UTF-8''caf%C3%A9%202026.csv`, 'x.csv'),
    ).toBe('café 2026.csv');
  });
  it('reads quoted and bare names, and falls back without one', () => {
    expect(filenameFromDisposition('attachment; filename="transactions 2026.csv"', 'x.csv')).toBe(
      'transactions 2026.csv',
    );
    expect(filenameFromDisposition('attachment; filename=t.csv', 'x.csv')).toBe('t.csv');
    expect(filenameFromDisposition('attachment', 'x.csv')).toBe('x.csv');
    expect(filenameFromDisposition(null, 'x.csv')).toBe('x.csv');
  });
});

describe('csvRowCounter', () => {
  it('counts records across pieces, not line breaks inside quoted fields', () => {
    const count = csvRowCounter();
    expect(count('id,note\r\n1,"two\nlines"\r')).toBe(1);
    expect(count('\n2,"a ""quoted"" ')).toBe(2);
    expect(count('word"\r\n')).toBe(3);
  });
});

describe('transactionPageQuery', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it('is asked for once when a part mounts with a page another part shows, however late', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    let asked = 0;
    const options = {
      ...transactionPageQuery({ start: 0, end: 86_400, account: 'all' }, 1, 10),
      queryFn: async (): Promise<TransactionPage> => {
        asked += 1;
        return { transactions: [], total: asked };
      },
    };
    const client = new QueryClient();
    const csvButton = new QueryObserver(client, options);
    const stopCsvButton = csvButton.subscribe(() => {});
    await vi.waitFor(() => expect(csvButton.getCurrentResult().data?.total).toBe(1));

    // Home's table mounts a minute later, as on a machine too busy to load its code sooner.
    vi.setSystemTime(Date.now() + 60_000);
    const table = new QueryObserver(client, options);
    const stopTable = table.subscribe(() => {});
    expect(table.getCurrentResult()).toMatchObject({ isFetching: false, data: { total: 1 } });
    stopTable();
    stopCsvButton();

    // Home opened again, where nothing shows that page any more: it is asked for again.
    const again = new QueryObserver(client, options);
    const stopAgain = again.subscribe(() => {});
    await vi.waitFor(() => expect(again.getCurrentResult().data?.total).toBe(2));
    stopAgain();
    client.clear();
  });
});
