import { formatMinor, type Transaction, type TransactionSeries, type TransactionSums } from '@rayo/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Recorded, recordSale } from '../../../test/record-sale.ts';
import { expectRollupEqualsRebuild } from '../../../test/rollups.ts';
import { createTestApp, openTestShop, type TestApp } from '../../../test/test-app.ts';
import { splitRefund } from '../../domain/refund-shares.ts';
import { insertAccount } from '../accounts/accounts.repo.ts';
import { updatePayoutSplit } from '../settings/payout-split.repo.ts';

/**
 * A refund is a movement of the ledger: made through the refunds call, it is split over the
 * sale's shares and summed on the sale's row and its day in `transaction_daily`, in the same
 * transaction as the refund itself.
 */

let t: TestApp;
let shop: Awaited<ReturnType<typeof openTestShop>>;
let sale: Recorded;
let accountId = '';

beforeAll(async () => {
  t = await createTestApp();
  shop = await openTestShop(t);
  const account = await insertAccount(t.db, {
    organizationId: shop.organization.id,
    name: 'Counter',
    internalCode: null,
  });
  accountId = account.id;
  await updatePayoutSplit(t.db, shop.organization.id, { fiatBps: 5_000, onchainBps: 2_000, lightningBps: 3_000 });
  sale = await recordSale(t, shop.organization.id, {
    at: new Date('2026-11-20T15:00:00Z'),
    bill: 10_000n,
    accountId: account.id,
    bptId: null,
  });
});
afterAll(() => t?.close());

let keys = 0;
async function refund(amountMsat: bigint) {
  keys += 1;
  const response = await t.app.inject({
    method: 'POST',
    url: `/api/transactions/${sale.transactionId}/refunds`,
    headers: shop.admin,
    payload: { amountMsat: Number(amountMsat), idempotencyKey: `ledger-refund-${keys}` },
  });
  expect(response.statusCode, response.body).toBe(200);
}

async function saleRow() {
  return t.db.selectFrom('transactions').selectAll().where('id', '=', sale.transactionId).executeTakeFirstOrThrow();
}

describe('refunds in the ledger', () => {
  it("splits each refund over the sale's shares and nets the sale and its day, to the msat", async () => {
    const first = 1_000_001n;
    await refund(first);
    await refund(sale.totalMsat - first);
    const row = await saleRow();
    const refunds = await t.db
      .selectFrom('refunds')
      .select(['amount_msat', 'fiat_minor', 'fiat_msat', 'onchain_msat', 'lightning_msat', 'fiat_share_minor'])
      .where('transaction_id', '=', sale.transactionId)
      .orderBy('created_at')
      .execute();
    const split = {
      fiatBps: 5_000,
      onchainBps: 2_000,
      lightningBps: 3_000,
      rateMinorPerBtc: BigInt(row.rate_minor_per_btc),
      currency: 'GTQ',
    };
    const firstShares = splitRefund(split, 0n, first);
    const secondShares = splitRefund(split, firstShares.fiatMsat, sale.totalMsat - first);
    expect(refunds.map((r) => [r.fiat_msat, r.onchain_msat, r.lightning_msat, r.fiat_share_minor].map(String))).toEqual(
      [firstShares, secondShares].map((s) => [s.fiatMsat, s.onchainMsat, s.lightningMsat, s.fiatMinor].map(String)),
    );
    for (const r of refunds) {
      expect(BigInt(r.fiat_msat) + BigInt(r.onchain_msat) + BigInt(r.lightning_msat)).toBe(BigInt(r.amount_msat));
    }
    expect(BigInt(row.refunded_msat)).toBe(sale.totalMsat);
    expect(BigInt(row.refunded_minor)).toBe(sale.totalMinor);
    expect(
      BigInt(row.refunded_fiat_msat) + BigInt(row.refunded_onchain_msat) + BigInt(row.refunded_lightning_msat),
    ).toBe(sale.totalMsat);
    expect(BigInt(row.refunded_fiat_msat)).toBe(firstShares.fiatMsat + secondShares.fiatMsat);
    expect(BigInt(row.refunded_fiat_minor)).toBe(firstShares.fiatMinor + secondShares.fiatMinor);

    const day = await t.db
      .selectFrom('transaction_daily')
      .select(['refunded_msat', 'refunded_minor'])
      .where('organization_id', '=', shop.organization.id)
      .executeTakeFirstOrThrow();
    expect([BigInt(day.refunded_msat), BigInt(day.refunded_minor)]).toEqual([sale.totalMsat, sale.totalMinor]);
  });

  it('nets the sale in the CSV, the sums and the charts', async () => {
    const other = await recordSale(t, shop.organization.id, {
      at: new Date('2026-11-21T15:00:00Z'),
      bill: 2_500n,
      accountId,
      bptId: null,
    });
    const get = async (url: string) => {
      const response = await t.app.inject({ method: 'GET', url, headers: shop.admin });
      expect(response.statusCode, response.body).toBe(200);
      return response;
    };
    const csv = (await get('/api/dashboard/transactions/csv')).body.trim().split('\r\n');
    expect(csv[0]?.split(',').slice(-3)).toEqual(['Refunded msats', 'Refunded', 'Net msats income']);
    const row = await saleRow();
    const refundedLine = csv.find((line) => line.includes(row.payment_hash));
    expect(refundedLine?.split(',').slice(-3)).toEqual([
      String(sale.totalMsat),
      formatMinor(sale.totalMinor, 'GTQ'),
      String(BigInt(row.income_msat) - sale.totalMsat),
    ]);
    const page = (await get('/api/dashboard/transactions?limit=10')).json<{ transactions: Transaction[] }>();
    expect(page.transactions.find((tx) => tx.id === sale.transactionId)).toMatchObject({
      refundedMsat: Number(sale.totalMsat),
      refundedAmount: formatMinor(sale.totalMinor, 'GTQ'),
    });

    // The refunded sale nets nothing: what was received and charted is the other sale.
    const sums = (await get('/api/dashboard/transactions/sum')).json<TransactionSums>();
    expect(sums.receiveMsat).toBe(Number(other.totalMsat));
    const series = (await get('/api/dashboard/transactions/series?bucket=day')).json<TransactionSeries>();
    expect(series.points.map((point) => point.salesMsat)).toEqual([0, Number(other.totalMsat)]);
    expect(series.byAccount.map((account) => account.salesMsat)).toEqual([Number(other.totalMsat)]);
  });

  it('keeps transaction_daily equal to its rebuild from the ledger', async () => {
    await expectRollupEqualsRebuild(t.db, 'transaction_daily');
  });
});
