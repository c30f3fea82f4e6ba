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
} from '../modules/invoices/invoices.service.ts';
import { watchCheckoutPayments } from '../modules/onchain/onchain.service.ts';

type Log = { warn: (object: object, message: string) => void; info: (object: object, message: string) => void };
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

/** Runs `task` every `intervalMs` until aborted, never two at once, logging failures. */
async function every(intervalMs: number, signal: AbortSignal, log: Log, name: string, task: () => Promise<unknown>) {
  while (!signal.aborted) {
    try {
      await task();
    } catch (error) {
      log.warn({ err: error }, `${name} failed`);
    }
    await sleep(intervalMs, signal);
  }
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
          await settleInvoice(deps, deps.lightning.name, settlement);
        },
        signal,
      );
    } catch (error) {
      if (!signal.aborted) log.warn({ err: error }, 'settlement stream failed; resubscribing');
    }
    await sleep(RESUBSCRIBE_DELAY_MS, signal);
  }
}

/** Starts the settlement stream, the expiry sweep and the reconcile job; returns their stop. */
export function startPaymentJobs(deps: PaymentJobDeps, log: Log): () => Promise<void> {
  const controller = new AbortController();
  const { signal } = controller;
  const running = Promise.all([
    followSettlements(deps, signal, log),
    every(EXPIRY_INTERVAL_MS, signal, log, 'invoice expiry', () => expireDueInvoices(deps.db)),
    every(EXPIRY_INTERVAL_MS, signal, log, 'checkout expiry', () => expireDueCheckouts(deps.db)),
    every(deps.config.reconcileSeconds * 1000, signal, log, 'reconcile', async () => {
      const recorded = await reconcileOpenInvoices(deps);
      if (recorded > 0) log.info({ recorded }, 'reconcile recorded settlements the stream missed');
    }),
    every(deps.config.chain.pollSeconds * 1000, signal, log, 'checkout chain watch', () => watchCheckoutPayments(deps)),
  ]);
  return async () => {
    controller.abort();
    await running;
  };
}
