import { createHash } from 'node:crypto';
import type { PayoutPage, TransactionSums } from '@rayo/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FakeLnd } from '../../../test/fakes/lnd-server.ts';
import type { FakeLnurlPay } from '../../../test/fakes/lnurl-pay-server.ts';
import { openPayoutShop, type PayoutShop, sellAndSettle, startLndPayoutApp } from '../../../test/payout-shop.ts';
import type { TestApp } from '../../../test/test-app.ts';
import { waitFor } from '../../../test/wait-for.ts';
import { makePeriodicPassDue } from '../../../test/webhook-receiver.ts';
import type { Config } from '../../config.ts';
import { systemContext } from '../../http/request-context.ts';
import { listAuditEntries } from '../audit/audit.repo.ts';
import { findPayout } from './payouts.repo.ts';
import { attemptLightningPayout, batchLightningPayouts, type PayoutDeps } from './payouts.service.ts';

let lnd: FakeLnd;
let lnurl: FakeLnurlPay;
let t: TestApp;
let close: () => Promise<void>;
const log = { debug: () => {}, warn: () => {} };

beforeAll(async () => {
  ({ lnd, lnurl, t, close } = await startLndPayoutApp({ PAYOUT_MIN_SATS: '5000' }));
});

afterAll(() => close?.());

function deps(payouts: Partial<Config['payouts']> = {}): PayoutDeps {
  return {
    db: t.db,
    config: { ...t.config, payouts: { ...t.config.payouts, ...payouts } },
    lightning: t.runtime.deps.lightning,
  };
}

/** An organization with a till, its admin, and its Lightning address at the stand-in service. */
const openShop = (name: string) => openPayoutShop(t, lnurl.address(name));

/** A sale paid at the node: its Lightning share is what is paid out. */
const sell = (shop: PayoutShop, amount: string) => sellAndSettle(t, shop, amount, (hash) => lnd.settle(hash));

function sendsFor(paymentHash: string | null) {
  const invoice = lnd.remoteInvoices().find((remote) => remote.paymentHash === paymentHash);
  return lnd.requests.filter(
    (r) =>
      r.path === '/v2/router/send' &&
      (r.body as { payment_request?: string }).payment_request === invoice?.paymentRequest,
  ).length;
}

async function msatsToDisburse(admin: { authorization: string }): Promise<number> {
  const response = await t.app.inject({ method: 'GET', url: '/api/dashboard/transactions/sum', headers: admin });
  expect(response.statusCode, response.body).toBe(200);
  return response.json<TransactionSums>().msatsToDisburse;
}

describe('Lightning-address payouts', () => {
  it('batches the shares once they reach the minimum, pays the address and verifies the preimage', async () => {
    lnurl.misbehave('none');
    lnurl.payment({ routeFeeMsat: 2_000n });
    const shop = await openShop('alice');
    const first = await sell(shop, '2.00');
    // $2.00 is about 2,100 sats: below the 5,000-sat minimum, so no payout yet.
    expect(await batchLightningPayouts(systemContext('pay-lightning-payouts'), deps())).toEqual([]);
    const second = await sell(shop, '9.50');

    const created = await batchLightningPayouts(systemContext('pay-lightning-payouts'), deps());
    const mine = created.filter((payout) => payout.organizationId === shop.organization.id);
    expect(mine).toHaveLength(1);
    const payout = mine[0]!;
    expect(payout).toMatchObject({ state: 'pending', amountMsat: first + second, destination: lnurl.address('alice') });
    // Each share is in this payout and no other; a second batch finds nothing.
    const links = await t.db.selectFrom('payout_transactions').selectAll().where('payout_id', '=', payout.id).execute();
    expect(links.map((link) => BigInt(link.amount_msat)).sort()).toEqual([first, second].sort());
    expect(
      (await batchLightningPayouts(systemContext('pay-lightning-payouts'), deps())).filter(
        (p) => p.organizationId === shop.organization.id,
      ),
    ).toEqual([]);

    const toDisburseBefore = await msatsToDisburse(shop.admin);
    await attemptLightningPayout(deps(), payout.id, log);
    const sent = await findPayout(t.db, payout.id);
    expect(sent).toMatchObject({ state: 'sent', feeMsat: 2_000n, attempts: 0 });
    // What was paid out is no longer the merchant's "sats to disburse".
    expect(await msatsToDisburse(shop.admin)).toBe(toDisburseBefore - Number(first + second));
    expect(lnurl.callbacks.at(-1)).toBe(first + second);
    expect(createHash('sha256').update(Buffer.from(sent!.preimage!, 'hex')).digest('hex')).toBe(sent!.paymentHash);
    expect(sendsFor(sent!.paymentHash)).toBe(1);

    // Another attempt at a sent payout does nothing.
    await attemptLightningPayout(deps(), payout.id, log);
    expect(sendsFor(sent!.paymentHash)).toBe(1);

    const page = await t.app.inject({ method: 'GET', url: '/api/settings/payouts', headers: shop.admin });
    expect(page.statusCode, page.body).toBe(200);
    expect(page.json<PayoutPage>()).toMatchObject({
      total: 1,
      payouts: [
        {
          id: payout.id,
          kind: 'lightning',
          state: 'sent',
          amountMsat: Number(first + second),
          feeMsat: 2000,
          paymentHash: sent!.paymentHash,
        },
      ],
      fiat: [],
    });
  });

  it('refuses an invoice for another amount or for other metadata, and pays nothing', async () => {
    for (const mode of ['wrong-amount', 'wrong-hash'] as const) {
      lnurl.misbehave(mode);
      lnurl.payment({});
      const shop = await openShop(`bob-${mode}`);
      await sell(shop, '9.50');
      const [payout] = (await batchLightningPayouts(systemContext('pay-lightning-payouts'), deps())).filter(
        (p) => p.organizationId === shop.organization.id,
      );
      await attemptLightningPayout(deps(), payout!.id, log);
      const failed = await findPayout(t.db, payout!.id);
      expect(failed).toMatchObject({ state: 'failed', attempts: 1, paymentHash: null });
      expect(failed?.lastError).toMatch(mode === 'wrong-amount' ? /invoice is for/ : /metadata/);
      expect(failed!.nextAttemptAt.getTime()).toBeGreaterThan(Date.now() + 50_000);
      expect(sendsFor(lnurl.issued.at(-1)!)).toBe(0);
    }
    lnurl.misbehave('none');
  });

  it('asks the node about a payment whose outcome was lost before paying again, and pays once', async () => {
    lnurl.misbehave('none');
    lnurl.payment({ delayMs: 600, cutStream: true });
    const shop = await openShop('carol');
    await sell(shop, '9.50');
    const [payout] = (await batchLightningPayouts(systemContext('pay-lightning-payouts'), deps())).filter(
      (p) => p.organizationId === shop.organization.id,
    );
    await attemptLightningPayout(deps(), payout!.id, log);
    // The stream broke after IN_FLIGHT: the attempt counts as failed, with the invoice kept.
    const lost = await findPayout(t.db, payout!.id);
    expect(lost).toMatchObject({ state: 'failed', attempts: 1 });
    expect(lost?.paymentHash).not.toBeNull();

    // Still in flight at the node: the retry waits, and sends nothing.
    await attemptLightningPayout(deps(), payout!.id, log);
    expect(await findPayout(t.db, payout!.id)).toMatchObject({ state: 'failed', attempts: 1 });
    expect(sendsFor(lost!.paymentHash)).toBe(1);

    await waitFor(() => lnd.remoteInvoices().some((r) => r.paymentHash === lost!.paymentHash && r.paid));
    await attemptLightningPayout(deps(), payout!.id, log);
    expect(await findPayout(t.db, payout!.id)).toMatchObject({ state: 'sent', paymentHash: lost!.paymentHash });
    expect(sendsFor(lost!.paymentHash)).toBe(1);
    const tracks = lnd.requests.filter((r) => r.path.startsWith('/v2/router/track/')).length;
    expect(tracks).toBeGreaterThanOrEqual(2);
    expect(lnurl.callbacks.filter((amount) => amount === payout!.amountMsat).length).toBeGreaterThanOrEqual(1);
  });

  it('pays the same invoice again after a definite failure, and tells back office when attempts reach the alert count', async () => {
    lnurl.misbehave('none');
    lnurl.payment({ failWith: 'FAILURE_REASON_NO_ROUTE' });
    const shop = await openShop('dave');
    await sell(shop, '9.50');
    const [payout] = (await batchLightningPayouts(systemContext('pay-lightning-payouts'), deps())).filter(
      (p) => p.organizationId === shop.organization.id,
    );
    const alerting = deps({ alertAfterAttempts: 2 });
    await attemptLightningPayout(alerting, payout!.id, log);
    const first = await findPayout(t.db, payout!.id);
    expect(first).toMatchObject({ state: 'failed', attempts: 1 });
    expect(first?.lastError).toMatch(/NO_ROUTE/);
    const notices = () =>
      t.db
        .selectFrom('notifications')
        .selectAll()
        .where('organization_id', '=', shop.organization.id)
        .where('kind', '=', 'payout.failed')
        .execute();
    expect(await notices()).toHaveLength(0);

    await attemptLightningPayout(alerting, payout!.id, log);
    const second = await findPayout(t.db, payout!.id);
    // The node said FAILED, the invoice is still good: the same one was paid again, no new callback.
    expect(second).toMatchObject({ state: 'failed', attempts: 2, paymentHash: first!.paymentHash });
    expect(sendsFor(first!.paymentHash)).toBe(2);
    expect(second!.nextAttemptAt.getTime() - Date.now()).toBeGreaterThan(100_000);
    const [notice] = await notices();
    expect(notice?.payload).toMatchObject({ payoutId: payout!.id, attempts: 2 });

    await attemptLightningPayout(alerting, payout!.id, log);
    expect(await notices()).toHaveLength(1);
  });
});

describe('the payout job', () => {
  it('names itself in the audit entry of each payout it makes', async () => {
    const shop = await openShop('judy');
    const amount = await sell(shop, '9.50');
    // The app's own job runner takes the pass, as in production.
    await makePeriodicPassDue(t.db, 'pay-lightning-payouts');
    const entry = await waitFor(async () =>
      (await listAuditEntries(t.db, { organizationId: shop.organization.id })).find(
        (row) => row.action === 'payout.created',
      ),
    );
    const [payout] = await t.db
      .selectFrom('payouts')
      .select('id')
      .where('organization_id', '=', shop.organization.id)
      .execute();
    expect(entry).toMatchObject({
      actor_system: 'system:pay-lightning-payouts',
      actor_user_id: null,
      actor_email: null,
      ip: null,
      target: `payout:${payout?.id}`,
    });
    expect(entry.after).toEqual({
      kind: 'lightning',
      destination: lnurl.address('judy'),
      amountMsat: amount.toString(),
    });
  });
});
