import type { Refund, TransactionSums } from '@rayo/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FakeLnd } from '../../../test/fakes/lnd-server.ts';
import type { FakeLnurlPay } from '../../../test/fakes/lnurl-pay-server.ts';
import { openPayoutShop, type PayoutShop, sellAndSettle, startLndPayoutApp } from '../../../test/payout-shop.ts';
import { bearer, createTestUser, signIn, type TestApp } from '../../../test/test-app.ts';
import { systemContext } from '../../http/request-context.ts';
import { findPayout } from '../payouts/payouts.repo.ts';
import { attemptLightningPayout, batchLightningPayouts, type PayoutDeps } from '../payouts/payouts.service.ts';

/**
 * A refund is taken from what the merchant is paid out by Lightning: from the payout that carries
 * the refunded sale's share when it has not gone yet, else from the next one; a cancelled payout
 * gives its refunds back to the next. Through the lnd stand-in and a Lightning-address service.
 */

let lnd: FakeLnd;
let lnurl: FakeLnurlPay;
let t: TestApp;
let close: () => Promise<void>;
const log = { debug: () => {}, warn: () => {} };

beforeAll(async () => {
  ({ lnd, lnurl, t, close } = await startLndPayoutApp({ PAYOUT_MIN_SATS: '1000' }));
});
afterAll(() => close?.());

function deps(): PayoutDeps {
  return { db: t.db, config: t.config, lightning: t.runtime.deps.lightning };
}

const openShop = (name: string) => openPayoutShop(t, lnurl.address(name));
const sell = (shop: PayoutShop, amount: string) => sellAndSettle(t, shop, amount, (hash) => lnd.settle(hash));

async function saleOf(shop: PayoutShop): Promise<{ id: string; totalMsat: bigint }> {
  const row = await t.db
    .selectFrom('transactions')
    .select(['id', 'total_msat'])
    .where('organization_id', '=', shop.organization.id)
    .orderBy('settled_at', 'desc')
    .executeTakeFirstOrThrow();
  return { id: row.id, totalMsat: BigInt(row.total_msat) };
}

let keys = 0;
async function refund(shop: PayoutShop, transactionId: string, amountMsat: bigint): Promise<Refund> {
  keys += 1;
  const response = await t.app.inject({
    method: 'POST',
    url: `/api/transactions/${transactionId}/refunds`,
    headers: shop.admin,
    payload: { amountMsat: Number(amountMsat), idempotencyKey: `payout-refund-${keys}` },
  });
  expect(response.statusCode, response.body).toBe(200);
  return response.json<Refund>();
}

async function ownPayouts(shop: PayoutShop) {
  return (await batchLightningPayouts(systemContext('pay-lightning-payouts'), deps())).filter(
    (payout) => payout.organizationId === shop.organization.id,
  );
}

async function msatsToDisburse(headers: Record<string, string>): Promise<number> {
  const response = await t.app.inject({ method: 'GET', url: '/api/dashboard/transactions/sum', headers });
  expect(response.statusCode, response.body).toBe(200);
  return response.json<TransactionSums>().msatsToDisburse;
}

describe('refunds and Lightning payouts', () => {
  it('does not pay out a refunded share that was still unpaid', async () => {
    lnurl.misbehave('none');
    const shop = await openShop('refund-unpaid');
    const share = await sell(shop, '5.00');
    const sale = await saleOf(shop);
    const toDisburse = await msatsToDisburse(shop.admin);
    await refund(shop, sale.id, 1_500_000n);
    expect(await msatsToDisburse(shop.admin)).toBe(toDisburse - 1_500_000);
    const [payout] = await ownPayouts(shop);
    expect(payout?.amountMsat).toBe(share - 1_500_000n);
    await attemptLightningPayout(deps(), payout?.id as string, log);
    expect((await findPayout(t.db, payout?.id as string))?.state).toBe('sent');
    expect(lnurl.callbacks.at(-1)).toBe(share - 1_500_000n);
    // Paid out and refunded: nothing is left to disburse, and a new batch finds nothing.
    expect(await msatsToDisburse(shop.admin)).toBe(0);
    expect(await ownPayouts(shop)).toEqual([]);
  });

  it('takes a refund of a share already paid out from the next payout, and waits while that is too small', async () => {
    lnurl.misbehave('none');
    const shop = await openShop('refund-paid');
    await sell(shop, '5.00');
    const [first] = await ownPayouts(shop);
    await attemptLightningPayout(deps(), first?.id as string, log);
    const sale = await saleOf(shop);
    await refund(shop, sale.id, sale.totalMsat);
    // Owed back more than any new share: no payout until the shares cover the refund.
    const small = await sell(shop, '1.00');
    expect(await ownPayouts(shop)).toEqual([]);
    // The merchant owes more than is left to disburse: nothing is, rather than a negative figure.
    expect(await msatsToDisburse(shop.admin)).toBe(0);
    const big = await sell(shop, '9.00');
    const [next] = await ownPayouts(shop);
    expect(next?.amountMsat).toBe(small + big - sale.totalMsat);
  });

  it('gives the refunds of a cancelled payout to the next one', async () => {
    lnurl.misbehave('none');
    const shop = await openShop('refund-cancel');
    const share = await sell(shop, '5.00');
    const sale = await saleOf(shop);
    await refund(shop, sale.id, 1_000_000n);
    const [payout] = await ownPayouts(shop);
    expect(payout?.amountMsat).toBe(share - 1_000_000n);
    const staff = await createTestUser(t.db, { role: 'back_office', organizationId: null });
    const backOffice = bearer((await signIn(t.app, staff.email, staff.password)).accessToken);
    const cancelled = await t.app.inject({
      method: 'POST',
      url: `/api/back-office/payouts/${payout?.id}/cancel`,
      headers: backOffice,
    });
    expect(cancelled.statusCode, cancelled.body).toBe(200);
    const [again] = await ownPayouts(shop);
    expect(again?.amountMsat).toBe(share - 1_000_000n);
  });
});
