import type { SaleSource } from '@rayo/shared';
import type { Selectable } from 'kysely';
import { sql } from 'kysely';
import type { NodeInvoiceRecord } from '../../adapters/lightning/types.ts';
import { type Db, poolOf } from '../../db/database.ts';
import type { BptsTable, InvoiceRow } from '../../db/schema.ts';
import { type SellerRow, toSellerRate } from './seller.ts';

export type { InvoiceRow };

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
 * charge: `insertInvoicesIfSalesHold` writes only if all of it is still so.
 */
export type AssumedSale = {
  userId: string;
  role: string;
  /** The caller's session epoch: a password reset or change since the read refuses the charge. */
  sessionEpoch: number;
  bpt: Pick<
    Selectable<BptsTable>,
    'id' | 'organization_id' | 'account_id' | 'currency' | 'tax_bps' | 'tip_enabled' | 'name'
  >;
  organizationName: string;
  /** The rate priced at and the fetch time a rate must be newer than to be fresh; none for sats. */
  rate?: { rateMinorPerBtc: bigint; fetchedAfter: Date };
};

/** A terminal charge to record if what it was priced from still holds (`insertInvoicesIfSalesHold`). */
export type HeldSale = { invoice: NewInvoice; nodeRecord: NodeInvoiceRecord | undefined; assumed: AssumedSale };

/**
 * `insertInvoice` for many charges in one statement, with the checks each charge's read makes:
 * the caller's user still exists with its role and session epoch, the terminal is live and unchanged in what the
 * sale used, its organization may sell under the same name, and the rate is still the current one
 * and fresh. A charge for which any of it is no longer so is not written, and its place in the
 * answer is undefined. Outside a transaction only: it runs on `db`'s pool.
 */
export async function insertInvoicesIfSalesHold(
  db: Db,
  sales: readonly HeldSale[],
): Promise<(InvoiceRow | undefined)[]> {
  const rows = sales.map(({ invoice, nodeRecord, assumed }) => {
    const { bpt, rate } = assumed;
    return sql`(${assumed.userId}::uuid, ${assumed.role}::text, ${assumed.sessionEpoch}::integer, ${bpt.id}::uuid, ${bpt.organization_id}::uuid,
      ${bpt.account_id}::uuid, ${bpt.currency}::text, ${bpt.tax_bps}::integer, ${bpt.tip_enabled}::boolean,
      ${bpt.name}::text, ${assumed.organizationName}::text, ${rate?.rateMinorPerBtc ?? null}::bigint,
      ${rate?.fetchedAfter ?? null}::timestamptz, ${invoice.payment_hash}::text, ${invoice.payment_request}::text,
      ${invoice.description}::text, ${invoice.amount_msat}::bigint, ${invoice.bill_minor}::bigint,
      ${invoice.tip_minor}::bigint, ${invoice.tax_minor}::bigint, ${invoice.total_minor}::bigint,
      ${invoice.rate_minor_per_btc}::bigint, ${invoice.expires_at}::timestamptz, ${invoice.source ?? 'terminal'}::text,
      ${nodeRecord?.preimage ?? null}::text, ${nodeRecord?.paymentRequest ?? null}::text,
      ${nodeRecord?.amountMsat ?? null}::bigint, ${nodeRecord?.expiresAt ?? null}::timestamptz)`;
  });
  const statement = sql<InvoiceRow>`
    with holds as (
      select sale.* from (values ${sql.join(rows)}) as sale (user_id, role, session_epoch, bpt_id, organization_id, account_id,
        currency, tax_bps, tip_enabled, bpt_name, organization_name, rate, fetched_after, payment_hash,
        payment_request, description, amount_msat, bill_minor, tip_minor, tax_minor, total_minor,
        rate_minor_per_btc, expires_at, source, preimage, node_payment_request, node_amount_msat, node_expires_at)
      where exists (
          select 1 from bpts join organizations on organizations.id = bpts.organization_id
          where bpts.id = sale.bpt_id and bpts.organization_id = sale.organization_id and bpts.deleted_at is null
            and bpts.account_id = sale.account_id and bpts.currency = sale.currency
            and bpts.tax_bps = sale.tax_bps and bpts.tip_enabled = sale.tip_enabled and bpts.name = sale.bpt_name
            and organizations.name = sale.organization_name and not organizations.blocked
        )
        and exists (
          select 1 from users
          where users.id = sale.user_id and users.role = sale.role and users.session_epoch = sale.session_epoch
        )
        and (sale.rate is null or exists (
          select 1 from rates where rates.currency = sale.currency and rates.rate_minor_per_btc = sale.rate
            and rates.fetched_at > sale.fetched_after
        ))
    ), node_invoice as (
      insert into devnet_invoices (payment_hash, preimage, payment_request, amount_msat, expires_at)
      select payment_hash, preimage, node_payment_request, node_amount_msat, node_expires_at
      from holds where preimage is not null
      returning payment_hash
    )
    insert into invoices (organization_id, account_id, bpt_id, payment_hash, payment_request, description,
      amount_msat, currency, bill_minor, tip_minor, tax_minor, total_minor, rate_minor_per_btc, expires_at, source)
    select organization_id, account_id, bpt_id, payment_hash, payment_request, description, amount_msat, currency,
      bill_minor, tip_minor, tax_minor, total_minor, rate_minor_per_btc, expires_at, source
    from holds where preimage is null or payment_hash in (select payment_hash from node_invoice)
    returning *`.compile(db);
  // A named statement is parsed and planned once per connection, not on every charge; its text
  // differs only by how many charges it carries, and so does its name.
  const { rows: written } = await poolOf(db).query<InvoiceRow>({
    name: `insert-invoices-if-sales-hold-${sales.length}`,
    text: statement.sql,
    values: [...statement.parameters],
  });
  const byHash = new Map(written.map((row) => [row.payment_hash, row]));
  return sales.map((sale) => byHash.get(sale.invoice.payment_hash));
}

/** The seller and the rate in one statement, for sales whose terminal was read before. */
export async function findSeller(db: Db, organizationId: string, currency: string): Promise<SellerRow | undefined> {
  const row = await db
    .selectFrom('organizations')
    .leftJoin('rates', (join) => join.on('rates.currency', '=', currency))
    .select(['organizations.name', 'organizations.blocked_reason', 'rates.rate_minor_per_btc', 'rates.fetched_at'])
    .where('organizations.id', '=', organizationId)
    .executeTakeFirst();
  return (
    row && {
      name: row.name,
      blockedReason: row.blocked_reason,
      rate: toSellerRate(row.rate_minor_per_btc, row.fetched_at),
    }
  );
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
