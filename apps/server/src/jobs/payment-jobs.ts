import type { ChainBackend } from '../adapters/chain/types.ts';
import type { LightningBackend } from '../adapters/lightning/types.ts';
import type { Config } from '../config.ts';
import type { Db } from '../db/database.ts';
import { expireDueCheckouts } from '../modules/checkouts/checkouts.service.ts';
import {
  expireDueInvoices,
  readSettlementCursor,
  reconcileOpenInvoices,
  settleInvoice,
} from '../modules/ledger/settlement.service.ts';
import { watchCheckoutPayments } from '../modules/onchain/onchain.service.ts';
import { runLightningPayouts } from '../modules/payouts/payouts.service.ts';
import { runOnchainPayouts } from '../modules/payouts/payouts-onchain.service.ts';
import { runRefundPayments } from '../modules/refunds/refunds.service.ts';
import type { PeriodicPass } from './periodic.ts';

type Log = {
  warn: (object: object, message: string) => void;
  info: (object: object, message: string) => void;
  debug: (object: object, message: string) => void;
};
export type PaymentJobDeps = { db: Db; config: Config; lightning: LightningBackend; chain: ChainBackend };

const EXPIRY_INTERVAL_MS = 5_000;
const RESUBSCRIBE_DELAY_MS = 2_000;

/** Waits `ms`, or less when `signal` aborts, including when it already has. */
function sleep(ms: number, signal: AbortSignal): Promise<void> {
  if (signal.aborted) return Promise.resolve();
  return new Promise((resolve) => {
    const done = () => {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    signal.addEventListener('abort', done);
  });
}

/**
 * Follows the node's settlements from the stored cursor, so a restart picks up exactly where
 * the last recorded settlement left off.
 */
async function followSettlements(deps: PaymentJobDeps, signal: AbortSignal, log: Log): Promise<void> {
  while (!signal.aborted) {
    try {
      const after = await readSettlementCursor(deps.db, deps.lightning.name);
      await deps.lightning.subscribeSettlements(
        after,
        async (settlement) => {
          const recorded = await settleInvoice(deps, deps.lightning.name, settlement);
          // Which process recorded a payment, and that the others' reports of it changed nothing.
          log.debug({ paymentHash: settlement.paymentHash, recorded }, 'settlement followed');
        },
        signal,
      );
    } catch (error) {
      if (!signal.aborted) log.warn({ err: error }, 'settlement stream failed; resubscribing');
    }
    await sleep(RESUBSCRIBE_DELAY_MS, signal);
  }
}

/**
 * Starts the settlement stream, which every server process keeps: it is a long-lived
 * subscription to the node, not a job, and a settlement is recorded once whichever process sees
 * it first (the payment hash is unique). Returns its stop.
 */
export function startSettlementStream(deps: PaymentJobDeps, log: Log): () => Promise<void> {
  const controller = new AbortController();
  const running = followSettlements(deps, controller.signal, log);
  return async () => {
    controller.abort();
    await running;
  };
}

/**
 * The periodic payment passes. Each runs on the job queue, once per interval across all server
 * processes (jobs/periodic.ts); each is idempotent besides, so a pass run twice changes nothing.
 */
export function paymentPasses(deps: PaymentJobDeps, log: Log): PeriodicPass[] {
  return [
    { task: 'expire-invoices', intervalMs: EXPIRY_INTERVAL_MS, run: () => expireDueInvoices(deps.db) },
    { task: 'expire-checkouts', intervalMs: EXPIRY_INTERVAL_MS, run: () => expireDueCheckouts(deps.db) },
    {
      task: 'reconcile-invoices',
      intervalMs: deps.config.reconcileSeconds * 1000,
      run: async () => {
        const recorded = await reconcileOpenInvoices(deps);
        if (recorded > 0) log.info({ recorded }, 'reconcile recorded settlements the stream missed');
      },
    },
    {
      task: 'watch-checkout-payments',
      intervalMs: deps.config.chain.pollSeconds * 1000,
      run: () => watchCheckoutPayments(deps),
    },
    {
      task: 'pay-lightning-payouts',
      intervalMs: deps.config.payouts.intervalSeconds * 1000,
      run: (ctx) => runLightningPayouts(ctx, deps, log),
    },
    {
      task: 'pay-onchain-payouts',
      intervalMs: deps.config.payouts.intervalSeconds * 1000,
      run: (ctx) => runOnchainPayouts(ctx, deps, log),
    },
    // Finishes refund payments a crash or a node error cut short; the node is asked first.
    {
      task: 'pay-refunds',
      intervalMs: deps.config.payouts.intervalSeconds * 1000,
      run: () => runRefundPayments(deps, log),
    },
  ];
}
