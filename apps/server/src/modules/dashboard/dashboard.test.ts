import { randomBytes, randomUUID } from 'node:crypto';
import { once } from 'node:events';
import {
  type CurrentOrganization,
  computeSale,
  type ErrorResponse,
  fiatToMsat,
  formatMinor,
  type SaleSource,
  type Transaction,
  type TransactionPage,
  type TransactionSeries,
  type TransactionSums,
} from '@rayo/shared';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  bearer,
  createTestAccount,
  createTestApp,
  createTestOrganization,
  createTestUser,
  signIn,
  type TestApp,
} from '../../../test/test-app.ts';
import { poolOf } from '../../db/database.ts';
import { insertInvoice } from '../invoices/invoices.repo.ts';
import { settleInvoice } from '../ledger/settlement.service.ts';
import { createOrganization } from '../organizations/organizations.service.ts';
import { exportTransactionsCsv } from './dashboard.service.ts';

type Headers = { authorization: string };

/** Guatemala keeps UTC−6 all year, so local wall-clock times convert with a fixed offset. */
function gt(localTime: string): Date {
  return new Date(`${localTime}-06:00`);
}
function unix(date: Date): number {
  return date.getTime() / 1000;
}

const RATE: Record<string, bigint> = { GTQ: 750_000_00n, USD: 95_000_00n };

type Sale = {
  key: string;
  account: 'a' | 'b';
  at: string;
  bill: bigint;
  tip?: bigint;
  currency?: string;
  source?: SaleSource;
  /** Paid on-chain: its invoice is keyed by the output, as the chain watch writes it. */
  onchain?: boolean;
};

// Sales placed on the edges the presets must get right, in Guatemala time.
const SALES: Sale[] = [
  { key: 'lastYear', account: 'a', at: '2024-12-31T23:59:59', bill: 1000n },
  { key: 'yearStart', account: 'b', at: '2025-01-01T00:00:00', bill: 2000n, tip: 200n },
  { key: 'febEnd', account: 'a', at: '2025-02-28T23:59:00', bill: 3050n },
  { key: 'marchStart', account: 'a', at: '2025-03-01T00:00:00', bill: 999n },
  { key: 'thirtyDays', account: 'b', at: '2025-03-13T12:00:00', bill: 12345n, tip: 55n },
  { key: 'yesterdayEnd', account: 'a', at: '2025-03-14T23:59:59', bill: 501n },
  { key: 'todayStart', account: 'a', at: '2025-03-15T00:00:00', bill: 750n },
  { key: 'todayMorning', account: 'b', at: '2025-03-15T10:30:00', bill: 1234n, tip: 100n },
  // 18:00 in Guatemala is already the next day in UTC: still today for this organization.
  { key: 'todayEvening', account: 'a', at: '2025-03-15T18:00:00', bill: 8800n },
  { key: 'todayDollars', account: 'a', at: '2025-03-15T09:00:00', bill: 500n, currency: 'USD' },
  { key: 'tomorrow', account: 'b', at: '2025-03-16T00:00:00', bill: 4000n },
];

const PRESETS = {
  today: [gt('2025-03-15T00:00:00'), gt('2025-03-16T00:00:00')],
  yesterday: [gt('2025-03-14T00:00:00'), gt('2025-03-15T00:00:00')],
  last30Days: [gt('2025-02-14T00:00:00'), gt('2025-03-16T00:00:00')],
  thisMonth: [gt('2025-03-01T00:00:00'), gt('2025-04-01T00:00:00')],
  thisYear: [gt('2025-01-01T00:00:00'), gt('2026-01-01T00:00:00')],
} as const;

const PRESET_SALES: Record<keyof typeof PRESETS, string[]> = {
  today: ['todayStart', 'todayMorning', 'todayEvening', 'todayDollars'],
  yesterday: ['yesterdayEnd'],
  last30Days: [
    'febEnd',
    'marchStart',
    'thirtyDays',
    'yesterdayEnd',
    'todayStart',
    'todayMorning',
    'todayEvening',
    'todayDollars',
  ],
  thisMonth: [
    'marchStart',
    'thirtyDays',
    'yesterdayEnd',
    'todayStart',
    'todayMorning',
    'todayEvening',
    'todayDollars',
    'tomorrow',
  ],
  thisYear: SALES.filter((sale) => sale.key !== 'lastYear').map((sale) => sale.key),
};

type Recorded = Sale & { settledAt: Date; totalMinor: bigint; totalMsat: bigint; currency: string; accountId: string };

async function recordSale(t: TestApp, organizationId: string, accountId: string, sale: Sale): Promise<Recorded> {
  const currency = sale.currency ?? 'GTQ';
  const rate = RATE[currency] as bigint;
  const figures = computeSale({ billMinor: sale.bill, tipMinor: sale.tip ?? 0n, taxBps: 1200 });
  const amountMsat = fiatToMsat(figures.totalMinor, rate, currency);
  const settledAt = gt(sale.at);
  const paymentHash = sale.onchain ? `onchain:${randomBytes(32).toString('hex')}:0` : randomBytes(32).toString('hex');
  await insertInvoice(t.db, {
    source: sale.source ?? 'terminal',
    organization_id: organizationId,
    account_id: accountId,
    bpt_id: null,
    payment_hash: paymentHash,
    payment_request: `lnbcrt${paymentHash}`,
    description: sale.key,
    amount_msat: amountMsat,
    currency,
    bill_minor: figures.billMinor,
    tip_minor: figures.tipMinor,
    tax_minor: figures.taxMinor,
    total_minor: figures.totalMinor,
    rate_minor_per_btc: rate,
    expires_at: new Date(settledAt.getTime() + 900_000),
  });
  // The real settlement path, so the ledger row and the daily rollup are written as in production.
  const recorded = await settleInvoice({ db: t.db, config: t.config }, 'test', {
    paymentHash,
    settleIndex: 0n,
    amountPaidMsat: amountMsat,
    settledAt,
  });
  expect(recorded).toBe(true);
  return { ...sale, settledAt, totalMinor: figures.totalMinor, totalMsat: amountMsat, currency, accountId };
}

/** A minimal RFC 4180 reader: quoted fields may hold commas, quotes (doubled) and newlines. */
function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let field = '';
  let quoted = false;
  for (let i = 0; i < text.length; i += 1) {
    const char = text[i];
    if (quoted) {
      if (char === '"' && text[i + 1] === '"') {
        field += '"';
        i += 1;
      } else if (char === '"') quoted = false;
      else field += char;
    } else if (char === '"') quoted = true;
    else if (char === ',') {
      row.push(field);
      field = '';
    } else if (char === '\n') {
      row.push(field);
      rows.push(row);
      row = [];
      field = '';
    } else if (char !== '\r') field += char;
  }
  if (field !== '' || row.length > 0) rows.push([...row, field]);
  return rows;
}

describe('dashboard', () => {
  let t: TestApp;
  let admin: Headers;
  let manager: Headers;
  let backOffice: Headers;
  let accountA: string;
  let accountB: string;
  let organizationId: string;
  let recorded: Recorded[];

  const get = (url: string, headers: Headers = admin) => t.app.inject({ method: 'GET', url, headers });
  const period = (range: readonly [Date, Date]) => `start=${unix(range[0])}&end=${unix(range[1])}`;
  const sums = async (query: string, headers: Headers = admin) => {
    const response = await get(`/api/dashboard/transactions/sum?${query}`, headers);
    expect(response.statusCode, response.body).toBe(200);
    return response.json<TransactionSums>();
  };
  const page = async (query: string, headers: Headers = admin) => {
    const response = await get(`/api/dashboard/transactions?${query}`, headers);
    expect(response.statusCode, response.body).toBe(200);
    return response.json<TransactionPage>();
  };
  /** What the sums must be, computed from the fixture, not from the server. */
  const expectedSums = (keys: string[]) => {
    const sales = recorded.filter((sale) => keys.includes(sale.key));
    const gtq = sales.filter((sale) => sale.currency === 'GTQ');
    return {
      receiveMsat: Number(sales.reduce((sum, sale) => sum + sale.totalMsat, 0n)),
      receiveFiat: formatMinor(
        gtq.reduce((sum, sale) => sum + sale.totalMinor, 0n),
        'GTQ',
      ),
    };
  };

  beforeAll(async () => {
    t = await createTestApp({}, { jobs: false });
    const organization = await createOrganization(t.db, {
      name: 'Café Antigua',
      countryCode: 'GT',
      language: 'en',
      currency: 'GTQ',
    });
    organizationId = organization.id;
    accountA = (await createTestAccount(t.db, organization.id, 'Bar "Sur", Zona 10')).id;
    accountB = (await createTestAccount(t.db, organization.id, 'Terraza')).id;
    const ids = { a: accountA, b: accountB };
    recorded = [];
    for (const sale of SALES) recorded.push(await recordSale(t, organization.id, ids[sale.account], sale));

    // Another organization's sales on the same days must never show.
    const other = await createTestOrganization(t.db, 'Otra');
    const otherAccount = (await createTestAccount(t.db, other.id, 'Other')).id;
    await recordSale(t, other.id, otherAccount, { key: 'other', account: 'a', at: '2025-03-15T12:00:00', bill: 77n });

    const adminUser = await createTestUser(t.db, { role: 'admin', organizationId: organization.id });
    admin = bearer((await signIn(t.app, adminUser.email, adminUser.password)).accessToken);
    const managerUser = await createTestUser(t.db, {
      role: 'manager',
      organizationId: organization.id,
      accountIds: [accountB],
    });
    manager = bearer((await signIn(t.app, managerUser.email, managerUser.password)).accessToken);
    const backOfficeUser = await createTestUser(t.db, { role: 'back_office', organizationId: null });
    backOffice = bearer((await signIn(t.app, backOfficeUser.email, backOfficeUser.password)).accessToken);
  });
  afterAll(async () => {
    await t?.close();
  });

  it('answers the organization the dashboard computes periods and money in', async () => {
    const response = await get('/api/organization/current');
    expect(response.statusCode).toBe(200);
    expect(response.json<CurrentOrganization>()).toEqual({
      id: organizationId,
      name: 'Café Antigua',
      countryCode: 'GT',
      timeZone: 'America/Guatemala',
      currency: 'GTQ',
      language: 'en',
      blockedReason: null,
    });
  });

  it.each(Object.keys(PRESETS) as Array<keyof typeof PRESETS>)(
    '%s: counts and sums the sales between local midnights',
    async (preset) => {
      const query = period(PRESETS[preset]);
      const keys = PRESET_SALES[preset];
      const { total, transactions } = await page(`${query}&limit=50`);
      expect(total).toBe(keys.length);
      expect(
        transactions
          .map(
            (tx) =>
              recorded.find(
                (sale) =>
                  sale.totalMsat === BigInt(tx.totalMsatCharged) && sale.settledAt.toISOString() === tx.settledAt,
              )?.key,
          )
          .sort(),
      ).toEqual([...keys].sort());
      const expected = expectedSums(keys);
      const answer = await sums(query);
      expect(answer).toMatchObject({ ...expected, currency: 'GTQ' });
      // Nothing is disbursed yet: all of the income is still to pay out, and none of it is fiat.
      expect(answer.fiatToDisburse).toBe('0.00');
      expect(answer.msatsToDisburse).toBe(transactions.reduce((sum, tx) => sum + tx.msatIncome, 0));
    },
  );

  it('all time, and a custom range with partial days at both ends', async () => {
    expect((await page('')).total).toBe(SALES.length);
    expect(await sums('')).toMatchObject(expectedSums(SALES.map((sale) => sale.key)));

    const custom = `start=${unix(gt('2025-02-28T12:00:00'))}&end=${unix(gt('2025-03-15T10:30:01'))}`;
    const keys = ['febEnd', 'marchStart', 'thirtyDays', 'yesterdayEnd', 'todayStart', 'todayDollars', 'todayMorning'];
    expect((await page(custom)).total).toBe(keys.length);
    expect(await sums(custom)).toMatchObject(expectedSums(keys));

    // Within one day, one second either side of a sale.
    const narrow = `start=${unix(gt('2025-03-14T23:59:59'))}&end=${unix(gt('2025-03-15T10:30:00'))}`;
    expect((await page(narrow)).total).toBe(3);
    expect(await sums(narrow)).toMatchObject(expectedSums(['yesterdayEnd', 'todayStart', 'todayDollars']));
  });

  it('filters by account, and `all` means every account', async () => {
    const year = period(PRESETS.thisYear);
    const onlyB = SALES.filter((sale) => sale.account === 'b' && sale.key !== 'lastYear').map((sale) => sale.key);
    expect((await page(`${year}&account=${accountB}`)).total).toBe(onlyB.length);
    expect(await sums(`${year}&account=${accountB}`)).toMatchObject(expectedSums(onlyB));
    expect(await sums(year)).toEqual(await sums(`${year}&account=all`));
    const byPath = await get(`/api/dashboard/transactions/sum/${accountB}?${year}`);
    expect(byPath.json()).toEqual(await sums(`${year}&account=${accountB}`));
    // SPEC §7 skips the account filter for 'all', in the path as in the query.
    const allByPath = await get(`/api/dashboard/transactions/sum/all?${year}`);
    expect(allByPath.statusCode).toBe(200);
    expect(allByPath.json()).toEqual(await sums(year));
    const list = await page(`${year}&account=${accountA}&limit=50`);
    expect(list.transactions.every((tx) => tx.accountId === accountA)).toBe(true);
  });

  it('shows managers only their linked accounts and refuses the others', async () => {
    const all = await page('limit=50', manager);
    const onlyB = SALES.filter((sale) => sale.account === 'b').map((sale) => sale.key);
    expect(all.total).toBe(onlyB.length);
    expect(all.transactions.every((tx) => tx.accountId === accountB)).toBe(true);
    expect(await sums('account=all', manager)).toMatchObject(expectedSums(onlyB));
    expect((await get('/api/dashboard/transactions/sum/all', manager)).json()).toMatchObject(expectedSums(onlyB));

    for (const url of [
      `/api/dashboard/transactions?account=${accountA}`,
      `/api/dashboard/transactions/sum/${accountA}`,
      `/api/dashboard/transactions/csv?account=${accountA}`,
      `/api/dashboard/transactions/series?account=${accountA}`,
    ]) {
      const response = await get(url, manager);
      expect(response.statusCode, url).toBe(403);
      expect(response.json<ErrorResponse>().code).toBe('Forbidden');
    }
    const series = (await get('/api/dashboard/transactions/series?bucket=month', manager)).json<TransactionSeries>();
    expect(series.byAccount.map((row) => row.accountId)).toEqual([accountB]);
  });

  it('pages newest first, and the pages add up to the sums of the same filter', async () => {
    const query = period(PRESETS.thisYear);
    const limit = 3;
    const first = await page(`${query}&limit=${limit}`);
    expect(first.transactions).toHaveLength(limit);
    const all = [...first.transactions];
    for (let number = 2; number <= Math.ceil(first.total / limit); number += 1) {
      const next = await page(`${query}&limit=${limit}&page=${number}`);
      expect(next.total).toBe(first.total);
      all.push(...next.transactions);
    }
    expect(all).toHaveLength(first.total);
    expect(new Set(all.map((tx) => tx.id)).size).toBe(all.length);
    const settled = all.map((tx) => tx.settledAt);
    expect(settled).toEqual([...settled].sort().reverse());
    expect((await page(`${query}&limit=${limit}&page=99`)).transactions).toEqual([]);

    const totals = await sums(query);
    expect(all.reduce((sum, tx) => sum + tx.totalMsatCharged, 0)).toBe(totals.receiveMsat);
    expect(all.reduce((sum, tx) => sum + tx.msatIncome, 0)).toBe(totals.msatsToDisburse);
    const fiatMinor = all
      .filter((tx) => tx.currency === 'GTQ')
      .reduce(
        (sum, tx) =>
          sum +
          BigInt(tx.billAmount.replace('.', '')) +
          BigInt(tx.tip.replace('.', '')) +
          BigInt(tx.tax.replace('.', '')),
        0n,
      );
    expect(formatMinor(fiatMinor, 'GTQ')).toBe(totals.receiveFiat);
  });

  it('sorts by the column asked for, from an allow-list, either way', async () => {
    const query = `${period(PRESETS.thisYear)}&limit=50`;
    const ids = (transactions: Transaction[]) => transactions.map((tx) => tx.id);
    const byCreated = (await page(`${query}&sort=createdAt&order=desc`)).transactions;
    const created = byCreated.map((tx) => tx.createdAt);
    expect(created).toEqual([...created].sort().reverse());
    const bySettledAsc = (await page(`${query}&sort=settledAt&order=asc`)).transactions;
    const settled = bySettledAsc.map((tx) => tx.settledAt);
    expect(settled).toEqual([...settled].sort());
    // The sales were recorded out of their settlement order, so the two orders differ.
    expect(ids(byCreated)).not.toEqual(ids(bySettledAsc).reverse());
    expect(ids((await page(`${query}&sort=settledAt`)).transactions)).toEqual(ids(bySettledAsc).reverse());
    for (const bad of ['sort=billAmount', 'sort=settled_at', 'order=up']) {
      const response = await get(`/api/dashboard/transactions?${bad}`);
      expect(response.statusCode, bad).toBe(400);
      expect(response.json<ErrorResponse>().code).toBe('InvalidInput');
    }
  });

  it('defaults to the first page of 10 over the whole history, with every SPEC §3 field', async () => {
    const { transactions, total } = await page('');
    expect(total).toBe(SALES.length);
    expect(transactions).toHaveLength(10);
    expect(transactions[0]).toMatchObject({
      settledAt: gt('2025-03-16T00:00:00').toISOString(),
      accountId: accountB,
      currencyPair: 'BTC/GTQ',
      billAmount: '40.00',
      tip: '0.00',
      tax: '4.80',
      disbursed: false,
      fiatPercentage: 0,
    });
    expect(Object.keys(transactions[0] ?? {}).sort()).toEqual(
      [
        'id',
        'createdAt',
        'settledAt',
        'accountId',
        'transactionId',
        'bptId',
        'currencyPair',
        'currency',
        'totalMsatCharged',
        'billAmount',
        'tip',
        'tax',
        'msatIncome',
        'fiatIncome',
        'rate',
        'txFeeMsat',
        'conversionFeeMsat',
        'fiatPercentage',
        'disbursed',
        'source',
        'sourceName',
        'description',
        'paidVia',
        'refundedMsat',
        'refundedAmount',
      ].sort(),
    );
  });

  it("names the whole history's CSV after the day it was taken, on the organization's calendar", async () => {
    const response = await get('/api/dashboard/transactions/csv');
    expect(response.statusCode, response.body).toBe(200);
    const today = new Intl.DateTimeFormat('en-CA', { timeZone: 'America/Guatemala', dateStyle: 'short' }).format(
      new Date(),
    );
    expect(response.headers['content-disposition']).toBe(`attachment; filename="transactions_all_${today}.csv"`);
  });

  it('streams the CSV with a header, RFC 4180 quoting and exact decimals', async () => {
    const response = await get(`/api/dashboard/transactions/csv?${period(PRESETS.thisYear)}`);
    expect(response.statusCode, response.body).toBe(200);
    expect(response.headers['content-type']).toMatch(/^text\/csv/);
    expect(response.headers['content-disposition']).toBe(
      'attachment; filename="transactions_2025-01-01_2025-12-31.csv"',
    );
    const [header, ...rows] = parseCsv(response.body);
    expect(header).toEqual([
      'Date created (America/Guatemala)',
      'Date settled (America/Guatemala)',
      'Account id',
      'Account name',
      'Transaction id',
      'BPT id',
      'Currency pair',
      'Total msats charged',
      'Total sats',
      'Bill amount',
      'Tip',
      'Tax',
      'Msats income',
      'Fiat income',
      'Rate (sats per unit)',
      'Tx fee msats',
      'Conversion fee msats',
      'Fiat percentage',
      'Disbursed',
      'Currency',
      'Source',
      'Source name',
      'Description',
      'Paid via',
      'Refunded msats',
      'Refunded',
      'Net msats income',
    ]);
    expect(rows).toHaveLength(PRESET_SALES.thisYear.length);
    expect(response.body).toContain('"Bar ""Sur"", Zona 10"');

    // Every row says what the JSON page says for the same sale, its times on Guatemala's clock (UTC−6).
    const { transactions } = await page(`${period(PRESETS.thisYear)}&limit=50`);
    const guatemala = (instant: string) =>
      `${new Date(Date.parse(instant) - 6 * 3_600_000).toISOString().slice(0, 23)}-06:00`;
    expect(rows.map((row) => row[1])).toEqual(transactions.map((tx) => guatemala(tx.settledAt)));
    for (const [index, tx] of transactions.entries()) {
      const row = rows[index] ?? [];
      expect(row).toEqual([
        guatemala(tx.createdAt),
        guatemala(tx.settledAt),
        tx.accountId,
        tx.accountId === accountA ? 'Bar "Sur", Zona 10' : 'Terraza',
        tx.transactionId,
        '',
        tx.currencyPair,
        String(tx.totalMsatCharged),
        String(Math.floor(tx.totalMsatCharged / 1000)),
        tx.billAmount,
        tx.tip,
        tx.tax,
        String(tx.msatIncome),
        tx.fiatIncome,
        tx.rate,
        String(tx.txFeeMsat),
        String(tx.conversionFeeMsat),
        '0.00',
        'false',
        tx.currency,
        tx.source,
        tx.sourceName,
        tx.description,
        tx.paidVia,
        String(tx.refundedMsat),
        tx.refundedAmount,
        String(tx.msatIncome - tx.refundedMsat),
      ]);
    }
  });

  it('frees the connection of a CSV abandoned before its end, so the pool keeps serving', async () => {
    // More rows than the streams between PostgreSQL and the response buffer, so the COPY is
    // still running when the download is dropped.
    const busy = await createTestOrganization(t.db, 'Busy');
    const till = (await createTestAccount(t.db, busy.id, 'Till')).id;
    for (let n = 0; n < 600; n += 1) {
      await recordSale(t, busy.id, till, { key: `busy${n}`, account: 'a', at: '2025-03-10T12:00:00', bill: 100n });
    }
    const pool = poolOf(t.db);
    for (let attempt = 0; attempt < pool.options.max; attempt += 1) {
      const caller = { userId: randomUUID(), organizationId: busy.id, role: 'admin', sessionEpoch: 0 } as const;
      const csv = await exportTransactionsCsv(t.db, t.db, caller, {});
      await once(csv.stream, 'readable');
      csv.stream.destroy();
      await once(csv.stream, 'close');
    }
    // A connection handed back mid-COPY, or inside the export's transaction, would fail or
    // hang the next queries on it; none is left behind. The job runner's own queries may be
    // running at any moment, so only a COPY or an open transaction counts.
    const observer = new pg.Client({ connectionString: t.config.databaseUrl });
    await observer.connect();
    const { rows } = await observer
      .query<{ state: string; query: string }>(
        `select state, query from pg_stat_activity
         where datname = current_database() and pid <> pg_backend_pid()
           and (state like 'idle in transaction%' or query ilike 'copy%')`,
      )
      .finally(() => observer.end());
    expect(rows).toEqual([]);
    const pages = await Promise.all(Array.from({ length: pool.options.max * 2 }, () => page('limit=1')));
    for (const result of pages) expect(result.total).toBe(SALES.length);
    // Recording 600 sales one by one takes most of it: 28 s of the default 30 on a loaded machine.
  }, 90_000);

  it('lists and exports the sales of one source or payment method, the total counting only those', async () => {
    const shop = await createTestOrganization(t.db, 'Tienda Luna');
    const account = (await createTestAccount(t.db, shop.id, 'Caja')).id;
    const sales: Sale[] = [
      { key: 'counter', account: 'a', at: '2025-03-15T09:00:00', bill: 1000n },
      { key: 'gift', account: 'a', at: '2025-03-15T10:00:00', bill: 2000n, source: 'donation' },
      { key: 'link', account: 'a', at: '2025-03-15T11:00:00', bill: 3000n, source: 'payment_link', onchain: true },
      { key: 'order', account: 'a', at: '2025-03-15T12:00:00', bill: 4000n, source: 'checkout' },
    ];
    for (const sale of sales) await recordSale(t, shop.id, account, sale);
    const user = await createTestUser(t.db, { role: 'admin', organizationId: shop.id });
    const owner = bearer((await signIn(t.app, user.email, user.password)).accessToken);
    const described = async (query: string) => {
      const result = await page(query, owner);
      return { total: result.total, sales: result.transactions.map((tx) => `${tx.source} by ${tx.paidVia}`) };
    };

    expect(await described('')).toEqual({
      total: 4,
      sales: ['checkout by lightning', 'payment_link by onchain', 'donation by lightning', 'terminal by lightning'],
    });
    expect(await described('source=donation')).toEqual({ total: 1, sales: ['donation by lightning'] });
    expect(await described('source=terminal')).toEqual({ total: 1, sales: ['terminal by lightning'] });
    expect(await described('paidVia=onchain')).toEqual({ total: 1, sales: ['payment_link by onchain'] });
    expect(await described('paidVia=lightning&limit=2')).toEqual({
      total: 3,
      sales: ['checkout by lightning', 'donation by lightning'],
    });
    expect(await described('source=payment_link&paidVia=lightning')).toEqual({ total: 0, sales: [] });
    expect(await described(`source=checkout&${period(PRESETS.yesterday)}`)).toEqual({ total: 0, sales: [] });

    for (const [query, expected] of [
      ['source=checkout', ['checkout']],
      ['paidVia=onchain', ['payment_link']],
      ['paidVia=lightning', ['checkout', 'donation', 'terminal']],
    ] as const) {
      const response = await get(`/api/dashboard/transactions/csv?${query}`, owner);
      expect(response.statusCode, response.body).toBe(200);
      const [header, ...rows] = parseCsv(response.body);
      const source = header?.indexOf('Source') ?? -1;
      expect(rows.map((row) => row[source])).toEqual(expected);
    }

    for (const query of ['source=onchain', 'paidVia=card']) {
      for (const path of ['/api/dashboard/transactions', '/api/dashboard/transactions/csv']) {
        const response = await get(`${path}?${query}`, owner);
        expect(response.statusCode, response.body).toBe(400);
        expect(response.json<ErrorResponse>().code).toBe('InvalidInput');
      }
    }
  });

  it('charts sales in buckets of the organization time zone', async () => {
    const monthly = await get(`/api/dashboard/transactions/series?${period(PRESETS.thisYear)}&bucket=month`);
    expect(monthly.statusCode, monthly.body).toBe(200);
    const series = monthly.json<TransactionSeries>();
    expect(series).toMatchObject({ bucket: 'month', timeZone: 'America/Guatemala', currency: 'GTQ' });
    expect(series.points.map((point) => [point.start, point.count])).toEqual([
      [unix(gt('2025-01-01T00:00:00')), 1],
      [unix(gt('2025-02-01T00:00:00')), 1],
      [unix(gt('2025-03-01T00:00:00')), 8],
    ]);
    expect(series.points[0]).toMatchObject({ salesFiat: '24.40', tipsFiat: '2.00' });

    const daily = (
      await get(`/api/dashboard/transactions/series?${period(PRESETS.today)}&bucket=day`)
    ).json<TransactionSeries>();
    // The 18:00 sale is the next day in UTC but today here; the dollar sale has no GTQ value.
    expect(daily.points).toEqual([
      {
        start: unix(gt('2025-03-15T00:00:00')),
        count: 4,
        salesMsat: expectedSums(PRESET_SALES.today).receiveMsat,
        salesFiat: expectedSums(PRESET_SALES.today).receiveFiat,
        tipsFiat: '1.00',
      },
    ]);

    const hourly = (
      await get(`/api/dashboard/transactions/series?${period(PRESETS.today)}&bucket=hour`)
    ).json<TransactionSeries>();
    expect(hourly.points.map((point) => [point.start, point.count])).toEqual([
      [unix(gt('2025-03-15T00:00:00')), 1],
      [unix(gt('2025-03-15T09:00:00')), 1],
      [unix(gt('2025-03-15T10:00:00')), 1],
      [unix(gt('2025-03-15T18:00:00')), 1],
    ]);
    expect(hourly.byAccount).toEqual([
      expect.objectContaining({ accountId: accountA, name: 'Bar "Sur", Zona 10', count: 3 }),
      expect.objectContaining({ accountId: accountB, name: 'Terraza', count: 1, salesFiat: '14.82' }),
    ]);
  });

  it('refuses back office, and answers bad queries with a 400 code', async () => {
    for (const url of [
      '/api/dashboard/transactions',
      '/api/dashboard/transactions/sum',
      '/api/dashboard/transactions/csv',
      '/api/dashboard/transactions/series',
    ]) {
      expect((await get(url, backOffice)).statusCode, url).toBe(403);
    }
    for (const query of [
      'start=abc',
      'limit=0',
      'limit=501',
      'page=0',
      'account=nope',
      `start=${unix(PRESETS.today[1])}&end=${unix(PRESETS.today[0])}`,
    ]) {
      const response = await get(`/api/dashboard/transactions?${query}`);
      expect(response.statusCode, query).toBe(400);
      expect(response.json<ErrorResponse>().code, query).toBe('InvalidInput');
    }
    const bucket = await get('/api/dashboard/transactions/series?bucket=week');
    expect(bucket.statusCode).toBe(400);
    expect((await get('/api/dashboard/transactions/sum/not-a-uuid')).statusCode).toBe(400);
    expect((await get('/api/organization/current', backOffice)).statusCode).toBe(403);
  });
});
