import { setImmediate } from 'node:timers/promises';
import { computeSettlement, splitForSale } from '@rayo/shared';
import type { LightningBackend, Settlement } from '../../adapters/lightning/types.ts';
import type { Config } from '../../config.ts';
import type { Db } from '../../db/database.ts';
import { invoicesSettled, settlementDelay } from '../../metrics.ts';
import { readPayoutSplitForSale } from '../settings/payout-split.service.ts';
import { addTransactionToDailyRollup, addTransactionToDisbursementTotals, insertTransaction } from './ledger.repo.ts';
import {
  advanceSettleCursor,
  endInvoiceLife,
  expireInvoices,
  listOpenInvoices,
  markInvoiceSettled,
  notifyInvoiceStatus,
  readSettleCursor,
} from './settlement.repo.ts';
import { applySettlementHandlers } from './settlement-handlers.ts';

export type SettlementDeps = { db: Db; config: Config };

/**
 * Records a settlement exactly once: the invoice's move to settled, its ledger row, the two
 * rollups, what the sale's source registered (settlement-handlers.ts) and the settle cursor commit
 * together, and the status event goes out on commit. Reports of a payment
 * already recorded (a replayed stream, the reconcile job, another process) change nothing.
 * Returns whether this call recorded it.
 */
export async function settleInvoice(deps: SettlementDeps, backend: string, settlement: Settlement): Promise<boolean> {
  const settled = await deps.db.transaction().execute(async (trx) => {
    const invoice = await markInvoiceSettled(trx, settlement.paymentHash, settlement.settledAt);
    if (invoice) {
      const totalMsat = BigInt(invoice.amount_msat);
      const rateMinorPerBtc = BigInt(invoice.rate_minor_per_btc);
      // The split in force now, read in this transaction: the sale keeps it whatever changes later.
      const split = splitForSale(await readPayoutSplitForSale(trx, invoice.organization_id), invoice.currency);
      const figures = computeSettlement({
        totalMsat,
        rateMinorPerBtc,
        currency: invoice.currency,
        txFeeBps: deps.config.txFeeBps,
        conversionFeeBps: deps.config.conversionFeeBps,
        split,
      });
      const transaction = await insertTransaction(trx, {
        invoice_id: invoice.id,
        payment_hash: invoice.payment_hash,
        organization_id: invoice.organization_id,
        account_id: invoice.account_id,
        bpt_id: invoice.bpt_id,
        created_at: invoice.created_at,
        settled_at: settlement.settledAt,
        currency: invoice.currency,
        bill_minor: invoice.bill_minor,
        tip_minor: invoice.tip_minor,
        tax_minor: invoice.tax_minor,
        total_minor: invoice.total_minor,
        total_msat: totalMsat,
        rate_minor_per_btc: rateMinorPerBtc,
        tx_fee_msat: figures.txFeeMsat,
        conversion_fee_msat: figures.conversionFeeMsat,
        income_msat: figures.incomeMsat,
        fiat_bps: split.fiatBps,
        onchain_bps: split.onchainBps,
        lightning_bps: split.lightningBps,
        fiat_msat: figures.fiatMsat,
        onchain_msat: figures.onchainMsat,
        lightning_msat: figures.lightningMsat,
        fiat_income_minor: figures.fiatIncomeMinor,
        source: invoice.source,
        virtual_bpt_id: invoice.virtual_bpt_id,
      });
      await addTransactionToDailyRollup(trx, transaction.id);
      await addTransactionToDisbursementTotals(trx, transaction.id);
      await applySettlementHandlers(trx, invoice);
      await notifyInvoiceStatus(trx, invoice.id, 'settled');
    }
    if (settlement.settleIndex > 0n) await advanceSettleCursor(trx, backend, settlement.settleIndex);
    return invoice;
  });
  if (!settled) return false;
  invoicesSettled.inc({ source: settled.source });
  settlementDelay.observe({ source: settled.source }, Math.max(0, Date.now() - settlement.settledAt.getTime()) / 1000);
  return true;
}

export async function expireDueInvoices(db: Db, now = new Date()): Promise<number> {
  return db.transaction().execute(async (trx) => {
    const ids = await expireInvoices(trx, now);
    for (const id of ids) await notifyInvoiceStatus(trx, id, 'expired');
    return ids.length;
  });
}

/**
 * The pending invoice of `paymentHash` expires now rather than at its own expiry, as when its
 * node let it run out early (the devnet node does on request), with its status event.
 */
export async function expireInvoiceNow(db: Db, paymentHash: string, now = new Date()): Promise<void> {
  await endInvoiceLife(db, paymentHash, now);
  await expireDueInvoices(db, now);
}

/**
 * Asks the node about every invoice that may still be paid and records the settlements the
 * stream missed (a restart, a dropped connection). Returns how many it recorded. It reads the open
 * invoices `batch` at a time, and asks the node about a page in one request where the node can,
 * but goes through all of them, so that a backlog of unpaid ones cannot hide a newer paid one run
 * after run.
 */
export async function reconcileOpenInvoices(
  deps: SettlementDeps & { lightning: LightningBackend },
  now = new Date(),
  batch = 200,
): Promise<number> {
  let recorded = 0;
  let afterId: string | undefined;
  for (;;) {
    const page = await listOpenInvoices(deps.db, now, batch, afterId);
    for (const lookup of await deps.lightning.lookupInvoices(page.map((invoice) => invoice.payment_hash))) {
      if (lookup.state === 'settled' && lookup.settlement) {
        // The stream owns the cursor; a reconciled settlement must not move it past unseen ones.
        if (await settleInvoice(deps, deps.lightning.name, { ...lookup.settlement, settleIndex: 0n })) recorded += 1;
      }
    }
    if (page.length < batch) return recorded;
    afterId = page[page.length - 1]?.id;
    // Thousands of open invoices are many pages: requests in between wait one page, not the pass.
    await setImmediate();
  }
}

export async function readSettlementCursor(db: Db, backend: string): Promise<bigint> {
  return readSettleCursor(db, backend);
}
