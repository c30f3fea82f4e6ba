import { createHash } from 'node:crypto';
import { setImmediate } from 'node:timers/promises';
import { computeSale, fiatToMsat, percentOf } from '@rayo/shared';
import type { Transaction } from 'kysely';
import { type Config, loadConfig } from '../config.ts';
import { type BptRow, listBpts } from '../modules/bpts/bpts.repo.ts';
import { findSeededPaymentHashes, insertPastInvoices, type NewPastInvoice } from '../modules/invoices/invoices.repo.ts';
import { settleInvoice } from '../modules/ledger/settlement.service.ts';
import type { Db } from './database.ts';
import type { Database } from './schema.ts';

/** A seeded generator of integers, so the demo year is the same on every machine and every start. */
export type Random = { below: (n: number) => number };

/** mulberry32: small, fast and good enough to pick café sales; not for anything secret. */
export function createRandom(seed: number): Random {
  let state = seed >>> 0;
  const next = () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return (t ^ (t >>> 14)) >>> 0;
  };
  // Modulo of a 32-bit draw: the bias is below n / 2^32, invisible for the ranges used here.
  return { below: (n) => next() % n };
}

export type DemoSalesOptions = {
  /** Days of history up to `now`; a year by default. Tests pass a few to stay fast. */
  days?: number;
  now?: Date;
  /** settleInvoice takes the operator fees from here; by default the environment main.ts reads. */
  config?: Config;
  /** The currency the sales are rung up in, and its bitcoin price over the days; Guatemala's by default. */
  market?: DemoMarket;
};

/**
 * A market's bitcoin price in minor units per BTC, from the first day to the last, around which
 * each day wobbles ±2 %. The demo's markets, Guatemala and Mexico, both keep UTC−6 all year.
 */
export type DemoMarket = { currency: string; rateFrom: bigint; rateTo: bigint; randomSeed: number };

/** About Q540,000 to Q760,000, so the sats of a Q50 coffee visibly change over the year. */
export const GUATEMALA_MARKET: DemoMarket = {
  currency: 'GTQ',
  rateFrom: 54_000_000n,
  rateTo: 76_000_000n,
  randomSeed: 0x5eed_2026,
};
export const MEXICO_MARKET: DemoMarket = {
  currency: 'MXN',
  rateFrom: 128_000_000n,
  rateTo: 180_000_000n,
  randomSeed: 0x5eed_0484,
};

const DAY_MS = 86_400_000;
const HOUR_MS = 3_600_000;
/** America/Guatemala and America/Mexico_City keep UTC−6 all year (no daylight saving since 2006 and 2022). */
const LOCAL_OFFSET_MS = -6 * HOUR_MS;
/** Parallel settlements: each is its own short database transaction, so two cores keep busy. */
const SETTLERS = 4;
/** Sales per database transaction: one commit per few hundred sales instead of one per sale. */
const BATCH_SALES = 400;

/** Relative sales per local hour: the café opens at 07:00, peaks at breakfast and lunch, closes at 21:00. */
const STORE_HOURS = [0, 0, 0, 0, 0, 0, 0, 5, 9, 7, 5, 7, 12, 12, 7, 5, 5, 6, 5, 3, 2, 0, 0, 0];
/** Online orders come later in the day and into the evening. */
const ONLINE_HOURS = [0, 0, 0, 0, 0, 0, 0, 0, 2, 3, 3, 5, 8, 8, 5, 4, 4, 5, 7, 8, 7, 5, 2, 0];
/** Sunday first, as getUTCDay counts: Saturdays are busiest, Mondays quietest. */
const WEEKDAY_PERCENT = [110, 80, 90, 95, 100, 115, 135];

function weighted(weights: readonly number[], random: Random): number {
  const total = weights.reduce((a, b) => a + b, 0);
  let pick = random.below(total);
  for (let i = 0; i < weights.length; i += 1) {
    pick -= weights[i] as number;
    if (pick < 0) return i;
  }
  return weights.length - 1;
}

/** The market's bitcoin price in minor units on a day of the period. */
function rateOn(market: DemoMarket, dayIndex: number, days: number, random: Random): bigint {
  const trend = market.rateFrom + ((market.rateTo - market.rateFrom) * BigInt(dayIndex)) / BigInt(Math.max(days, 1));
  return (trend * BigInt(9800 + random.below(401))) / 10_000n;
}

/** A bill in centavos: mostly a coffee and a pastry, sometimes a table's lunch; Q15–Q250 in half quetzales. */
function drawBill(random: Random): bigint {
  const halves = random.below(10) < 8 ? 30 + random.below(151) : 180 + random.below(321);
  return BigInt(halves) * 50n;
}

/** The tip customers leave at a tip-enabled terminal: often the customary 10 %, sometimes 5 or 15 %, often none. */
function drawTipBps(random: Random): number {
  const pick = random.below(10);
  return pick < 4 ? 0 : pick < 8 ? 1000 : pick < 9 ? 500 : 1500;
}

/**
 * The transaction `trx` as a Db whose `transaction()` runs its callback inside `trx` instead of
 * opening another: settleInvoice's own transaction then joins the batch's, so a year of sales
 * costs a few dozen commits rather than one per sale, and settleInvoice runs unchanged.
 */
function joinTransaction(trx: Transaction<Database>): Db {
  return new Proxy(trx, {
    get(target, property) {
      if (property === 'transaction') return () => ({ execute: <T>(run: (inner: Db) => Promise<T>) => run(target) });
      // Kysely's methods read private fields, so they must run on the transaction itself.
      const value = Reflect.get(target, property, target);
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
}

/**
 * Whole days per batch: two batches never share a day, so parallel batches never wait on each
 * other's lock on a row of the daily rollup.
 */
function batchByDay<T extends { created_at: Date }>(sales: readonly T[]): T[][] {
  const batches: T[][] = [];
  let batch: T[] = [];
  let day = -1;
  for (const sale of sales) {
    const saleDay = Math.floor((sale.created_at.getTime() + LOCAL_OFFSET_MS) / DAY_MS);
    if (saleDay !== day && batch.length >= BATCH_SALES) {
      batches.push(batch);
      batch = [];
    }
    day = saleDay;
    batch.push(sale);
  }
  if (batch.length > 0) batches.push(batch);
  return batches;
}

/**
 * The demo's sales (DESIGN §9): days of café trade up to `now` on the demo BPTs, each written as
 * an invoice and then recorded by settleInvoice, the code real payments go through, so the
 * ledger, its rollups and every dashboard figure agree as they would for real sales. Returns how
 * many sales it recorded.
 *
 * It can be stopped anywhere (the process killed) and run again with the same `now`: the sales
 * are drawn the same way every time, each with a payment hash derived from its organization and
 * its place in the list, and a batch of whole days commits at once, so a batch whose first sale
 * is already there is skipped whole and the rest is recorded once.
 *
 * The invoices' payment requests are not signed BOLT11 invoices: signing one costs about 0.6 ms
 * (secp256k1), 10 s for a year of sales on two cores, against a 15 s budget for the whole seed.
 * They are `demo:` + the payment hash, which no wallet mistakes for something payable.
 */
export async function seedDemoSales(db: Db, organizationId: string, options: DemoSalesOptions = {}): Promise<number> {
  const bpts = await listBpts(db, organizationId);
  const days = options.days ?? 365;
  const market = options.market ?? GUATEMALA_MARKET;
  const now = (options.now ?? new Date()).getTime();
  const random = createRandom(market.randomSeed);
  const store = bpts.filter((bpt) => bpt.channel !== 'online');
  const online = bpts.filter((bpt) => bpt.channel === 'online');
  // Local midnight of today in the market, as an instant.
  const today = Math.floor((now + LOCAL_OFFSET_MS) / DAY_MS) * DAY_MS - LOCAL_OFFSET_MS;

  const sales: (NewPastInvoice & { settledAt: Date })[] = [];
  for (let d = days - 1; d >= 0; d -= 1) {
    // A year of sales takes a few hundred milliseconds to draw; main.ts draws them as Rayo starts
    // serving, and its first requests must not wait behind them.
    await setImmediate();
    const midnight = today - d * DAY_MS;
    const dayIndex = days - 1 - d;
    const rate = rateOn(market, dayIndex, days, random);
    const weekday = new Date(midnight - LOCAL_OFFSET_MS).getUTCDay();
    // 20–45 sales on an average day, growing a third over the year, shaped by the weekday.
    const base = 20 + random.below(26);
    const count = Math.floor((base * (WEEKDAY_PERCENT[weekday] as number) * (300 + dayIndex / 4)) / 30_000);
    for (let i = 0; i < count; i += 1) {
      const isOnline = online.length > 0 && random.below(100) < 15;
      const pool = isOnline ? online : store;
      const bpt = pool[random.below(pool.length)] as BptRow;
      const hour = weighted(isOnline ? ONLINE_HOURS : STORE_HOURS, random);
      const createdAt = midnight + hour * HOUR_MS + random.below(HOUR_MS);
      const settledAt = createdAt + 4000 + random.below(40_000);
      if (settledAt > now) continue;
      const billMinor = drawBill(random);
      const tipMinor = bpt.tip_enabled ? percentOf(billMinor, drawTipBps(random)) : 0n;
      const sale = computeSale({ billMinor, tipMinor, taxBps: bpt.tax_bps });
      const paymentHash = createHash('sha256').update(`${organizationId}:demo-sale:${sales.length}`).digest('hex');
      sales.push({
        organization_id: organizationId,
        account_id: bpt.account_id,
        bpt_id: bpt.id,
        payment_hash: paymentHash,
        payment_request: `demo:${paymentHash}`,
        description: 'Demo sale',
        amount_msat: fiatToMsat(sale.totalMinor, rate, market.currency),
        currency: market.currency,
        bill_minor: sale.billMinor,
        tip_minor: sale.tipMinor,
        tax_minor: sale.taxMinor,
        total_minor: sale.totalMinor,
        rate_minor_per_btc: rate,
        created_at: new Date(createdAt),
        expires_at: new Date(createdAt + 15 * 60_000),
        settledAt: new Date(settledAt),
      });
    }
  }

  const deps = { config: options.config ?? loadConfig() };
  const firstHash = (batch: typeof sales) => (batch[0] as (typeof sales)[number]).payment_hash;
  const allBatches = batchByDay(sales);
  const seeded = await findSeededPaymentHashes(db, organizationId, allBatches.map(firstHash));
  const batches = allBatches.filter((batch) => !seeded.has(firstHash(batch)));
  let next = 0;
  const settleBatches = async () => {
    while (next < batches.length) {
      const batch = batches[next++] as typeof sales;
      await db.transaction().execute(async (trx) => {
        await insertPastInvoices(
          trx,
          batch.map(({ settledAt: _, ...invoice }) => invoice),
        );
        const joined = joinTransaction(trx);
        for (const sale of batch) {
          // settleIndex 0: these payments come from no Lightning node's stream, so no cursor moves.
          await settleInvoice({ ...deps, db: joined }, 'devnet', {
            paymentHash: sale.payment_hash,
            settleIndex: 0n,
            amountPaidMsat: sale.amount_msat,
            settledAt: sale.settledAt,
          });
        }
      });
    }
  };
  await Promise.all(Array.from({ length: SETTLERS }, settleBatches));
  return batches.reduce((recorded, batch) => recorded + batch.length, 0);
}
