import { sql } from 'kysely';
import type { Db, ReadDb } from '../../db/database.ts';

export async function organizationExists(db: Db, organizationId: string): Promise<boolean> {
  const row = await db.selectFrom('organizations').select('id').where('id', '=', organizationId).executeTakeFirst();
  return row !== undefined;
}

export async function findCountryCode(db: Db, countryId: number): Promise<string | undefined> {
  const row = await db.selectFrom('countries').select('code').where('id', '=', countryId).executeTakeFirst();
  return row?.code;
}

/** Of the named organizations, those that have entered no bank account, by name. */
export async function listOrganizationsWithoutBankAccount(
  db: Db,
  organizationIds: readonly string[],
): Promise<{ id: string; name: string }[]> {
  if (organizationIds.length === 0) return [];
  const { rows } = await sql<{ id: string; name: string }>`
    select o.id, o.name from organizations o
    where o.id = any(${organizationIds}::uuid[])
      and not exists (select 1 from banking_info b where b.organization_id = o.id)
    order by o.name, o.id
  `.execute(db);
  return rows;
}

export type PayableRow = { id: string; organizationId: string; disbursed: boolean; fiatMsat: string };

/**
 * Locks the named sales until the transaction ends, in id order so that two overlapping calls
 * cannot deadlock: a second call for the same ids waits here and then sees them paid.
 */
export async function lockTransactionsForPay(db: Db, ids: readonly string[]): Promise<PayableRow[]> {
  const { rows } = await sql<PayableRow>`
    select id, organization_id as "organizationId", disbursed, fiat_msat::text as "fiatMsat"
    from transactions where id = any(${ids}::uuid[])
    order by id
    for update
  `.execute(db);
  return rows;
}

/**
 * Marks the sales' fiat paid, less the fiat parts of the organization's refunds it takes, and takes
 * it out of what the rollups count as still to pay:
 * `transaction_daily` (fiat to disburse; the bitcoin shares wait for their payouts) and
 * `disbursement_totals` (pending to paid). The caller has locked them and checked that none
 * was paid.
 */
export async function markTransactionsPaid(db: Db, ids: readonly string[]): Promise<void> {
  await sql`update transactions set disbursed = true where id = any(${ids}::uuid[])`.execute(db);
  // The rollup rows are locked in key order first: an UPDATE … FROM takes them in whatever order
  // its plan reads them, and two calls over overlapping days could then deadlock.
  await sql`
    select 1 from transaction_daily d
    join (
      select distinct t.organization_id, t.account_id, (t.settled_at at time zone o.time_zone)::date as day,
        t.currency
      from transactions t join organizations o on o.id = t.organization_id
      where t.id = any(${ids}::uuid[])
    ) p on d.organization_id = p.organization_id and d.account_id = p.account_id and d.day = p.day
      and d.currency = p.currency
    order by d.organization_id, d.day, d.account_id, d.currency
    for update of d
  `.execute(db);
  await sql`
    select 1 from disbursement_totals d
    where (d.organization_id, d.currency) in (
      select organization_id, currency from transactions where id = any(${ids}::uuid[])
    )
    order by d.organization_id, d.currency
    for update
  `.execute(db);
  await sql`
    update transaction_daily d set fiat_to_disburse_minor = d.fiat_to_disburse_minor - p.fiat_minor
    from (
      select t.organization_id, t.account_id, (t.settled_at at time zone o.time_zone)::date as day, t.currency,
        sum(t.fiat_income_minor) as fiat_minor
      from transactions t
      join organizations o on o.id = t.organization_id
      where t.id = any(${ids}::uuid[])
      group by 1, 2, 3, 4
    ) p
    where d.organization_id = p.organization_id and d.account_id = p.account_id and d.day = p.day
      and d.currency = p.currency
  `.execute(db);
  // The transfer takes the organization's refunds' fiat parts still owed (decision 0057), oldest
  // first, as many as it covers: their rows are locked first, and the update skips one a
  // concurrent transfer took meanwhile.
  await sql`
    select 1 from refunds r
    where (r.organization_id, r.currency) in (
      select organization_id, currency from transactions where id = any(${ids}::uuid[])
    ) and r.fiat_taken_at is null and r.fiat_share_minor > 0
    order by r.id
    for update
  `.execute(db);
  await sql`
    with gross as (
      select organization_id, currency, count(*) as count, sum(fiat_income_minor) as fiat_minor,
        sum(fiat_msat) as msat
      from transactions where id = any(${ids}::uuid[]) group by 1, 2
    ), owed as (
      select r.id, g.fiat_minor, sum(r.fiat_share_minor) over (
        partition by r.organization_id, r.currency order by r.created_at, r.id) as running
      from refunds r join gross g on g.organization_id = r.organization_id and g.currency = r.currency
      where r.fiat_taken_at is null and r.fiat_share_minor > 0
    ), took as (
      update refunds r set fiat_taken_at = now()
      from owed o
      where r.id = o.id and o.running <= o.fiat_minor and r.fiat_taken_at is null
      returning r.organization_id, r.currency, r.fiat_share_minor, r.fiat_msat
    ), p as (
      select g.organization_id, g.currency, g.count,
        g.fiat_minor - coalesce(sum(took.fiat_share_minor), 0) as fiat_minor,
        g.msat - coalesce(sum(took.fiat_msat), 0) as msat
      from gross g
      left join took on took.organization_id = g.organization_id and took.currency = g.currency
      group by g.organization_id, g.currency, g.count, g.fiat_minor, g.msat
    )
    update disbursement_totals d set
      pending_count = d.pending_count - p.count,
      pending_fiat_minor = d.pending_fiat_minor - p.fiat_minor,
      pending_msat = d.pending_msat - p.msat,
      paid_count = d.paid_count + p.count,
      paid_fiat_minor = d.paid_fiat_minor + p.fiat_minor,
      paid_msat = d.paid_msat + p.msat
    from p
    where d.organization_id = p.organization_id and d.currency = p.currency
  `.execute(db);
}

export type ReportTotalsRow = {
  organizationId: string;
  organizationName: string;
  currency: string | null;
  pendingCount: string;
  paidCount: string;
  paidFiatMinor: string;
  paidMsat: string;
  feeUsdMicros: string;
  hasBankAccount: boolean;
};

/** Every organization of a country (null: all), with its totals per currency (none without sales). */
export async function listReportTotals(db: ReadDb, countryId: number | null): Promise<ReportTotalsRow[]> {
  const { rows } = await sql<ReportTotalsRow>`
    select o.id as "organizationId", o.name as "organizationName", d.currency,
      coalesce(d.pending_count, 0)::text as "pendingCount", coalesce(d.paid_count, 0)::text as "paidCount",
      coalesce(d.paid_fiat_minor, 0)::text as "paidFiatMinor", coalesce(d.paid_msat, 0)::text as "paidMsat",
      coalesce(d.fee_usd_micros, 0)::text as "feeUsdMicros",
      exists (select 1 from banking_info b where b.organization_id = o.id) as "hasBankAccount"
    from organizations o
    left join disbursement_totals d on d.organization_id = o.id
    where ${countryId === null ? sql`true` : sql`o.country_id = ${countryId}`}
    order by o.name, o.id, d.currency
  `.execute(db);
  return rows;
}

/**
 * Each organization's unpaid sale ids, oldest first, at most `limit` each. They come back as one
 * comma-separated text per organization: parsing a uuid[] of twenty thousand ids in the client
 * cost four times the query.
 */
export async function listUnpaidIdsByOrganization(
  db: ReadDb,
  organizationIds: readonly string[],
  limit: number,
): Promise<Map<string, string[]>> {
  if (organizationIds.length === 0) return new Map();
  const { rows } = await sql<{ organizationId: string; ids: string }>`
    select o.id as "organizationId", u.ids
    from unnest(${organizationIds}::uuid[]) as o(id)
    cross join lateral (
      select string_agg(x.id::text, ',' order by x.settled_at, x.id) as ids from (
        select t.id, t.settled_at from transactions t
        where t.organization_id = o.id and not t.disbursed and t.fiat_msat > 0
        order by t.settled_at, t.id
        limit ${limit}
      ) x
    ) u
    where u.ids is not null
  `.execute(db);
  return new Map(rows.map((row) => [row.organizationId, row.ids.split(',')]));
}

/** The ids of the organization's sales settled before `before` whose fiat part is not paid. */
export async function listUnpaidTransactionIdsBefore(db: Db, organizationId: string, before: Date): Promise<string[]> {
  const rows = await db
    .selectFrom('transactions')
    .select('id')
    .where('organization_id', '=', organizationId)
    .where('disbursed', '=', false)
    .where('fiat_msat', '>', '0')
    .where('settled_at', '<', before)
    .execute();
  return rows.map((row) => row.id);
}
