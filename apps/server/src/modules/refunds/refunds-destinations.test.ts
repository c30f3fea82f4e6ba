import type { ErrorResponse, Refund } from '@rayo/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FakeLnd } from '../../../test/fakes/lnd-server.ts';
import type { FakeLnurlPay } from '../../../test/fakes/lnurl-pay-server.ts';
import { openPayoutShop, type PayoutShop, sellAndSettle, startLndPayoutApp } from '../../../test/payout-shop.ts';
import type { TestApp } from '../../../test/test-app.ts';
import { waitFor } from '../../../test/wait-for.ts';
import { findRefund } from './refunds.repo.ts';
import { runRefundPayments } from './refunds.service.ts';

/**
 * Refunds paid to a Lightning address the customer gives (LUD-16, LUD-06), through the lnd
 * stand-in and a stand-in LNURL-pay service: the invoice it gives is checked as payouts check
 * theirs, then paid once by the refunds' payment path.
 */

let lnd: FakeLnd;
let lnurl: FakeLnurlPay;
let t: TestApp;
let close: () => Promise<void>;
const quiet = { debug: () => {}, warn: () => {} };

beforeAll(async () => {
  ({ lnd, lnurl, t, close } = await startLndPayoutApp({}));
});
afterAll(() => close?.());

async function sale(shop: PayoutShop): Promise<{ id: string; totalMsat: number }> {
  await sellAndSettle(t, shop, '10.00', (hash) => lnd.settle(hash));
  const row = await t.db
    .selectFrom('transactions')
    .select(['id', 'total_msat'])
    .where('organization_id', '=', shop.organization.id)
    .orderBy('settled_at', 'desc')
    .executeTakeFirstOrThrow();
  return { id: row.id, totalMsat: Number(row.total_msat) };
}

let keys = 0;
function refundTo(shop: PayoutShop, transactionId: string, amountMsat: number, destination: string) {
  keys += 1;
  return t.app.inject({
    method: 'POST',
    url: `/api/transactions/${transactionId}/refunds`,
    headers: shop.admin,
    payload: { amountMsat, idempotencyKey: `address-refund-${keys}`, destination },
  });
}

describe("a refund to the customer's Lightning address", () => {
  it("pays the address's invoice for exactly the refund, once", async () => {
    const shop = await openPayoutShop(t, lnurl.address('merchant-a'));
    const { id, totalMsat } = await sale(shop);
    const amountMsat = totalMsat - 3000;
    const response = await refundTo(shop, id, amountMsat, `lightning:${lnurl.address('customer')}`);
    expect(response.statusCode, response.body).toBe(200);
    const made = response.json<Refund>();
    expect(made).toMatchObject({ method: 'lightning-address', destination: lnurl.address('customer'), lnurl: null });
    expect(lnurl.callbacks.at(-1)).toBe(BigInt(amountMsat));
    await waitFor(async () => ((await findRefund(t.db, made.id))?.state === 'paid' ? true : undefined));
    await runRefundPayments(t.runtime.deps, quiet);
    const row = await findRefund(t.db, made.id);
    const paid = lnd.remoteInvoices().find((invoice) => invoice.paymentHash === row?.paymentHash);
    expect(paid?.amountMsat).toBe(BigInt(amountMsat));
    expect(paid?.successes).toBe(1);
  });

  it('refuses an invoice for another amount or description, a service error, and an amount out of range', async () => {
    const shop = await openPayoutShop(t, lnurl.address('merchant-b'));
    const { id, totalMsat } = await sale(shop);
    const address = lnurl.address('customer');
    for (const mode of ['wrong-amount', 'wrong-hash', 'error'] as const) {
      lnurl.misbehave(mode);
      const response = await refundTo(shop, id, totalMsat, address);
      expect(response.statusCode, `${mode}: ${response.body}`).toBe(400);
      expect(response.json<ErrorResponse>().code).toBe('LightningAddressNotPayable');
    }
    lnurl.misbehave('none');
    lnurl.sendable({ minMsat: BigInt(totalMsat) + 1000n, maxMsat: 100_000_000_000n });
    const tooSmall = await refundTo(shop, id, totalMsat, address);
    expect(tooSmall.json<ErrorResponse>().code).toBe('LightningAddressNotPayable');
    expect(tooSmall.json<ErrorResponse>().message).toContain('accepts');
    lnurl.sendable({ minMsat: 1000n, maxMsat: 100_000_000_000n });
    const rows = await t.db.selectFrom('refunds').select('id').where('transaction_id', '=', id).execute();
    expect(rows).toHaveLength(0);
  });
});
