import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FakeLnd } from '../../../test/fakes/lnd-server.ts';
import type { FakeLnurlPay } from '../../../test/fakes/lnurl-pay-server.ts';
import { openPayoutShop, sellAndSettle, startLndPayoutApp } from '../../../test/payout-shop.ts';
import type { TestApp } from '../../../test/test-app.ts';
import { systemContext } from '../../http/request-context.ts';
import { findPayout } from './payouts.repo.ts';
import { attemptLightningPayout, batchLightningPayouts } from './payouts.service.ts';

let lnd: FakeLnd;
let lnurl: FakeLnurlPay;
let t: TestApp;
let close: () => Promise<void>;
const log = { debug: () => {}, warn: () => {} };

beforeAll(async () => {
  ({ lnd, lnurl, t, close } = await startLndPayoutApp({ PAYOUT_MIN_SATS: '1000' }));
});

afterAll(() => close?.());

describe('a batch above the address maxSendable', () => {
  it('is split into payouts of whole shares, each within the range, that pay every msat once', async () => {
    lnurl.payment({});
    const shop = await openPayoutShop(t, lnurl.address('jules'));
    const shares: bigint[] = [];
    for (const amount of ['6.00', '5.00', '4.00']) {
      shares.push(await sellAndSettle(t, shop, amount, (hash) => lnd.settle(hash)));
    }
    const total = shares.reduce((a, b) => a + b, 0n);
    const deps = { db: t.db, config: t.config, lightning: t.runtime.deps.lightning };
    const payout = (await batchLightningPayouts(systemContext('pay-lightning-payouts'), deps)).find(
      (p) => p.organizationId === shop.organization.id,
    );
    if (!payout) throw new Error('no payout batched');
    expect(payout.amountMsat).toBe(total);

    // The biggest share fits; no two together do.
    const maxMsat = (shares[0] ?? 0n) + 1_000n;
    lnurl.sendable({ minMsat: 1_000n, maxMsat });
    const callbacksBefore = lnurl.callbacks.length;
    await attemptLightningPayout(deps, payout.id, log);

    const original = await findPayout(t.db, payout.id);
    expect(original).toMatchObject({ state: 'cancelled', paymentHash: null });
    expect(original?.lastError).toMatch(/split into 3 payouts/);
    const parts = await t.db
      .selectFrom('payouts')
      .selectAll()
      .where('organization_id', '=', shop.organization.id)
      .where('id', '<>', payout.id)
      .execute();
    expect(parts).toHaveLength(3);
    for (const part of parts) {
      expect(part.state).toBe('sent');
      expect(BigInt(part.amount_msat)).toBeLessThanOrEqual(maxMsat);
    }
    expect(parts.reduce((sum, part) => sum + BigInt(part.amount_msat), 0n)).toBe(total);
    // Each sale's share is carried by exactly one payout, and the original carries none any more.
    const links = await t.db
      .selectFrom('payout_transactions')
      .select(['transaction_id', 'payout_id', 'amount_msat'])
      .where(
        'payout_id',
        'in',
        parts.map((part) => part.id),
      )
      .execute();
    expect(links.map((link) => BigInt(link.amount_msat)).sort()).toEqual([...shares].sort());
    expect(new Set(links.map((link) => link.transaction_id)).size).toBe(3);
    const asked = lnurl.callbacks.slice(callbacksBefore);
    expect(asked.every((amount) => amount <= maxMsat)).toBe(true);
    expect(asked.reduce((a, b) => a + b, 0n)).toBe(total);

    // Nothing is left to batch, and nothing is paid twice on another pass.
    lnurl.sendable({ minMsat: 1_000n, maxMsat: 100_000_000_000n });
    expect(
      (await batchLightningPayouts(systemContext('pay-lightning-payouts'), deps)).filter(
        (p) => p.organizationId === shop.organization.id,
      ),
    ).toEqual([]);
    for (const part of parts) await attemptLightningPayout(deps, part.id, log);
    expect(lnurl.callbacks.length).toBe(callbacksBefore + 3);
  });
});
