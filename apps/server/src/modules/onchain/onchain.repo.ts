import type { Selectable } from 'kysely';
import { sql } from 'kysely';
import type { Db } from '../../db/database.ts';
import type { CheckoutOnchainAddressesTable, CheckoutOnchainOutputsTable, OnchainState } from '../../db/schema.ts';

export type CheckoutAddressRow = Selectable<CheckoutOnchainAddressesTable>;
export type SeenOutputRow = Selectable<CheckoutOnchainOutputsTable>;

/**
 * Hands out the wallet's next receive index. The counter row is created on first use and
 * advanced by one `update … returning`, so concurrent callers in any process get distinct indexes.
 */
export async function allocateWalletIndex(db: Db, wallet: string): Promise<number> {
  const row = await db
    .insertInto('onchain_wallet_counters')
    .values({ wallet, next_index: 1 })
    .onConflict((oc) => oc.column('wallet').doUpdateSet({ next_index: sql`onchain_wallet_counters.next_index + 1` }))
    .returning('next_index')
    .executeTakeFirstOrThrow();
  return row.next_index - 1;
}

export type NewCheckoutAddress = {
  checkout_id: string;
  organization_id: string;
  address: string;
  wallet: string;
  derivation_path: string;
  derivation_index: number;
  amount_sats: bigint;
  rate_minor_per_btc: bigint;
  quote_expires_at: Date;
  watch_until: Date;
};

/** Inserts the checkout's address unless it has one already; returns whichever is stored. */
export async function insertCheckoutAddress(db: Db, row: NewCheckoutAddress): Promise<CheckoutAddressRow> {
  const inserted = await db
    .insertInto('checkout_onchain_addresses')
    .values(row)
    .onConflict((oc) => oc.column('checkout_id').doNothing())
    .returningAll()
    .executeTakeFirst();
  if (inserted) return inserted;
  return db
    .selectFrom('checkout_onchain_addresses')
    .selectAll()
    .where('checkout_id', '=', row.checkout_id)
    .executeTakeFirstOrThrow();
}

export async function findCheckoutAddress(
  db: Db,
  checkoutId: string,
  options: { lock?: boolean } = {},
): Promise<CheckoutAddressRow | undefined> {
  return db
    .selectFrom('checkout_onchain_addresses')
    .selectAll()
    .where('checkout_id', '=', checkoutId)
    .$if(options.lock === true, (query) => query.forUpdate())
    .executeTakeFirst();
}

export async function listCheckoutAddresses(db: Db, checkoutIds: string[]): Promise<CheckoutAddressRow[]> {
  if (checkoutIds.length === 0) return [];
  return db.selectFrom('checkout_onchain_addresses').selectAll().where('checkout_id', 'in', checkoutIds).execute();
}

/**
 * Gives the address a new quote, unless a payment to it has been seen: a payment is judged against
 * the quote it was sent for. Returns the row as it now is.
 */
export async function requoteCheckoutAddress(
  db: Db,
  checkoutId: string,
  quote: { amountSats: bigint; rateMinorPerBtc: bigint; expiresAt: Date },
): Promise<CheckoutAddressRow | undefined> {
  const updated = await db
    .updateTable('checkout_onchain_addresses')
    .set({
      amount_sats: quote.amountSats,
      rate_minor_per_btc: quote.rateMinorPerBtc,
      quote_expires_at: quote.expiresAt,
    })
    .where('checkout_id', '=', checkoutId)
    .where((eb) =>
      eb.not(
        eb.exists(
          eb
            .selectFrom('checkout_onchain_outputs as o')
            .select('o.txid')
            .whereRef('o.checkout_id', '=', 'checkout_onchain_addresses.checkout_id'),
        ),
      ),
    )
    .returningAll()
    .executeTakeFirst();
  return updated ?? findCheckoutAddress(db, checkoutId);
}

/**
 * The addresses to look at: every checkout still waiting or confirming, and any address whose
 * watch window is open, so that a payment after expiry or after a Lightning payment is seen.
 */
export async function listWatchedAddresses(db: Db, now: Date): Promise<CheckoutAddressRow[]> {
  return db
    .selectFrom('checkout_onchain_addresses as a')
    .innerJoin('checkouts as c', 'c.id', 'a.checkout_id')
    .selectAll('a')
    .where((eb) => eb.or([eb('a.watch_until', '>', now), eb('c.status', 'in', ['awaiting_payment', 'processing'])]))
    .orderBy('a.created_at')
    .execute();
}

/** Records outputs seen paying the address, and the block each is in now (reorgs move them). */
export async function upsertSeenOutputs(
  db: Db,
  checkoutId: string,
  outputs: Array<{ txid: string; vout: number; valueSats: bigint; blockHeight: number | null }>,
): Promise<void> {
  if (outputs.length === 0) return;
  await db
    .insertInto('checkout_onchain_outputs')
    .values(
      outputs.map((output) => ({
        checkout_id: checkoutId,
        txid: output.txid,
        vout: output.vout,
        value_sats: output.valueSats,
        block_height: output.blockHeight,
      })),
    )
    .onConflict((oc) => oc.columns(['txid', 'vout']).doUpdateSet({ block_height: sql`excluded.block_height` }))
    .execute();
}

export async function listSeenOutputs(db: Db, checkoutId: string): Promise<SeenOutputRow[]> {
  return db
    .selectFrom('checkout_onchain_outputs')
    .selectAll()
    .where('checkout_id', '=', checkoutId)
    .orderBy('seen_at')
    .orderBy('txid')
    .orderBy('vout')
    .execute();
}

export async function markOutputsRecorded(
  db: Db,
  outputs: Array<{ txid: string; vout: number }>,
  invoiceId: string,
): Promise<void> {
  for (const output of outputs) {
    await db
      .updateTable('checkout_onchain_outputs')
      .set({ invoice_id: invoiceId })
      .where('txid', '=', output.txid)
      .where('vout', '=', output.vout)
      .execute();
  }
}

export async function updateCheckoutAddressState(
  db: Db,
  checkoutId: string,
  state: { state: OnchainState; receivedSats: bigint; confirmations: number; watchUntil: Date },
): Promise<void> {
  await db
    .updateTable('checkout_onchain_addresses')
    .set({
      state: state.state,
      received_sats: state.receivedSats,
      confirmations: state.confirmations,
      watch_until: state.watchUntil,
    })
    .where('checkout_id', '=', checkoutId)
    .execute();
}

/** On-chain payments written to the ledger whose settlement has not run yet (a crash in between). */
export async function listUnsettledOnchainInvoices(db: Db, checkoutId: string): Promise<string[]> {
  const rows = await db
    .selectFrom('invoices')
    .select('payment_hash')
    .where('source_id', '=', checkoutId)
    .where('payment_hash', 'like', 'onchain:%')
    .where('status', '!=', 'settled')
    .execute();
  return rows.map((row) => row.payment_hash);
}
