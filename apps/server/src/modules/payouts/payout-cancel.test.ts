import type { Payout, PayoutPage } from '@rayo/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FakeLnd } from '../../../test/fakes/lnd-server.ts';
import type { FakeLnurlPay } from '../../../test/fakes/lnurl-pay-server.ts';
import { openPayoutShop, type PayoutShop, sellAndSettle, startLndPayoutApp } from '../../../test/payout-shop.ts';
import { bearer, createTestUser, signIn, type TestApp } from '../../../test/test-app.ts';
import { waitFor } from '../../../test/wait-for.ts';
import { systemContext } from '../../http/request-context.ts';
import { findPayout } from './payouts.repo.ts';
import {
  attemptLightningPayout,
  batchLightningPayouts,
  type PayoutDeps,
  SETTLE_MARGIN_SECONDS,
} from './payouts.service.ts';

let lnd: FakeLnd;
let lnurl: FakeLnurlPay;
let t: TestApp;
let close: () => Promise<void>;
let backOffice: { authorization: string };
const log = { debug: () => {}, warn: () => {} };

beforeAll(async () => {
  ({ lnd, lnurl, t, close } = await startLndPayoutApp({ PAYOUT_MIN_SATS: '1000' }));
  const staff = await createTestUser(t.db, { role: 'back_office', organizationId: null });
  backOffice = bearer((await signIn(t.app, staff.email, staff.password)).accessToken);
});

afterAll(() => close?.());

function deps(): PayoutDeps {
  return { db: t.db, config: t.config, lightning: t.runtime.deps.lightning };
}

async function batchFor(shop: PayoutShop) {
  const payout = (await batchLightningPayouts(systemContext('pay-lightning-payouts'), deps())).find(
    (p) => p.organizationId === shop.organization.id,
  );
  if (!payout) throw new Error('no payout batched');
  return payout;
}

function sharesOf(payoutId: string) {
  return t.db.selectFrom('payout_transactions').select('transaction_id').where('payout_id', '=', payoutId).execute();
}

function cancel(payoutId: string, headers = backOffice) {
  return t.app.inject({ method: 'POST', url: `/api/back-office/payouts/${payoutId}/cancel`, headers });
}

/** The invoice's time has run out longer ago than any payment of it could take. */
async function ageInvoice(payoutId: string) {
  await t.db
    .updateTable('payouts')
    .set({ invoice_expires_at: new Date(Date.now() - (SETTLE_MARGIN_SECONDS + 5) * 1000) })
    .where('id', '=', payoutId)
    .execute();
}

describe('cancelling a payout', () => {
  it('back office cancels a payout with no invoice: its shares are given back and the next batch pays them', async () => {
    lnurl.misbehave('none');
    lnurl.payment({});
    const shop = await openPayoutShop(t, lnurl.address('frank'));
    await sellAndSettle(t, shop, '9.50', (hash) => lnd.settle(hash));
    const payout = await batchFor(shop);
    const shares = (await sharesOf(payout.id)).map((row) => row.transaction_id);
    expect(shares).toHaveLength(1);

    // The merchant cannot; back office sees it in the organization's list and can.
    expect((await cancel(payout.id, shop.admin)).statusCode).toBe(403);
    const list = await t.app.inject({
      method: 'GET',
      url: `/api/back-office/organization/${shop.organization.id}/payouts`,
      headers: backOffice,
    });
    expect(list.statusCode, list.body).toBe(200);
    expect(list.json<PayoutPage>().payouts.map((p) => [p.id, p.state])).toEqual([[payout.id, 'pending']]);

    const response = await cancel(payout.id);
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json<Payout>()).toMatchObject({ id: payout.id, state: 'cancelled' });
    expect(await sharesOf(payout.id)).toEqual([]);
    const audit = await t.db
      .selectFrom('audit_log')
      .selectAll()
      .where('action', '=', 'payout.cancelled')
      .where('target', '=', `payout:${payout.id}`)
      .execute();
    expect(audit).toHaveLength(1);

    expect((await cancel(payout.id)).json()).toMatchObject({ code: 'PayoutNotCancellable' });
    expect((await cancel(payout.id)).statusCode).toBe(409);

    const again = await batchFor(shop);
    expect(again.id).not.toBe(payout.id);
    expect(again.amountMsat).toBe(payout.amountMsat);
    expect((await sharesOf(again.id)).map((row) => row.transaction_id)).toEqual(shares);
    await attemptLightningPayout(deps(), again.id, log);
    expect(await findPayout(t.db, again.id)).toMatchObject({ state: 'sent' });
    expect((await cancel(again.id)).json()).toMatchObject({ code: 'PayoutNotCancellable' });
  });

  it('refuses while a payment of the invoice may still complete, and records it as sent when it did', async () => {
    lnurl.misbehave('none');
    lnurl.payment({ delayMs: 600, cutStream: true });
    const shop = await openPayoutShop(t, lnurl.address('gina'));
    await sellAndSettle(t, shop, '9.50', (hash) => lnd.settle(hash));
    const payout = await batchFor(shop);
    await attemptLightningPayout(deps(), payout.id, log);
    const lost = await findPayout(t.db, payout.id);
    expect(lost).toMatchObject({ state: 'failed' });

    // In flight at the node.
    const inFlight = await cancel(payout.id);
    expect(inFlight.statusCode, inFlight.body).toBe(409);
    expect(inFlight.json()).toMatchObject({ code: 'PayoutInFlight' });
    expect(await sharesOf(payout.id)).toHaveLength(1);

    await waitFor(() => lnd.remoteInvoices().some((r) => r.paymentHash === lost?.paymentHash && r.paid));
    const paid = await cancel(payout.id);
    expect(paid.statusCode).toBe(409);
    expect(paid.json()).toMatchObject({ code: 'PayoutNotCancellable' });
    expect(await findPayout(t.db, payout.id)).toMatchObject({ state: 'sent' });
    expect(await sharesOf(payout.id)).toHaveLength(1);
  });

  it('refuses a failed payout whose invoice can still be paid, and cancels it once that invoice is dead', async () => {
    lnurl.misbehave('none');
    lnurl.payment({ failWith: 'FAILURE_REASON_NO_ROUTE' });
    const shop = await openPayoutShop(t, lnurl.address('hugo'));
    await sellAndSettle(t, shop, '9.50', (hash) => lnd.settle(hash));
    const payout = await batchFor(shop);
    await attemptLightningPayout(deps(), payout.id, log);
    expect(await findPayout(t.db, payout.id)).toMatchObject({ state: 'failed' });

    const live = await cancel(payout.id);
    expect(live.statusCode).toBe(409);
    expect(live.json<{ code: string; message: string }>()).toMatchObject({ code: 'PayoutInFlight' });

    await ageInvoice(payout.id);
    const response = await cancel(payout.id);
    expect(response.statusCode, response.body).toBe(200);
    expect(await sharesOf(payout.id)).toEqual([]);
  });

  it("a new Lightning address cancels the old address's payouts that cannot be paid any more; their shares go to the new one", async () => {
    lnurl.misbehave('error');
    lnurl.payment({});
    const shop = await openPayoutShop(t, lnurl.address('ines'));
    const first = await sellAndSettle(t, shop, '9.50', (hash) => lnd.settle(hash));
    const stuck = await batchFor(shop);
    await attemptLightningPayout(deps(), stuck.id, log);
    expect(await findPayout(t.db, stuck.id)).toMatchObject({ state: 'failed', paymentHash: null });

    // A second payout to the old address holds an invoice that can still be paid: it stays.
    lnurl.misbehave('none');
    lnurl.payment({ failWith: 'FAILURE_REASON_NO_ROUTE' });
    await sellAndSettle(t, shop, '9.50', (hash) => lnd.settle(hash));
    const live = await batchFor(shop);
    await attemptLightningPayout(deps(), live.id, log);
    expect((await findPayout(t.db, live.id))?.paymentHash).not.toBeNull();

    const change = await t.app.inject({
      method: 'PUT',
      url: '/api/settings/lightning-address',
      headers: shop.admin,
      payload: { lightningAddress: lnurl.address('ines-new') },
    });
    expect(change.statusCode, change.body).toBe(200);
    expect(await findPayout(t.db, stuck.id)).toMatchObject({ state: 'cancelled' });
    expect(await findPayout(t.db, live.id)).toMatchObject({ state: 'failed', destination: lnurl.address('ines') });

    // The new address is paid once back office has verified it (or its cool-down has passed).
    expect(
      (await batchLightningPayouts(systemContext('pay-lightning-payouts'), deps())).some(
        (p) => p.organizationId === shop.organization.id,
      ),
    ).toBe(false);
    const verified = await t.app.inject({
      method: 'PUT',
      url: `/api/back-office/organization/${shop.organization.id}/verification`,
      headers: backOffice,
      payload: { field: 'disbursementAddress', verified: true },
    });
    expect(verified.statusCode, verified.body).toBe(200);
    lnurl.payment({});
    const moved = await batchFor(shop);
    expect(moved).toMatchObject({ destination: lnurl.address('ines-new'), amountMsat: first });
    await attemptLightningPayout(deps(), moved.id, log);
    expect(await findPayout(t.db, moved.id)).toMatchObject({ state: 'sent' });
  });
});
