import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FakeLnd } from '../../../test/fakes/lnd-server.ts';
import type { FakeLnurlPay } from '../../../test/fakes/lnurl-pay-server.ts';
import { openPayoutShop, type PayoutShop, sellAndSettle, startLndPayoutApp } from '../../../test/payout-shop.ts';
import { bearer, createTestUser, signIn, type TestApp } from '../../../test/test-app.ts';
import { systemContext } from '../../http/request-context.ts';
import { attemptLightningPayout, batchLightningPayouts } from '../payouts/payouts.service.ts';
import { updatePayoutSplit } from '../settings/payout-split.repo.ts';

/**
 * No msat is made or lost across sale, refunds and payouts, through HTTP, the real database and
 * the lnd stand-in: for any split, any sales, and any order of refunds, Lightning payouts and fiat
 * transfers, each share's sales less its refunds' parts is what was paid out of it plus what is
 * still to pay, to the msat (and, for fiat, to the minor unit). Few runs: each is a whole shop.
 */

let lnd: FakeLnd;
let lnurl: FakeLnurlPay;
let t: TestApp;
let close: () => Promise<void>;
let backOffice: Record<string, string>;
const log = { debug: () => {}, warn: () => {} };

beforeAll(async () => {
  ({ lnd, lnurl, t, close } = await startLndPayoutApp({ PAYOUT_MIN_SATS: '1' }));
  const staff = await createTestUser(t.db, { role: 'back_office', organizationId: null });
  backOffice = bearer((await signIn(t.app, staff.email, staff.password)).accessToken);
});
afterAll(() => close?.());

type Step = { kind: 'refund'; sale: number; percent: number } | { kind: 'payout' } | { kind: 'transfer' };

// Whole percents, as Settings takes them (migration 0013).
const split = fc.tuple(fc.integer({ min: 0, max: 100 }), fc.integer({ min: 0, max: 100 })).map(([a, b]) => ({
  fiatBps: Math.min(a, b) * 100,
  onchainBps: (Math.max(a, b) - Math.min(a, b)) * 100,
  lightningBps: 10_000 - Math.max(a, b) * 100,
}));
const step: fc.Arbitrary<Step> = fc.oneof(
  fc.record({ kind: fc.constant('refund' as const), sale: fc.nat(1), percent: fc.integer({ min: 1, max: 100 }) }),
  fc.constant({ kind: 'payout' as const }),
  fc.constant({ kind: 'transfer' as const }),
);

let runs = 0;
let keys = 0;

async function run(shop: PayoutShop, sales: { id: string; totalMsat: bigint }[], steps: Step[]) {
  const refunded = new Map<string, bigint>();
  for (const next of steps) {
    if (next.kind === 'refund') {
      const sale = sales[next.sale % sales.length] as { id: string; totalMsat: bigint };
      const left = sale.totalMsat - (refunded.get(sale.id) ?? 0n);
      if (left === 0n) continue;
      const amount = (left * BigInt(next.percent)) / 100n || 1n;
      keys += 1;
      const response = await t.app.inject({
        method: 'POST',
        url: `/api/transactions/${sale.id}/refunds`,
        headers: shop.admin,
        payload: { amountMsat: Number(amount), idempotencyKey: `money-refund-${keys}` },
      });
      expect(response.statusCode, response.body).toBe(200);
      refunded.set(sale.id, (refunded.get(sale.id) ?? 0n) + amount);
    } else if (next.kind === 'payout') {
      const deps = { db: t.db, config: t.config, lightning: t.runtime.deps.lightning };
      for (const payout of await batchLightningPayouts(systemContext('pay-lightning-payouts'), deps)) {
        if (payout.organizationId === shop.organization.id) await attemptLightningPayout(deps, payout.id, log);
      }
    } else {
      const unpaid = await t.db
        .selectFrom('transactions')
        .select('id')
        .where('organization_id', '=', shop.organization.id)
        .where('disbursed', '=', false)
        .where('fiat_msat', '>', '0')
        .execute();
      if (unpaid.length === 0) continue;
      const response = await t.app.inject({
        method: 'POST',
        url: '/api/back-office/pay-transactions',
        headers: backOffice,
        payload: { transactionsIds: unpaid.map((row) => row.id), withoutBankAccount: [shop.organization.id] },
      });
      expect(response.statusCode, response.body).toBe(200);
    }
  }
}

/** Each share's money of the organization, from the ledger, the refunds, the payouts and the rollups. */
async function accounts(organizationId: string) {
  const one = async <T>(query: Promise<T | undefined>) => (await query) as T;
  const sales = await one(
    t.db
      .selectFrom('transactions')
      .select((eb) => [
        eb.fn.sum<string>('lightning_msat').as('lightning'),
        eb.fn.sum<string>('onchain_msat').as('onchain'),
        eb.fn.sum<string>('fiat_income_minor').as('fiat'),
        eb.fn.sum<string>('refunded_msat').as('refunded'),
        eb.fn.sum<string>('refunded_lightning_msat').as('refundedLightning'),
        eb.fn.sum<string>('refunded_onchain_msat').as('refundedOnchain'),
        eb.fn.sum<string>('refunded_fiat_minor').as('refundedFiat'),
        eb.fn.sum<string>('refunded_fiat_msat').as('refundedFiatMsat'),
        eb.fn
          .sum<string>(
            eb
              .case()
              .when('disbursed', '=', false)
              .then(eb.ref('fiat_income_minor'))
              .else(0n as never)
              .end(),
          )
          .as('unpaidFiat'),
      ])
      .where('organization_id', '=', organizationId)
      .executeTakeFirst(),
  );
  const refunds = await one(
    t.db
      .selectFrom('refunds')
      .select((eb) => [
        eb.fn.sum<string>('amount_msat').as('amount'),
        eb.fn.sum<string>(eb('lightning_msat', '+', eb('onchain_msat', '+', eb.ref('fiat_msat')))).as('parts'),
        eb.fn
          .sum<string>(
            eb
              .case()
              .when('lightning_payout_id', 'is', null)
              .then(eb.ref('lightning_msat'))
              .else(0n as never)
              .end(),
          )
          .as('owedLightning'),
        eb.fn
          .sum<string>(
            eb
              .case()
              .when('fiat_taken_at', 'is', null)
              .then(eb.ref('fiat_share_minor'))
              .else(0n as never)
              .end(),
          )
          .as('owedFiat'),
      ])
      .where('organization_id', '=', organizationId)
      .executeTakeFirst(),
  );
  const paidOut = await one(
    t.db
      .selectFrom('payouts')
      .select((eb) => eb.fn.sum<string>('amount_msat').as('msat'))
      .where('organization_id', '=', organizationId)
      .where('kind', '=', 'lightning')
      .executeTakeFirst(),
  );
  const unpaidLightning = await one(
    t.db
      .selectFrom('transactions as t')
      .select((eb) => eb.fn.sum<string>('t.lightning_msat').as('msat'))
      .where('t.organization_id', '=', organizationId)
      .where(({ not, exists, selectFrom }) =>
        not(
          exists(
            selectFrom('payout_transactions as pt')
              .select('pt.transaction_id')
              .whereRef('pt.transaction_id', '=', 't.id')
              .where('pt.kind', '=', 'lightning'),
          ),
        ),
      )
      .executeTakeFirst(),
  );
  const totals = await one(
    t.db
      .selectFrom('disbursement_totals')
      .select((eb) => [
        eb.fn.sum<string>('pending_fiat_minor').as('pending'),
        eb.fn.sum<string>('paid_fiat_minor').as('paid'),
      ])
      .where('organization_id', '=', organizationId)
      .executeTakeFirst(),
  );
  const n = (value: string | null | undefined) => BigInt(value ?? 0);
  return {
    sales: {
      lightning: n(sales.lightning),
      onchain: n(sales.onchain),
      fiat: n(sales.fiat),
      unpaidFiat: n(sales.unpaidFiat),
    },
    refunded: {
      total: n(sales.refunded),
      lightning: n(sales.refundedLightning),
      onchain: n(sales.refundedOnchain),
      fiat: n(sales.refundedFiat),
      fiatMsat: n(sales.refundedFiatMsat),
    },
    refunds: {
      amount: n(refunds.amount),
      parts: n(refunds.parts),
      owedLightning: n(refunds.owedLightning),
      owedFiat: n(refunds.owedFiat),
    },
    paidOutLightning: n(paidOut.msat),
    unpaidLightning: n(unpaidLightning.msat),
    fiat: { pending: n(totals.pending), paid: n(totals.paid) },
  };
}

describe('money across sale, refunds and payouts', () => {
  it('makes and loses no msat, whatever the split and the order of refunds, payouts and transfers', async () => {
    await fc.assert(
      fc.asyncProperty(
        split,
        fc.array(fc.integer({ min: 100, max: 5_000 }), { minLength: 1, maxLength: 2 }),
        fc.array(step, { minLength: 1, maxLength: 6 }),
        async (shares, cents, steps) => {
          runs += 1;
          lnurl.misbehave('none');
          const shop = await openPayoutShop(t, lnurl.address(`money-${runs}`));
          await updatePayoutSplit(t.db, shop.organization.id, shares);
          const sales: { id: string; totalMsat: bigint }[] = [];
          for (const amount of cents) {
            await sellAndSettle(t, shop, (amount / 100).toFixed(2), (hash) => lnd.settle(hash));
            const row = await t.db
              .selectFrom('transactions')
              .select(['id', 'total_msat'])
              .where('organization_id', '=', shop.organization.id)
              .orderBy('created_at', 'desc')
              .executeTakeFirstOrThrow();
            sales.push({ id: row.id, totalMsat: BigInt(row.total_msat) });
          }
          await run(shop, sales, steps);
          const money = await accounts(shop.organization.id);
          // Every refund is split into parts that add up to it, and the sales' rows sum them.
          expect(money.refunds.parts).toBe(money.refunds.amount);
          expect(money.refunded.total).toBe(money.refunds.amount);
          expect(money.refunded.lightning + money.refunded.onchain + money.refunded.fiatMsat).toBe(
            money.refunded.total,
          );
          // Lightning: what the sales gave the share, less its refunds, is paid out or still to pay.
          expect(money.paidOutLightning + (money.unpaidLightning - money.refunds.owedLightning)).toBe(
            money.sales.lightning - money.refunded.lightning,
          );
          // Fiat, in minor units: paid by transfers or still to disburse.
          expect(money.fiat.paid + money.fiat.pending).toBe(money.sales.fiat - money.refunded.fiat);
          expect(money.fiat.pending).toBe(money.sales.unpaidFiat - money.refunds.owedFiat);
        },
      ),
      { numRuns: 6 },
    );
  }, 300_000);
});
