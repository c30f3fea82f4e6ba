import { randomBytes, randomUUID } from 'node:crypto';
import {
  ALL_COUNTRIES_ID,
  type CountryReport,
  computeSale,
  type ErrorResponse,
  fiatToMsat,
  formatMinor,
  type Transaction,
  type TransactionSums,
  type UnpaidTransaction,
} from '@rayo/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectRollupEqualsRebuild } from '../../../test/rollups.ts';
import {
  bearer,
  createTestAccount,
  createTestApp,
  createTestUser,
  signIn,
  type TestApp,
} from '../../../test/test-app.ts';
import { insertInvoice } from '../invoices/invoices.repo.ts';
import { settleInvoice } from '../ledger/settlement.service.ts';
import { createOrganization } from '../organizations/organizations.service.ts';
import { exportCountryReportCsv } from './back-office-payments.service.ts';

type Headers = { authorization: string };

const RATES: Record<string, bigint> = { GTQ: 750_000_00n, USD: 95_000_00n };

/** A minimal RFC 4180 reader: quoted fields may hold commas and doubled quotes; blank lines are dropped. */
function csvRows(text: string): string[][] {
  const rows: string[][] = [];
  for (const line of text.split('\r\n')) {
    if (line === '') continue;
    const fields: string[] = [];
    let field = '';
    let quoted = false;
    for (let i = 0; i < line.length; i += 1) {
      const char = line[i];
      if (quoted && char === '"' && line[i + 1] === '"') {
        field += '"';
        i += 1;
      } else if (char === '"') quoted = !quoted;
      else if (char === ',' && !quoted) {
        fields.push(field);
        field = '';
      } else field += char;
    }
    rows.push([...fields, field]);
  }
  return rows;
}

describe('back office payments', () => {
  let t: TestApp;
  let backOffice: Headers;
  let superAdmin: Headers;
  let adminA: Headers;
  let managerA: Headers;
  const org = { a: '', b: '', c: '' };
  const sales: Record<'a' | 'b' | 'c', string[]> = { a: [], b: [], c: [] };
  let guatemala: number;

  const call = (method: 'GET' | 'POST', url: string, headers: Headers, payload?: object) =>
    t.app.inject({ method, url, headers, ...(payload ? { payload } : {}) });
  const unpaid = async (organizationId: string) => {
    const response = await call(
      'GET',
      `/api/back-office/organization/${organizationId}/unpaid-transactions`,
      backOffice,
    );
    expect(response.statusCode, response.body).toBe(200);
    return response.json<UnpaidTransaction[]>();
  };
  const pay = (ids: string[]) =>
    call('POST', '/api/back-office/pay-transactions', backOffice, { transactionsIds: ids });
  const report = async (path: string) => {
    const response = await call('GET', path, backOffice);
    expect(response.statusCode, response.body).toBe(200);
    return response.json<CountryReport>();
  };
  const disbursedOf = async (ids: string[]) =>
    (await t.db.selectFrom('transactions').select(['id', 'disbursed']).where('id', 'in', ids).execute()).map(
      (row) => row.disbursed,
    );

  async function sell(organizationId: string, accountId: string, bill: bigint, at: Date, currency = 'GTQ') {
    const rate = RATES[currency] as bigint;
    const figures = computeSale({ billMinor: bill, tipMinor: 0n, taxBps: 0 });
    const amountMsat = fiatToMsat(figures.totalMinor, rate, currency);
    const paymentHash = randomBytes(32).toString('hex');
    await insertInvoice(t.db, {
      organization_id: organizationId,
      account_id: accountId,
      bpt_id: null,
      payment_hash: paymentHash,
      payment_request: `lnbcrt${paymentHash}`,
      description: 'sale',
      amount_msat: amountMsat,
      currency,
      bill_minor: figures.billMinor,
      tip_minor: figures.tipMinor,
      tax_minor: figures.taxMinor,
      total_minor: figures.totalMinor,
      rate_minor_per_btc: rate,
      expires_at: new Date(at.getTime() + 900_000),
    });
    // The real settlement path, so the ledger and both rollups are written as in production.
    expect(
      await settleInvoice({ db: t.db, config: t.config }, 'test', {
        paymentHash,
        settleIndex: 0n,
        amountPaidMsat: amountMsat,
        settledAt: at,
      }),
    ).toBe(true);
    const row = await t.db
      .selectFrom('transactions')
      .select('id')
      .where('payment_hash', '=', paymentHash)
      .executeTakeFirstOrThrow();
    return row.id;
  }

  async function newOrganization(name: string, countryCode: string, fiatBps: number, bank = true) {
    const organization = await createOrganization(t.db, { name, countryCode, language: 'en', currency: 'GTQ' });
    if (bank) {
      await t.db
        .insertInto('banking_info')
        .values({ organization_id: organization.id, metadata: JSON.stringify({ bank: 'Banco Industrial' }) })
        .execute();
    }
    await t.db
      .updateTable('organizations')
      .set({ payout_fiat_bps: fiatBps, payout_onchain_bps: 0, payout_lightning_bps: 10_000 - fiatBps })
      .where('id', '=', organization.id)
      .execute();
    const account = await createTestAccount(t.db, organization.id, 'Counter');
    return { id: organization.id, accountId: account.id };
  }

  beforeAll(async () => {
    t = await createTestApp({}, { jobs: false });
    await t.db
      .insertInto('rates')
      .values({ currency: 'USD', rate_minor_per_btc: RATES.USD as bigint, source: 'test', fetched_at: new Date() })
      .onConflict((oc) => oc.column('currency').doUpdateSet({ rate_minor_per_btc: RATES.USD as bigint }))
      .execute();
    const a = await newOrganization('Alpha "Café"', 'GT', 5000);
    const b = await newOrganization('=Beta', 'GT', 10_000);
    const c = await newOrganization('Gamma', 'SV', 0, false);
    org.a = a.id;
    org.b = b.id;
    org.c = c.id;
    const day = (n: number) => new Date(Date.UTC(2025, 2, 1 + n, 15));
    // Alpha: six sales with a fiat half, one of them in dollars; Beta: five all fiat; Gamma: none in fiat.
    for (let n = 0; n < 5; n += 1) sales.a.push(await sell(a.id, a.accountId, 10_001n + BigInt(n) * 333n, day(n)));
    sales.a.push(await sell(a.id, a.accountId, 1999n, day(5), 'USD'));
    for (let n = 0; n < 5; n += 1) sales.b.push(await sell(b.id, b.accountId, 5_000n + BigInt(n), day(n)));
    for (let n = 0; n < 3; n += 1) sales.c.push(await sell(c.id, c.accountId, 2_500n, day(n)));
    guatemala = (await t.db.selectFrom('countries').select('id').where('code', '=', 'GT').executeTakeFirstOrThrow()).id;

    const users = {
      backOffice: await createTestUser(t.db, { role: 'back_office', organizationId: null }),
      superAdmin: await createTestUser(t.db, { role: 'super_admin', organizationId: c.id }),
      adminA: await createTestUser(t.db, { role: 'admin', organizationId: a.id }),
      managerA: await createTestUser(t.db, { role: 'manager', organizationId: a.id, accountIds: [a.accountId] }),
    };
    const token = async (user: { email: string; password: string }) =>
      bearer((await signIn(t.app, user.email, user.password)).accessToken);
    backOffice = await token(users.backOffice);
    superAdmin = await token(users.superAdmin);
    adminA = await token(users.adminA);
    managerA = await token(users.managerA);
  });
  afterAll(async () => {
    await t?.close();
  });

  it('answers back office and the super admin only', async () => {
    const routes: Array<['GET' | 'POST', string, object?]> = [
      ['GET', `/api/back-office/organization/${org.a}/unpaid-transactions`],
      ['GET', `/api/back-office/organization/${org.a}/transactions`],
      ['POST', '/api/back-office/pay-transactions', { transactionsIds: [] }],
      ['GET', '/api/back-office/country/report'],
      ['GET', `/api/back-office/country/${guatemala}/report`],
      ['GET', '/api/back-office/country/report/csv'],
      ['GET', `/api/back-office/country/${guatemala}/report/csv`],
    ];
    for (const [method, url, body] of routes) {
      for (const headers of [adminA, managerA]) expect((await call(method, url, headers, body)).statusCode).toBe(403);
      for (const headers of [backOffice, superAdmin])
        expect((await call(method, url, headers, body)).statusCode).toBe(200);
    }
  });

  it('answers 404 for an unknown organization or country', async () => {
    for (const url of [
      `/api/back-office/organization/${randomUUID()}/unpaid-transactions`,
      `/api/back-office/organization/${randomUUID()}/transactions`,
      '/api/back-office/country/999999/report',
      '/api/back-office/country/999999/report/csv',
    ]) {
      const response = await call('GET', url, backOffice);
      expect(response.statusCode, url).toBe(404);
      expect(response.json<ErrorResponse>().code).toBe('NotFound');
    }
    expect((await call('GET', '/api/back-office/organization/nope/unpaid-transactions', backOffice)).statusCode).toBe(
      400,
    );
  });

  it("lists an organization's unpaid fiat sales, oldest first, and none without a fiat part", async () => {
    const list = await unpaid(org.a);
    expect(list.map((transaction) => transaction.id)).toEqual(sales.a);
    const rows = await t.db.selectFrom('transactions').selectAll().where('id', 'in', sales.a).execute();
    for (const transaction of list) {
      const row = rows.find((r) => r.id === transaction.id);
      expect(transaction.fiatIncomeMinor).toBe(row?.fiat_income_minor);
      expect(transaction.fiatIncome).toBe(formatMinor(BigInt(row?.fiat_income_minor ?? 0), transaction.currency));
      expect(transaction.disbursed).toBe(false);
    }
    expect(await unpaid(org.c)).toEqual([]);
  });

  it('does nothing for an empty list and refuses a list over the limit', async () => {
    const empty = await pay([]);
    expect(empty.statusCode).toBe(200);
    expect(empty.json()).toEqual({ paid: 0 });
    const tooMany = await pay(Array.from({ length: 10_001 }, () => randomUUID()));
    expect(tooMany.statusCode).toBe(400);
    expect((await pay(['not-an-id'])).statusCode).toBe(400);
  });

  it('refuses the whole list when one id is unknown or has no fiat part, and changes nothing', async () => {
    const before = await sumsOf(adminA);
    for (const bad of [randomUUID(), sales.c[0] as string]) {
      const response = await pay([sales.a[0] as string, sales.b[0] as string, bad]);
      expect(response.statusCode).toBe(404);
      expect(response.json<ErrorResponse>()).toEqual({
        code: 'TransactionNotFound',
        message: "Transaction doesn't exists",
      });
    }
    expect(await disbursedOf([sales.a[0] as string, sales.b[0] as string])).toEqual([false, false]);
    expect(await sumsOf(adminA)).toEqual(before);
  });

  async function sumsOf(headers: Headers): Promise<TransactionSums> {
    const response = await call('GET', '/api/dashboard/transactions/sum', headers);
    expect(response.statusCode, response.body).toBe(200);
    return response.json<TransactionSums>();
  }

  it("pays once when two calls pay the same sales at the same time, and the merchant's fiat to disburse falls", async () => {
    const before = await sumsOf(adminA);
    const ids = [sales.a[0] as string, sales.a[1] as string, sales.b[0] as string];
    const rows = await t.db.selectFrom('transactions').selectAll().where('id', 'in', ids).execute();
    const [first, second] = await Promise.all([pay(ids), pay([...ids].reverse())]);
    const statuses = [first.statusCode, second.statusCode].sort();
    expect(statuses).toEqual([200, 404]);
    expect(await disbursedOf(ids)).toEqual([true, true, true]);
    const audit = await t.db
      .selectFrom('audit_log')
      .select(['organization_id', 'after'])
      .where('action', '=', 'back_office.transactions_paid')
      .execute();
    expect(audit).toHaveLength(2);
    const auditA = audit.find((entry) => entry.organization_id === org.a);
    expect(auditA?.after).toMatchObject({ count: 2 });

    const ofA = rows.filter((row) => row.organization_id === org.a);
    const after = await sumsOf(adminA);
    const paidFiat = ofA.reduce((sum, row) => sum + BigInt(row.fiat_income_minor), 0n);
    expect(paidFiat).toBeGreaterThan(0n);
    expect(after.fiatToDisburse).toBe(formatMinor(BigInt(before.fiatToDisburse.replace('.', '')) - paidFiat, 'GTQ'));
    // The bank transfer pays the fiat share only: the bitcoin shares wait for their payouts.
    expect(ofA.some((row) => BigInt(row.onchain_msat) + BigInt(row.lightning_msat) > 0n)).toBe(true);
    expect(after.msatsToDisburse).toBe(before.msatsToDisburse);
    expect((await unpaid(org.a)).map((transaction) => transaction.id)).toEqual(sales.a.slice(2));

    // Paid already: refused as a whole, with an unpaid one beside it.
    const again = await pay([sales.a[0] as string, sales.a[2] as string]);
    expect(again.statusCode).toBe(404);
    expect(await disbursedOf([sales.a[2] as string])).toEqual([false]);
  });

  it('keeps the rollups equal to what the ledger rebuilds', async () => {
    await expectRollupEqualsRebuild(t.db, 'disbursement_totals');
    await expectRollupEqualsRebuild(t.db, 'transaction_daily');
  });

  it("exports an organization's ledger page by page until an empty page", async () => {
    const read: Transaction[] = [];
    let total = '';
    for (let page = 1; ; page += 1) {
      const response = await call(
        'GET',
        `/api/back-office/organization/${org.a}/transactions?page=${page}&limit=4`,
        backOffice,
      );
      expect(response.statusCode, response.body).toBe(200);
      total = String(response.headers['x-total-count']);
      const transactions = response.json<Transaction[]>();
      if (transactions.length === 0) break;
      read.push(...transactions);
    }
    expect(read.map((transaction) => transaction.id)).toEqual(sales.a);
    expect(total).toBe('6');
    expect(read.filter((transaction) => transaction.disbursed).map((transaction) => transaction.id)).toEqual(
      sales.a.slice(0, 2),
    );
    const tooBig = await call('GET', `/api/back-office/organization/${org.a}/transactions?limit=501`, backOffice);
    expect(tooBig.statusCode).toBe(400);
  });

  it('reports a country: rows, active organizations, paid sats rounded down and fees in USD', async () => {
    const ledger = await t.db.selectFrom('transactions').selectAll().execute();
    const ofOrg = (id: string) => ledger.filter((row) => row.organization_id === id);
    const paidMsat = (id: string) =>
      ofOrg(id)
        .filter((row) => row.disbursed)
        .reduce((sum, row) => sum + BigInt(row.fiat_msat), 0n);
    const feeMicros = (id: string) =>
      ofOrg(id).reduce((sum, row) => sum + (BigInt(row.tx_fee_msat) * (RATES.USD as bigint)) / 10_000_000n, 0n);
    const usd = (micros: bigint) => formatMinor(micros / 10_000n, 'USD');

    const gt = await report(`/api/back-office/country/${guatemala}/report`);
    expect(gt.rows.map((row) => row.organizationName).sort()).toEqual(['=Beta', 'Alpha "Café"']);
    const alpha = gt.rows.find((row) => row.organizationId === org.a);
    expect(alpha).toMatchObject({
      paidTransactionsCount: 2,
      pendingTransactionsCount: 4,
      paidMsat: paidMsat(org.a).toString(),
      feeUsdEarned: usd(feeMicros(org.a)),
    });
    expect(alpha?.transactions.map((transaction) => transaction.id)).toEqual(sales.a.slice(2));
    expect(gt.rows.map((row) => row.hasBankAccount)).toEqual([true, true]);
    const paidGtq = ofOrg(org.a)
      .filter((row) => row.disbursed)
      .reduce((sum, row) => sum + BigInt(row.fiat_income_minor), 0n);
    expect(alpha?.paidFiat).toEqual([{ currency: 'GTQ', amount: formatMinor(paidGtq, 'GTQ') }]);
    const totalMsat = paidMsat(org.a) + paidMsat(org.b);
    expect(totalMsat % 1000n).not.toBe(0n);
    expect(gt.totals).toEqual({
      pendingTransactions: 8,
      paidTransactions: 3,
      organizations: 2,
      // Alpha has six (4 + 2), above five; Beta has exactly five, which is not.
      activeOrganizations: 1,
      paidSats: (totalMsat / 1000n).toString(),
      paidFiat: [
        {
          currency: 'GTQ',
          amount: formatMinor(
            [...ofOrg(org.a), ...ofOrg(org.b)]
              .filter((row) => row.disbursed)
              .reduce((sum, row) => sum + BigInt(row.fiat_income_minor), 0n),
            'GTQ',
          ),
        },
      ],
      feeUsd: usd(feeMicros(org.a) + feeMicros(org.b)),
    });

    const all = await report('/api/back-office/country/report');
    expect(all).toEqual(await report('/api/back-office/country/-1/report'));
    expect(all.totals.organizations).toBe(3);
    expect(all.rows.find((row) => row.organizationId === org.c)).toMatchObject({
      paidTransactionsCount: 0,
      pendingTransactionsCount: 0,
      transactions: [],
      feeUsdEarned: usd(feeMicros(org.c)),
      hasBankAccount: false,
    });
  });

  it('downloads the same rows and totals as CSV', async () => {
    const json = await report(`/api/back-office/country/${guatemala}/report`);
    const response = await call('GET', `/api/back-office/country/${guatemala}/report/csv`, backOffice);
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toMatch(/^text\/csv/);
    expect(response.headers['content-disposition']).toMatch(
      /^attachment; filename="country_report_gt_\d{4}-\d{2}-\d{2}\.csv"$/,
    );
    const [header, ...lines] = csvRows(response.body);
    expect(header?.[0]).toBe('Organization id');
    const rows = lines.slice(0, json.rows.length);
    expect(rows.map((row) => row[0])).toEqual(json.rows.map((row) => row.organizationId));
    // A name that starts like a formula is kept as text.
    expect(rows.map((row) => row[1])).toEqual(
      json.rows.map((row) => (row.organizationName === '=Beta' ? "'=Beta" : row.organizationName)),
    );
    for (const [i, row] of json.rows.entries()) {
      expect(rows[i]?.slice(3)).toEqual([
        row.paidMsat,
        (BigInt(row.paidMsat) / 1000n).toString(),
        String(row.paidTransactionsCount),
        String(row.pendingTransactionsCount),
        row.feeUsdEarned,
      ]);
    }
    const totals = Object.fromEntries(lines.slice(json.rows.length + 1).map((line) => [line[0], line[1]]));
    expect(totals).toEqual({
      'Pending transactions': String(json.totals.pendingTransactions),
      'Paid transactions': String(json.totals.paidTransactions),
      Organizations: String(json.totals.organizations),
      'Active organizations': String(json.totals.activeOrganizations),
      'Paid sats': json.totals.paidSats,
      'Paid fiat': json.totals.paidFiat.map((amount) => `${amount.amount} ${amount.currency}`).join('; '),
      'Fee USD': json.totals.feeUsd,
    });
  });

  it('names the CSV after the country, or all of them, and the day it was taken', async () => {
    const now = new Date('2026-11-27T23:30:00Z');
    expect((await exportCountryReportCsv(t.db, t.db, guatemala, now)).filename).toBe(
      'country_report_gt_2026-11-27.csv',
    );
    expect((await exportCountryReportCsv(t.db, t.db, ALL_COUNTRIES_ID, now)).filename).toBe(
      'country_report_all_2026-11-27.csv',
    );
  });

  it('pays two overlapping selections at once without a deadlock', async () => {
    // Both calls touch the same two organizations' totals, named in opposite orders.
    const first = [sales.a[2] as string, sales.b[3] as string];
    const second = [sales.b[2] as string, sales.a[3] as string];
    const answers = await Promise.all([pay(first), pay(second)]);
    expect(answers.map((answer) => answer.statusCode)).toEqual([200, 200]);
    expect(await disbursedOf([...first, ...second])).toEqual([true, true, true, true]);
  });

  it('pays no sale to a bank account that changed until back office has verified it', async () => {
    const shop = await newOrganization('Delta', 'GT', 10_000, false);
    const sale = await sell(shop.id, shop.accountId, 4_000n, new Date());
    const admin = await createTestUser(t.db, { role: 'admin', organizationId: shop.id });
    const adminHeaders = bearer((await signIn(t.app, admin.email, admin.password)).accessToken);
    const saved = await call('POST', '/api/settings/banking-info', adminHeaders, {
      bankingInfoMetadata: {
        bank: 'Banco Industrial',
        accountName: 'Delta',
        accountNumber: 'GT82TRAJ01020000001210029690',
        accountType: 'checking',
        currency: 'GTQ',
      },
    });
    expect(saved.statusCode, saved.body).toBe(201);

    const held = await pay([sale, sales.b[4] as string]);
    expect([held.statusCode, held.json<ErrorResponse>().code]).toEqual([409, 'PayoutDestinationHeld']);
    expect(await disbursedOf([sale, sales.b[4] as string])).toEqual([false, false]);

    const verified = await t.app.inject({
      method: 'PUT',
      url: `/api/back-office/organization/${shop.id}/verification`,
      headers: backOffice,
      payload: { field: 'bank', verified: true },
    });
    expect(verified.statusCode, verified.body).toBe(200);
    expect((await pay([sale])).statusCode).toBe(200);
  });

  it('pays an organization without a bank account only when back office confirms it was paid another way', async () => {
    const epsilon = await newOrganization('Epsilon', 'HN', 10_000, false);
    const ids = [
      await sell(epsilon.id, epsilon.accountId, 4_000n, new Date(Date.UTC(2025, 3, 1, 15))),
      await sell(epsilon.id, epsilon.accountId, 4_100n, new Date(Date.UTC(2025, 3, 2, 15))),
    ];
    const withAlpha = [...ids, sales.a[4] as string];

    const refused = await pay(withAlpha);
    expect(refused.statusCode).toBe(409);
    expect(refused.json<ErrorResponse>()).toEqual({
      code: 'BankAccountMissing',
      message: 'No bank account to pay: Epsilon; confirm it was paid another way',
    });
    expect(await disbursedOf(withAlpha)).toEqual([false, false, false]);
    // Confirming another organization does not confirm this one.
    const elsewhere = await call('POST', '/api/back-office/pay-transactions', backOffice, {
      transactionsIds: withAlpha,
      withoutBankAccount: [org.c],
    });
    expect(elsewhere.statusCode).toBe(409);

    const confirmed = await call('POST', '/api/back-office/pay-transactions', backOffice, {
      transactionsIds: withAlpha,
      withoutBankAccount: [epsilon.id],
    });
    expect(confirmed.statusCode, confirmed.body).toBe(200);
    expect(await disbursedOf(withAlpha)).toEqual([true, true, true]);
    const audit = await t.db
      .selectFrom('audit_log')
      .select(['organization_id', 'after'])
      .where('action', '=', 'back_office.transactions_paid')
      .where('organization_id', 'in', [epsilon.id, org.a])
      .orderBy('occurred_at', 'desc')
      .limit(2)
      .execute();
    expect(audit.find((entry) => entry.organization_id === epsilon.id)?.after).toMatchObject({
      count: 2,
      withoutBankAccount: true,
    });
    expect(audit.find((entry) => entry.organization_id === org.a)?.after).not.toHaveProperty('withoutBankAccount');
  });
});
