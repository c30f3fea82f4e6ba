import type { SaleSource } from '@rayo/shared';
import type { Db } from '../../db/database.ts';
import type { InvoiceRow } from '../../db/schema.ts';

/**
 * What a sale's source does when one of its invoices settles (a checkout becomes paid, a donation
 * enters the history). It runs inside the settlement's database transaction, so the source's own
 * state moves exactly when the ledger gains the sale, and a handler that throws undoes the whole
 * settlement.
 */
export type SettlementHandler = (trx: Db, invoice: InvoiceRow) => Promise<void>;

/** A terminal's sale is the ledger's row and nothing more: it is the one source without a handler. */
const LEDGER_ONLY_SOURCES: ReadonlySet<SaleSource> = new Set<SaleSource>(['terminal']);

/** Per source, each owner's handler, in the order they were registered. */
const handlers = new Map<SaleSource, Map<string, SettlementHandler>>();

/**
 * Each selling module registers its handlers from its own register function, which the process
 * calls at start (runtime.ts), so the ledger never imports a selling module. One owner has one
 * handler per source: registering again (another app in the same process) replaces it.
 */
export function registerSettlementHandler(source: SaleSource, owner: string, handler: SettlementHandler): void {
  if (LEDGER_ONLY_SOURCES.has(source)) throw new Error(`a ${source} sale takes no settlement handler`);
  let owners = handlers.get(source);
  if (!owners) {
    owners = new Map();
    handlers.set(source, owners);
  }
  owners.set(owner, handler);
}

/**
 * Runs the handlers of the invoice's source. A source with none registered is a wiring fault:
 * settling its sale without them would lose what the sale means to it, so the settlement fails.
 */
export async function applySettlementHandlers(trx: Db, invoice: InvoiceRow): Promise<void> {
  if (LEDGER_ONLY_SOURCES.has(invoice.source)) return;
  const owners = handlers.get(invoice.source);
  if (!owners || owners.size === 0) {
    throw new Error(`no settlement handler is registered for ${invoice.source} sales (invoice ${invoice.id})`);
  }
  for (const handler of owners.values()) await handler(trx, invoice);
}
