import { sql } from 'kysely';
import pg from 'pg';
import type { Db } from '../../db/database.ts';

export type DevnetInvoiceRow = {
  paymentHash: string;
  preimage: string;
  paymentRequest: string;
  amountMsat: bigint;
  expiresAt: Date;
  settleIndex: bigint | null;
  settledAt: Date | null;
};

export type SettledDevnetInvoice = DevnetInvoiceRow & { settleIndex: bigint; settledAt: Date };

const SETTLEMENTS_CHANNEL = 'devnet_settlements';
/** Any fixed key: it only has to be the same in every process that settles devnet invoices. */
const SETTLE_LOCK_KEY = 7_340_117;

type Row = {
  payment_hash: string;
  preimage: string;
  payment_request: string;
  amount_msat: string;
  expires_at: Date;
  settle_index: string | null;
  settled_at: Date | null;
};

function toInvoice(row: Row): DevnetInvoiceRow {
  return {
    paymentHash: row.payment_hash,
    preimage: row.preimage,
    paymentRequest: row.payment_request,
    amountMsat: BigInt(row.amount_msat),
    expiresAt: row.expires_at,
    settleIndex: row.settle_index === null ? null : BigInt(row.settle_index),
    settledAt: row.settled_at,
  };
}

/** The stored secret, or `value` stored under `name` when there was none; safe when processes race. */
export async function storeSecretOnce(db: Db, name: string, value: string): Promise<string> {
  const row = await db
    .insertInto('server_secrets')
    .values({ name, value })
    // A no-op update makes the statement return the value that won.
    .onConflict((oc) => oc.column('name').doUpdateSet({ value: sql<string>`server_secrets.value` }))
    .returning('value')
    .executeTakeFirstOrThrow();
  return row.value;
}

export async function insertDevnetInvoice(
  db: Db,
  invoice: Pick<DevnetInvoiceRow, 'paymentHash' | 'preimage' | 'paymentRequest' | 'amountMsat' | 'expiresAt'>,
): Promise<void> {
  await db
    .insertInto('devnet_invoices')
    .values({
      payment_hash: invoice.paymentHash,
      preimage: invoice.preimage,
      payment_request: invoice.paymentRequest,
      amount_msat: invoice.amountMsat,
      expires_at: invoice.expiresAt,
    })
    .execute();
}

export async function findDevnetInvoice(db: Db, paymentHash: string): Promise<DevnetInvoiceRow | undefined> {
  const row = await db
    .selectFrom('devnet_invoices')
    .selectAll()
    .where('payment_hash', '=', paymentHash)
    .executeTakeFirst();
  return row && toInvoice(row);
}

/** Those of `paymentHashes` the node has, in one statement: the reconcile pass asks about hundreds at once. */
export async function findDevnetInvoices(db: Db, paymentHashes: readonly string[]): Promise<DevnetInvoiceRow[]> {
  if (paymentHashes.length === 0) return [];
  const rows = await db.selectFrom('devnet_invoices').selectAll().where('payment_hash', 'in', paymentHashes).execute();
  return rows.map(toInvoice);
}

/**
 * Ends an unpaid invoice's life now, unless it already ended; undefined when the node has no such
 * invoice. A paid one is answered as it is.
 */
export async function expireDevnetInvoiceNow(db: Db, paymentHash: string): Promise<DevnetInvoiceRow | undefined> {
  const result = await sql<Row>`
    update devnet_invoices
    set expires_at = case when settle_index is null then least(expires_at, now()) else expires_at end
    where payment_hash = ${paymentHash}
    returning *`.execute(db);
  const row = result.rows[0];
  return row && toInvoice(row);
}

/**
 * Settles an unpaid, unexpired invoice and notifies the settlement listeners on commit; undefined
 * when it was already paid or has expired. Settlements are serialized so that they commit in
 * settle-index order: a listener that has seen index n can then never later find a smaller one.
 */
export async function settleDevnetInvoice(db: Db, paymentHash: string): Promise<SettledDevnetInvoice | undefined> {
  const settle = async (trx: Db) => {
    await sql`select pg_advisory_xact_lock(${SETTLE_LOCK_KEY})`.execute(trx);
    const result = await sql<Row>`
      with settled as (
        update devnet_invoices
        set settle_index = nextval('devnet_settle_index_seq'), settled_at = now()
        where payment_hash = ${paymentHash} and settle_index is null and expires_at >= now()
        returning *
      )
      select settled.*, pg_notify(${SETTLEMENTS_CHANNEL}, settled.settle_index::text) from settled`.execute(trx);
    const row = result.rows[0];
    return row && (toInvoice(row) as SettledDevnetInvoice);
  };
  return db.isTransaction ? settle(db) : db.transaction().execute(settle);
}

export async function listDevnetSettlementsAfter(
  db: Db,
  afterIndex: bigint,
  limit: number,
): Promise<SettledDevnetInvoice[]> {
  const rows = await db
    .selectFrom('devnet_invoices')
    .selectAll()
    .where('settle_index', '>', afterIndex.toString())
    .orderBy('settle_index')
    .limit(limit)
    .execute();
  return rows.map((row) => toInvoice(row) as SettledDevnetInvoice);
}

export type SettlementListener = { close: () => Promise<void> };

/**
 * LISTENs for devnet settlements on a connection of its own (a pooled one would be handed to other
 * queries). `onFailure` is called once if the connection breaks; the caller then closes and reopens.
 */
export async function listenForDevnetSettlements(
  connectionString: string,
  onNotification: () => void,
  onFailure: (error: Error) => void,
): Promise<SettlementListener> {
  const client = new pg.Client({ connectionString });
  let closing = false;
  let failed = false;
  const fail = (error: Error) => {
    if (closing || failed) return;
    failed = true;
    onFailure(error);
  };
  client.on('error', fail);
  client.on('end', () => fail(new Error('The settlement listener connection closed')));
  client.on('notification', (message) => {
    if (message.channel === SETTLEMENTS_CHANNEL) onNotification();
  });
  const close = async () => {
    closing = true;
    await client.end().catch(() => {});
  };
  try {
    await client.connect();
    await client.query(`listen ${SETTLEMENTS_CHANNEL}`);
  } catch (error) {
    await close();
    throw error;
  }
  return { close };
}
