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

/** A group as PostgreSQL writes it, refunds aside: the sums as text, since they may pass 2^53. */
type GroupText = {
  [K in Exclude<keyof CloseGroup, 'refundsMinor' | 'refundsMsat'>]: CloseGroup[K] extends bigint
    ? string
    : CloseGroup[K];
};

/**
 * The sales settled in the local days, summed per account, terminal, payment method (an on-chain
 * sale's payment hash is its `onchain:` outpoint, as the CSV tells them apart) and local hour. The
 * days' bounds are local midnights by PostgreSQL's zone rules, so a day of a daylight-saving
 * change has its 23 or 25 hours. Refunds are recorded nowhere yet, so they sum to zero.
 */
export async function listCloseGroups(db: ReadDb, filter: CloseFilter): Promise<CloseGroup[]> {
  const { timeZone, currency } = filter;
  const accounts = filter.accountIds === null ? sql`true` : sql`t.account_id = any(${filter.accountIds}::uuid[])`;
  const bpt = filter.bptId === null ? sql`true` : sql`t.bpt_id = ${filter.bptId}`;
  const { rows } = await sql<GroupText>`
    select t.account_id as "accountId", a.name as "accountName", t.bpt_id as "bptId",
      coalesce(b.name, '') as "bptName",
      case when t.payment_hash like 'onchain:%' then 'onchain' else 'lightning' end as method,
      extract(hour from t.settled_at at time zone ${timeZone})::int as hour,
      count(*)::text as count,
      coalesce(sum(t.total_minor) filter (where t.currency = ${currency}), 0)::text as "grossMinor",
      coalesce(sum(t.tip_minor) filter (where t.currency = ${currency}), 0)::text as "tipsMinor",
      coalesce(sum(t.tax_minor) filter (where t.currency = ${currency}), 0)::text as "taxMinor",
      sum(t.total_msat)::text as "grossMsat",
      sum(t.tx_fee_msat + t.conversion_fee_msat)::text as "feesMsat"
    from transactions t
    join accounts a on a.id = t.account_id
    left join bpts b on b.id = t.bpt_id
    where t.organization_id = ${filter.organizationId} and ${accounts} and ${bpt}
      and t.settled_at >= (${filter.fromDay}::date::timestamp at time zone ${timeZone})
      and t.settled_at < ((${filter.toDay}::date + 1)::timestamp at time zone ${timeZone})
    group by 1, 2, 3, 4, 5, 6
  `.execute(db);
  return rows.map((row) => ({
    ...row,
    count: BigInt(row.count),
    grossMinor: BigInt(row.grossMinor),
    tipsMinor: BigInt(row.tipsMinor),
    taxMinor: BigInt(row.taxMinor),
    refundsMinor: 0n,
    grossMsat: BigInt(row.grossMsat),
    feesMsat: BigInt(row.feesMsat),
    refundsMsat: 0n,
  }));
}
