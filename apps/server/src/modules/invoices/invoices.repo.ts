import type { InvoiceStatus, SaleSource } from '@rayo/shared';
import type { Selectable } from 'kysely';
import { sql } from 'kysely';
import type { NodeInvoiceRecord } from '../../adapters/lightning/types.ts';
import { type Db, poolOf } from '../../db/database.ts';
import type { InvoicesTable } from '../../db/schema.ts';
import type { BptRow } from '../bpts/bpts.repo.ts';

export type InvoiceRow = Selectable<InvoicesTable>;

export type NewInvoice = {
  organization_id: string;
  account_id: string;
  bpt_id: string | null;
  payment_hash: string;
  payment_request: string;
  description: string;
  amount_msat: bigint;
  currency: string;
  bill_minor: bigint;
  tip_minor: bigint;
  tax_minor: bigint;
  total_minor: bigint;
  rate_minor_per_btc: bigint;
  expires_at: Date;
  source?: SaleSource;
  source_id?: string | null;
  virtual_bpt_id?: string | null;
};

/**
 * Records the invoice; with the devnet node's record of it (when the node left that to the
 * caller), both in one statement, so that issuing an invoice is one write and one commit.
 */
export async function insertInvoice(db: Db, invoice: NewInvoice, nodeRecord?: NodeInvoiceRecord): Promise<InvoiceRow> {
  if (!nodeRecord) return db.insertInto('invoices').values(invoice).returningAll().executeTakeFirstOrThrow();
  return db
    .with('node_invoice', (cte) =>
      cte
        .insertInto('devnet_invoices')
        .values({
          payment_hash: nodeRecord.paymentHash,
          preimage: nodeRecord.preimage,
          payment_request: nodeRecord.paymentRequest,
          amount_msat: nodeRecord.amountMsat,
          expires_at: nodeRecord.expiresAt,
        })
        .returning('payment_hash'),
    )
    .insertInto('invoices')
    .values(invoice)
    .returningAll()
    .executeTakeFirstOrThrow();
}

/**
 * What a terminal charge was priced, described and allowed from, when it was read by an earlier
 * charge: `insertInvoiceIfSaleHolds` writes only if all of it is still so.
 */
export type AssumedSale = {
  userId: string;
  role: string;
  bpt: Pick<BptRow, 'id' | 'organization_id' | 'account_id' | 'currency' | 'tax_bps' | 'tip_enabled' | 'name'>;
  organizationName: string;
  /** The rate priced at and the fetch time a rate must be newer than to be fresh; none for sats. */
  rate?: { rateMinorPerBtc: bigint; fetchedAfter: Date };
};

/**
 * `insertInvoice`, in the same statement as the checks a charge's read makes: the caller's user
 * still exists with its role, the terminal is live and unchanged in what the sale used, its
 * organization may sell under the same name, and the rate is still the current one and fresh.
 * Writes nothing and returns undefined when any of it is no longer so. Outside a transaction
 * only: it runs on `db`'s pool.
 */
export async function insertInvoiceIfSaleHolds(
  db: Db,
  invoice: NewInvoice,
  nodeRecord: NodeInvoiceRecord | undefined,
  assumed: AssumedSale,
): Promise<InvoiceRow | undefined> {
  const { bpt, rate } = assumed;
  const rateHolds = rate
    ? sql`exists (select 1 from rates where rates.currency = ${bpt.currency} and rates.rate_minor_per_btc = ${rate.rateMinorPerBtc} and rates.fetched_at > ${rate.fetchedAfter})`
    : sql`true`;
  const nodeInvoice = nodeRecord
    ? sql`, node_invoice as (
        insert into devnet_invoices (payment_hash, preimage, payment_request, amount_msat, expires_at)
        select ${nodeRecord.paymentHash}, ${nodeRecord.preimage}, ${nodeRecord.paymentRequest}, ${nodeRecord.amountMsat}, ${nodeRecord.expiresAt}
        from holds
        returning payment_hash
      )`
    : sql``;
  const statement = sql<InvoiceRow>`
    with holds as (
      select 1 from bpts join organizations on organizations.id = bpts.organization_id
      where bpts.id = ${bpt.id} and bpts.organization_id = ${bpt.organization_id} and bpts.deleted_at is null
        and bpts.account_id = ${bpt.account_id} and bpts.currency = ${bpt.currency}
        and bpts.tax_bps = ${bpt.tax_bps} and bpts.tip_enabled = ${bpt.tip_enabled} and bpts.name = ${bpt.name}
        and organizations.name = ${assumed.organizationName} and not organizations.blocked
        and exists (select 1 from users where users.id = ${assumed.userId} and users.role = ${assumed.role})
        and ${rateHolds}
    )${nodeInvoice}
    insert into invoices (organization_id, account_id, bpt_id, payment_hash, payment_request, description,
      amount_msat, currency, bill_minor, tip_minor, tax_minor, total_minor, rate_minor_per_btc, expires_at,
      source, source_id, virtual_bpt_id)
    select ${invoice.organization_id}, ${invoice.account_id}, ${invoice.bpt_id}, ${invoice.payment_hash},
      ${invoice.payment_request}, ${invoice.description}, ${invoice.amount_msat}, ${invoice.currency},
      ${invoice.bill_minor}, ${invoice.tip_minor}, ${invoice.tax_minor}, ${invoice.total_minor},
      ${invoice.rate_minor_per_btc}, ${invoice.expires_at}, ${invoice.source ?? 'terminal'},
      ${invoice.source_id ?? null}, ${invoice.virtual_bpt_id ?? null}
    from ${nodeRecord ? sql`node_invoice` : sql`holds`}
    returning *`.compile(db);
  // A named statement is parsed and planned once per connection, not on every charge; its text
  // differs only by which checks and writes it makes, and so does its name.
  const { rows } = await poolOf(db).query<InvoiceRow>({
    name: `insert-invoice-if-sale-holds${nodeRecord ? '-with-node-record' : ''}${rate ? '-at-rate' : ''}`,
    text: statement.sql,
    values: [...statement.parameters],
  });
  return rows[0];
}

/** What issuing an invoice reads of the seller: whether it may sell, its name, and the cached price of `currency`. */
export type SellerRow = {
  name: string;
  blocked: boolean;
  rate: { rateMinorPerBtc: bigint; fetchedAt: Date } | undefined;
};

/** The seller and the rate in one statement, for sales whose terminal was read before. */
export async function findSeller(db: Db, organizationId: string, currency: string): Promise<SellerRow | undefined> {
  const row = await db
    .selectFrom('organizations')
    .leftJoin('rates', (join) => join.on('rates.currency', '=', currency))
    .select(['organizations.name', 'organizations.blocked', 'rates.rate_minor_per_btc', 'rates.fetched_at'])
    .where('organizations.id', '=', organizationId)
    .executeTakeFirst();
  return row && { name: row.name, blocked: row.blocked, rate: toSellerRate(row.rate_minor_per_btc, row.fetched_at) };
}

/** A left-joined cached rate: none when its columns are null. */
export function toSellerRate(rateMinorPerBtc: string | null, fetchedAt: Date | null): SellerRow['rate'] {
  return rateMinorPerBtc === null || fetchedAt === null
    ? undefined
    : { rateMinorPerBtc: BigInt(rateMinorPerBtc), fetchedAt };
}

/** An invoice created in the past, as the demo's history of sales records them. */
export type NewPastInvoice = NewInvoice & { created_at: Date };

/** Many invoices in one statement; the demo seed writes a year of them. */
export async function insertPastInvoices(db: Db, invoices: NewPastInvoice[]): Promise<void> {
  if (invoices.length > 0) await db.insertInto('invoices').values(invoices).execute();
}

/** Which of `paymentHashes` the organization's invoices already carry: the demo seed resumes after them. */
export async function findSeededPaymentHashes(
  db: Db,
  organizationId: string,
  paymentHashes: readonly string[],
): Promise<Set<string>> {
  if (paymentHashes.length === 0) return new Set();
  const rows = await db
    .selectFrom('invoices')
    .select('payment_hash')
    .where('organization_id', '=', organizationId)
    .where('payment_hash', 'in', paymentHashes)
    .execute();
  return new Set(rows.map((row) => row.payment_hash));
}

export async function findInvoice(db: Db, id: string): Promise<InvoiceRow | undefined> {
  return db.selectFrom('invoices').selectAll().where('id', '=', id).executeTakeFirst();
}

/**
 * Moves the invoice to settled unless it already is, and returns it only when this call did
 * the move: the row lock makes concurrent settlers of one payment agree on a single winner.
 * An expired invoice can still settle: the money arrived.
 */
export async function markInvoiceSettled(
  db: Db,
  paymentHash: string,
  settledAt: Date,
): Promise<InvoiceRow | undefined> {
  return db
    .updateTable('invoices')
    .set({ status: 'settled', settled_at: settledAt })
    .where('payment_hash', '=', paymentHash)
    .where('status', 'in', ['pending', 'expired'])
    .returningAll()
    .executeTakeFirst();
}

/** Pending invoices past their expiry become expired; returns their ids. */
export async function expireInvoices(db: Db, now: Date): Promise<string[]> {
  const rows = await db
    .updateTable('invoices')
    .set({ status: 'expired' })
    .where('status', '=', 'pending')
    .where('expires_at', '<=', now)
    .returning('id')
    .execute();
  return rows.map((row) => row.id);
}

/**
 * Invoices a payment may still arrive for (pending, or expired within the last day), oldest
 * first, `limit` at a time: the next page starts after the invoice `afterId`. The position is read
 * in SQL because `created_at` has microseconds that a JavaScript Date would round away. On-chain
 * payments (`onchain:` hashes) are left out: the chain watch settles them, and the Lightning node
 * never heard of them.
 */
export async function listOpenInvoices(db: Db, now: Date, limit: number, afterId?: string): Promise<InvoiceRow[]> {
  return db
    .selectFrom('invoices')
    .selectAll()
    .where('payment_hash', 'not like', 'onchain:%')
    .where((eb) =>
      eb.or([
        eb('status', '=', 'pending'),
        eb.and([eb('status', '=', 'expired'), eb('expires_at', '>', new Date(now.getTime() - 86_400_000))]),
      ]),
    )
    .$if(afterId !== undefined, (query) =>
      query.where(sql<boolean>`(created_at, id) > (select created_at, id from invoices where id = ${afterId})`),
    )
    .orderBy('created_at')
    .orderBy('id')
    .limit(limit)
    .execute();
}

export async function readSettleCursor(db: Db, backend: string): Promise<bigint> {
  const row = await db
    .selectFrom('lightning_cursors')
    .select('settle_index')
    .where('backend', '=', backend)
    .executeTakeFirst();
  return row ? BigInt(row.settle_index) : 0n;
}

/** Never moves the cursor backwards, whatever order concurrent settlers commit in. */
export async function advanceSettleCursor(db: Db, backend: string, settleIndex: bigint): Promise<void> {
  await db
    .insertInto('lightning_cursors')
    .values({ backend, settle_index: settleIndex })
    .onConflict((oc) =>
      oc.column('backend').doUpdateSet({
        settle_index: sql`greatest(lightning_cursors.settle_index, excluded.settle_index)`,
      }),
    )
    .execute();
}

export const INVOICE_EVENTS_CHANNEL = 'invoice_events';

/** Delivered to every listening server process when the surrounding transaction commits. */
export async function notifyInvoiceStatus(db: Db, id: string, status: InvoiceStatus): Promise<void> {
  await sql`select pg_notify(${INVOICE_EVENTS_CHANNEL}, ${JSON.stringify({ id, status })})`.execute(db);
}
