import { type BackOfficeOrganizationPage, formatMinor, type TransactionSums } from '@rayo/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FakeLnd } from '../../../test/fakes/lnd-server.ts';
import type { FakeLnurlPay } from '../../../test/fakes/lnurl-pay-server.ts';
import { openPayoutShop, type PayoutShop, sellAndSettle, startLndPayoutApp } from '../../../test/payout-shop.ts';
import { expectRollupEqualsRebuild } from '../../../test/rollups.ts';
import { bearer, createTestUser, signIn, type TestApp } from '../../../test/test-app.ts';
import { systemContext } from '../../http/request-context.ts';
import { batchLightningPayouts } from '../payouts/payouts.service.ts';
import { updatePayoutSplit } from '../settings/payout-split.repo.ts';

/**
 * A refund of a sale split between fiat and Lightning is taken from each share (decision 0057):
 * its Lightning part from the Lightning payouts, its fiat part from the fiat back office
 * transfers, whether the share was paid yet or not. Through the lnd stand-in and HTTP.
 */

let lnd: FakeLnd;
let lnurl: FakeLnurlPay;
let t: TestApp;
let close: () => Promise<void>;
let backOffice: Record<string, string>;

beforeAll(async () => {
  ({ lnd, lnurl, t, close } = await startLndPayoutApp({ PAYOUT_MIN_SATS: '1000' }));
  const staff = await createTestUser(t.db, { role: 'back_office', organizationId: null });
  backOffice = bearer((await signIn(t.app, staff.email, staff.password)).accessToken);
});
afterAll(() => close?.());

/** A shop paid out 40 % in fiat and 60 % by Lightning. */
async function openShop(name: string): Promise<PayoutShop> {
  const shop = await openPayoutShop(t, lnurl.address(name));
  await updatePayoutSplit(t.db, shop.organization.id, { fiatBps: 4_000, onchainBps: 0, lightningBps: 6_000 });
  return shop;
}

async function sell(shop: PayoutShop, amount: string) {
  await sellAndSettle(t, shop, amount, (hash) => lnd.settle(hash));
  return (
    t.db
      .selectFrom('transactions')
      .select(['id', 'lightning_msat', 'fiat_msat', 'fiat_income_minor', 'total_msat'])
      .where('organization_id', '=', shop.organization.id)
      // The stand-in node settles to the second: the invoice's creation orders two quick sales.
      .orderBy('created_at', 'desc')
      .executeTakeFirstOrThrow()
  );
}

let keys = 0;
async function refund(shop: PayoutShop, transactionId: string, amountMsat: bigint) {
  keys += 1;
  const response = await t.app.inject({
    method: 'POST',
    url: `/api/transactions/${transactionId}/refunds`,
    headers: shop.admin,
    payload: { amountMsat: Number(amountMsat), idempotencyKey: `share-refund-${keys}` },
  });
  expect(response.statusCode, response.body).toBe(200);
  return t.db
    .selectFrom('refunds')
    .select(['id', 'fiat_msat', 'lightning_msat', 'fiat_share_minor'])
    .where('transaction_id', '=', transactionId)
    .orderBy('created_at', 'desc')
    .executeTakeFirstOrThrow();
}

async function sums(shop: PayoutShop): Promise<TransactionSums> {
  const response = await t.app.inject({ method: 'GET', url: '/api/dashboard/transactions/sum', headers: shop.admin });
  expect(response.statusCode, response.body).toBe(200);
  return response.json<TransactionSums>();
}

async function pendingFiat(shop: PayoutShop): Promise<string | undefined> {
  const response = await t.app.inject({
    method: 'GET',
    url: `/api/back-office/organizations?search=${encodeURIComponent(shop.organization.name)}`,
    headers: backOffice,
  });
  expect(response.statusCode, response.body).toBe(200);
  return response
    .json<BackOfficeOrganizationPage>()
    .organizations.find((organization) => organization.id === shop.organization.id)?.pendingFiat;
}

async function markPaid(shop: PayoutShop, ids: string[]) {
  const response = await t.app.inject({
    method: 'POST',
    url: '/api/back-office/pay-transactions',
    headers: backOffice,
    payload: { transactionsIds: ids, withoutBankAccount: [shop.organization.id] },
  });
  expect(response.statusCode, response.body).toBe(200);
}

async function totals(shop: PayoutShop) {
  const row = await t.db
    .selectFrom('disbursement_totals')
    .select(['pending_fiat_minor', 'paid_fiat_minor'])
    .where('organization_id', '=', shop.organization.id)
    .executeTakeFirstOrThrow();
  return { pending: BigInt(row.pending_fiat_minor), paid: BigInt(row.paid_fiat_minor) };
}

describe("refunds taken from each of the sale's shares", () => {
  it('takes the Lightning part from the Lightning payout and the fiat part from the fiat to disburse', async () => {
    const shop = await openShop('shares-unpaid');
    const sale = await sell(shop, '5.00');
    const before = await sums(shop);
    const taken = await refund(shop, sale.id, 2_000_000n);
    expect([taken.lightning_msat, taken.fiat_msat].map(String)).toEqual(['1200000', '800000']);
    const fiatPart = BigInt(taken.fiat_share_minor);
    const income = BigInt(sale.fiat_income_minor);

    // The dashboard: the bitcoin figure less the Lightning part, the fiat figure less the fiat part.
    const after = await sums(shop);
    expect(after.msatsToDisburse).toBe(before.msatsToDisburse - 1_200_000);
    expect(after.fiatToDisburse).toBe(formatMinor(income - fiatPart, 'USD'));
    expect(await pendingFiat(shop)).toBe(formatMinor(income - fiatPart, 'USD'));

    const [payout] = (
      await batchLightningPayouts(systemContext('pay-lightning-payouts'), {
        db: t.db,
        config: t.config,
        lightning: t.runtime.deps.lightning,
      })
    ).filter((p) => p.organizationId === shop.organization.id);
    expect(payout?.amountMsat).toBe(BigInt(sale.lightning_msat) - 1_200_000n);

    // Back office's transfer of the sale pays its fiat less the refund's fiat part, and takes it.
    await markPaid(shop, [sale.id]);
    expect(await totals(shop)).toEqual({ pending: 0n, paid: income - fiatPart });
    const paidMsat = await t.db
      .selectFrom('disbursement_totals')
      .select(['pending_msat', 'paid_msat'])
      .where('organization_id', '=', shop.organization.id)
      .executeTakeFirstOrThrow();
    expect([paidMsat.pending_msat, paidMsat.paid_msat].map(String)).toEqual([
      '0',
      String(BigInt(sale.fiat_msat) - BigInt(taken.fiat_msat)),
    ]);
    expect(await pendingFiat(shop)).toBe('0.00');
    expect((await sums(shop)).fiatToDisburse).toBe('0.00');
  });

  it("takes the fiat part of a refund of a sale already paid from the organization's next transfer", async () => {
    const shop = await openShop('shares-paid');
    const first = await sell(shop, '5.00');
    await markPaid(shop, [first.id]);
    const taken = await refund(shop, first.id, BigInt(first.total_msat));
    const fiatPart = BigInt(taken.fiat_share_minor);
    // Owed back: back office's figure shows the debt until a transfer takes it.
    expect(await totals(shop)).toEqual({ pending: -fiatPart, paid: BigInt(first.fiat_income_minor) });
    const second = await sell(shop, '9.00');
    expect((await totals(shop)).pending).toBe(BigInt(second.fiat_income_minor) - fiatPart);
    await markPaid(shop, [second.id]);
    expect(await totals(shop)).toEqual({
      pending: 0n,
      paid: BigInt(first.fiat_income_minor) + BigInt(second.fiat_income_minor) - fiatPart,
    });
    const owed = await t.db
      .selectFrom('refunds')
      .select('fiat_taken_at')
      .where('id', '=', taken.id)
      .executeTakeFirstOrThrow();
    expect(owed.fiat_taken_at).not.toBeNull();
  });

  it('keeps disbursement_totals equal to its rebuild from the ledger and the refunds', async () => {
    await expectRollupEqualsRebuild(t.db, 'disbursement_totals');
  });
});
