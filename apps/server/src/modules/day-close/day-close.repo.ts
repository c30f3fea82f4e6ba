import { sql } from 'kysely';
import type { ReadDb } from '../../db/database.ts';
import type { CloseGroup } from '../../domain/day-close.ts';

export type CloseFilter = {
  organizationId: string;
  timeZone: string;
  /** The organization's currency: the fiat sums count the sales priced in it. */
  currency: string;
  accountIds: string[] | null;
  bptId: string | null;
  /** Local days, both included. */
  fromDay: string;
  toDay: string;
};

/** A group as PostgreSQL writes it: the sums as text, since they may pass 2^53. */
type GroupText = {
  [K in keyof CloseGroup]: CloseGroup[K] extends bigint ? string : CloseGroup[K];
};

/**
 * The sales settled in the local days and the refunds made in them, summed per account, terminal,
 * payment method (an on-chain sale's payment hash is its `onchain:` outpoint, as the CSV tells
 * them apart) and local hour, the two runs of an hour the clocks go back through apart. A refund counts on its sale's account, terminal and method, in the
 * hour it was made. The days' bounds are local midnights by PostgreSQL's zone rules, so a day of
 * a daylight-saving change has its 23 or 25 hours.
 */
export async function listCloseGroups(db: ReadDb, filter: CloseFilter): Promise<CloseGroup[]> {
  const { timeZone, currency } = filter;
  const accounts = filter.accountIds === null ? sql`true` : sql`t.account_id = any(${filter.accountIds}::uuid[])`;
  const bpt = filter.bptId === null ? sql`true` : sql`t.bpt_id = ${filter.bptId}`;
  const from = sql`(${filter.fromDay}::date::timestamp at time zone ${timeZone})`;
  const to = sql`((${filter.toDay}::date + 1)::timestamp at time zone ${timeZone})`;
  const method = sql`case when t.payment_hash like 'onchain:%' then 'onchain' else 'lightning' end`;
  const { rows } = await sql<GroupText>`
    with moves as (
      select t.account_id, t.bpt_id, ${method} as method, t.settled_at as at, 1 as sales,
        case when t.currency = ${currency} then t.total_minor else 0 end as gross_minor,
        case when t.currency = ${currency} then t.tip_minor else 0 end as tips_minor,
        case when t.currency = ${currency} then t.tax_minor else 0 end as tax_minor,
        0::bigint as refunds_minor, t.total_msat as gross_msat, t.tx_fee_msat + t.conversion_fee_msat as fees_msat,
        0::bigint as refunds_msat
      from transactions t
      where t.organization_id = ${filter.organizationId} and ${accounts} and ${bpt}
        and t.settled_at >= ${from} and t.settled_at < ${to}
      union all
      select t.account_id, t.bpt_id, ${method}, r.created_at, 0, 0, 0, 0,
        case when r.currency = ${currency} then r.fiat_minor else 0 end, 0, 0, r.amount_msat
      from refunds r
      join transactions t on t.id = r.transaction_id
      where r.organization_id = ${filter.organizationId} and ${accounts} and ${bpt}
        and r.created_at >= ${from} and r.created_at < ${to}
    )
    select m.account_id as "accountId", a.name as "accountName", m.bpt_id as "bptId",
      coalesce(b.name, '') as "bptName", m.method,
      extract(hour from m.at at time zone ${timeZone})::int as hour,
      -- The second run of a wall-clock hour (the clocks went back): an hour earlier it read the same hour.
      case when date_trunc('hour', (m.at - interval '1 hour') at time zone ${timeZone})
        = date_trunc('hour', m.at at time zone ${timeZone}) then 1 else 0 end as fold,
      sum(m.sales)::text as count,
      sum(m.gross_minor)::text as "grossMinor",
      sum(m.tips_minor)::text as "tipsMinor",
      sum(m.tax_minor)::text as "taxMinor",
      sum(m.refunds_minor)::text as "refundsMinor",
      sum(m.gross_msat)::text as "grossMsat",
      sum(m.fees_msat)::text as "feesMsat",
      sum(m.refunds_msat)::text as "refundsMsat"
    from moves m
    join accounts a on a.id = m.account_id
    left join bpts b on b.id = m.bpt_id
    group by 1, 2, 3, 4, 5, 6, 7
  `.execute(db);
  return rows.map((row) => ({
    ...row,
    count: BigInt(row.count),
    grossMinor: BigInt(row.grossMinor),
    tipsMinor: BigInt(row.tipsMinor),
    taxMinor: BigInt(row.taxMinor),
    refundsMinor: BigInt(row.refundsMinor),
    grossMsat: BigInt(row.grossMsat),
    feesMsat: BigInt(row.feesMsat),
    refundsMsat: BigInt(row.refundsMsat),
  }));
}
