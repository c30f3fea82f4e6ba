import type { Readable } from 'node:stream';
import type { PaidVia, SaleSource } from '@rayo/shared';
import { type RawBuilder, sql } from 'kysely';
import pg from 'pg';
import { to as copyTo } from 'pg-copy-streams';
import { poolOf, type ReadDb } from '../../db/database.ts';
import { LEDGER_SQL, type LedgerRow, selectLedger, toDisburseColumns } from '../../db/ledger-sql.ts';
import { LEDGER_CSV_COLUMNS } from '../../domain/transactions-csv.ts';

/**
 * Which sales a dashboard call reads: one organization, its accounts (`null` for all of them),
 * whole local days from the rollup and instants from the ledger for the partial days at the
 * edges. Day bounds are YYYY-MM-DD in the organization's time zone, `to` exclusive, `null` open.
 */
export type SalesFilter = {
  organizationId: string;
  accountIds: string[] | null;
  days: { from: string | null; to: string | null } | null;
  edges: Array<{ from: Date | null; to: Date | null }>;
};

export type LocalDayBounds = {
  /** The first local day that starts at or after `start`, and the instant it starts. */
  firstDay: string | null;
  firstDayAt: Date | null;
  /** The local day `end` falls in (exclusive bound of the whole days), and the instant it starts. */
  endDay: string | null;
  endDayAt: Date | null;
};

export type SalesTotals = {
  count: string;
  receiveMsat: string;
  msatsToDisburse: string;
  receiveFiatMinor: string;
  fiatToDisburseMinor: string;
};

export type SeriesRow = { start: string; count: string; salesMsat: string; salesMinor: string; tipsMinor: string };
export type AccountTotalRow = {
  accountId: string;
  name: string;
  count: string;
  salesMsat: string;
  salesMinor: string;
};

/** The local midnights around a period, computed by PostgreSQL's time zone rules. */
export async function findLocalDayBounds(
  db: ReadDb,
  timeZone: string,
  start: Date | null,
  end: Date | null,
): Promise<LocalDayBounds> {
  const { rows } = await sql<LocalDayBounds>`
    with local as (
      select (${start}::timestamptz at time zone ${timeZone}) as start_local,
        (${end}::timestamptz at time zone ${timeZone}) as end_local
    ), days as (
      select
        case when start_local = date_trunc('day', start_local) then start_local::date
          else start_local::date + 1 end as first_day,
        end_local::date as end_day
      from local
    )
    select first_day::text as "firstDay", first_day::timestamp at time zone ${timeZone} as "firstDayAt",
      end_day::text as "endDay", end_day::timestamp at time zone ${timeZone} as "endDayAt"
    from days
  `.execute(db);
  const [bounds] = rows;
  if (!bounds) throw new Error('The day bounds query returned no row');
  return bounds;
}

function accountCondition(accountIds: string[] | null): RawBuilder<unknown> {
  if (accountIds === null) return sql`true`;
  // A single account compares with `=` so the planner can walk the (organization, account,
  // settled_at) index in order; `= any(array)` would make it sort.
  if (accountIds.length === 1) return sql`account_id = ${accountIds[0]}`;
  return sql`account_id = any(${accountIds}::uuid[])`;
}

function ledgerRange(edge: { from: Date | null; to: Date | null }): RawBuilder<unknown> {
  return sql`${edge.from === null ? sql`true` : sql`settled_at >= ${edge.from}`}
    and ${edge.to === null ? sql`true` : sql`settled_at < ${edge.to}`}`;
}

/**
 * The sales of a filter as rows of one shape, from the rollup (one row per day, account and
 * currency) and from the ledger (one row per sale), with the local time they fall in and what
 * their refunds gave back (counted on the sale's day, decision 0057).
 */
function salesSource(filter: SalesFilter, timeZone: string): RawBuilder<unknown> {
  const accounts = accountCondition(filter.accountIds);
  const parts: RawBuilder<unknown>[] = [];
  if (filter.days) {
    const { from, to } = filter.days;
    parts.push(sql`
      select account_id, currency, count, total_msat, total_minor, tip_minor, bitcoin_to_disburse_msat,
        fiat_to_disburse_minor, refunded_msat, refunded_minor, day::timestamp as local_time
      from transaction_daily
      where organization_id = ${filter.organizationId} and ${accounts}
        and ${from === null ? sql`true` : sql`day >= ${from}::date`}
        and ${to === null ? sql`true` : sql`day < ${to}::date`}`);
  }
  for (const edge of filter.edges) {
    parts.push(sql`
      select t.account_id, t.currency, 1::bigint as count, t.total_msat, t.total_minor, t.tip_minor,
        ${sql.raw(toDisburseColumns('t'))}, t.refunded_msat, t.refunded_minor,
        t.settled_at at time zone ${timeZone} as local_time
      from transactions t
      where t.organization_id = ${filter.organizationId} and ${accounts} and ${ledgerRange(edge)}`);
  }
  if (parts.length === 0) throw new Error('A sales filter needs days or edges');
  return sql.join(parts, sql` union all `);
}

export async function sumSales(
  db: ReadDb,
  filter: SalesFilter,
  timeZone: string,
  currency: string,
): Promise<SalesTotals> {
  const { rows } = await sql<SalesTotals>`
    select coalesce(sum(count), 0)::text as count,
      coalesce(sum(total_msat - refunded_msat), 0)::text as "receiveMsat",
      coalesce(sum(bitcoin_to_disburse_msat), 0)::text as "msatsToDisburse",
      coalesce(sum(total_minor - refunded_minor) filter (where currency = ${currency}), 0)::text
        as "receiveFiatMinor",
      coalesce(sum(fiat_to_disburse_minor) filter (where currency = ${currency}), 0)::text as "fiatToDisburseMinor"
    from (${salesSource(filter, timeZone)}) sales
  `.execute(db);
  const [totals] = rows;
  if (!totals) throw new Error('The sums query returned no row');
  return totals;
}

/** How many sales a filter covers; the table's total, without the sums it does not show. */
export async function countSales(db: ReadDb, filter: SalesFilter, timeZone: string): Promise<number> {
  const { rows } = await sql<{ count: string }>`
    select coalesce(sum(count), 0)::text as count from (${salesSource(filter, timeZone)}) sales
  `.execute(db);
  return Number(rows[0]?.count ?? 0);
}

export async function listSalesSeries(
  db: ReadDb,
  filter: SalesFilter,
  timeZone: string,
  currency: string,
  bucket: 'hour' | 'day' | 'month',
): Promise<SeriesRow[]> {
  // The unit is one of three words, inlined so that select, group by and order by are the
  // same expression to PostgreSQL (three bind parameters would be three different ones).
  const bucketStart = sql`date_trunc(${sql.lit(bucket)}, local_time)`;
  const { rows } = await sql<SeriesRow>`
    select extract(epoch from ${bucketStart} at time zone ${timeZone})::bigint::text as start,
      sum(count)::text as count,
      sum(total_msat - refunded_msat)::text as "salesMsat",
      coalesce(sum(total_minor - refunded_minor) filter (where currency = ${currency}), 0)::text as "salesMinor",
      coalesce(sum(tip_minor) filter (where currency = ${currency}), 0)::text as "tipsMinor"
    from (${salesSource(filter, timeZone)}) sales
    group by ${bucketStart}
    order by ${bucketStart}
  `.execute(db);
  return rows;
}

export async function listSalesByAccount(
  db: ReadDb,
  filter: SalesFilter,
  timeZone: string,
  currency: string,
): Promise<AccountTotalRow[]> {
  const { rows } = await sql<AccountTotalRow>`
    select sales.account_id as "accountId", accounts.name,
      sum(count)::text as count,
      sum(total_msat - refunded_msat)::text as "salesMsat",
      coalesce(sum(total_minor - refunded_minor) filter (where currency = ${currency}), 0)::text as "salesMinor"
    from (${salesSource(filter, timeZone)}) sales
    join accounts on accounts.id = sales.account_id
    group by sales.account_id, accounts.name
    order by sum(total_msat - refunded_msat) desc, accounts.name
  `.execute(db);
  return rows;
}

/** The ledger's rows of one organization: some accounts, a period, a source, a payment method. */
export type LedgerFilter = {
  organizationId: string;
  accountIds: string[] | null;
  from: Date | null;
  to: Date | null;
  source?: SaleSource;
  paidVia?: PaidVia;
};

/** An on-chain payment's sale is keyed `onchain:<txid>:<output>` where a Lightning one has its hash. */
const ONCHAIN_KEY_PATTERN = 'onchain:%';

function selectFilteredLedger(db: ReadDb, filter: LedgerFilter) {
  let query = selectLedger(db).where('transactions.organization_id', '=', filter.organizationId);
  const { accountIds } = filter;
  if (accountIds?.length === 1) query = query.where('transactions.account_id', '=', accountIds[0] as string);
  else if (accountIds) query = query.where(sql<boolean>`transactions.account_id = any(${accountIds}::uuid[])`);
  if (filter.from) query = query.where('transactions.settled_at', '>=', filter.from);
  if (filter.to) query = query.where('transactions.settled_at', '<', filter.to);
  if (filter.source) query = query.where('transactions.source', '=', filter.source);
  if (filter.paidVia) {
    query = query.where(
      'transactions.payment_hash',
      filter.paidVia === 'onchain' ? 'like' : 'not like',
      ONCHAIN_KEY_PATTERN,
    );
  }
  return query;
}

/**
 * How many sales a filter by source or payment method covers, counted in the ledger: the rollup
 * that `countSales` reads has neither.
 */
export async function countLedgerRows(db: ReadDb, filter: LedgerFilter): Promise<number> {
  const row = await selectFilteredLedger(db, filter)
    .clearSelect()
    .select(sql<string>`count(*)::text`.as('count'))
    .executeTakeFirstOrThrow();
  return Number(row.count);
}

export async function listTransactionsPage(
  db: ReadDb,
  filter: LedgerFilter,
  sort: { column: 'settled_at' | 'created_at'; order: 'asc' | 'desc' },
  limit: number,
  offset: number,
): Promise<LedgerRow[]> {
  return selectFilteredLedger(db, filter)
    .orderBy(`transactions.${sort.column}`, sort.order)
    .orderBy('transactions.id', sort.order)
    .limit(limit)
    .offset(offset)
    .execute();
}

/**
 * `COPY` takes no bind parameters, so every value is written as a literal: ids are checked
 * UUIDs, instants are integers, and the rest goes through pg's own literal escaping.
 */
export function ledgerCsvQuery(filter: LedgerFilter): string {
  const literal = pg.escapeLiteral;
  const instant = (date: Date) => `to_timestamp(${date.getTime() / 1000})`;
  const conditions = [`organization_id = ${literal(filter.organizationId)}`];
  if (filter.accountIds) {
    conditions.push(
      filter.accountIds.length === 1
        ? `account_id = ${literal(filter.accountIds[0] as string)}`
        : `account_id = any(array[${filter.accountIds.map(literal).join(', ') || 'null'}]::uuid[])`,
    );
  }
  if (filter.from) conditions.push(`settled_at >= ${instant(filter.from)}`);
  if (filter.to) conditions.push(`settled_at < ${instant(filter.to)}`);
  if (filter.source) conditions.push(`source = ${literal(filter.source)}`);
  if (filter.paidVia) {
    conditions.push(
      `payment_hash ${filter.paidVia === 'onchain' ? 'like' : 'not like'} ${literal(ONCHAIN_KEY_PATTERN)}`,
    );
  }
  return `copy (
    select ${LEDGER_CSV_COLUMNS.join(', ')} from ${LEDGER_SQL} transactions
    where ${conditions.join(' and ')}
    order by settled_at desc, id desc
  ) to stdout with (format csv)`;
}

/** Opens the transaction `ledgerCsvQuery` runs in, with the settings explained below. */
export const BEGIN_LEDGER_CSV =
  "begin; set local time zone 'UTC'; set local datestyle = 'ISO'; set local enable_sort = off";

/**
 * Streams the filtered ledger newest first, LEDGER_CSV_COLUMNS as PostgreSQL writes them, on a
 * client of its own that goes back to the pool when the stream ends and is discarded on an
 * error or an early close (a connection left mid-COPY cannot serve another query).
 *
 * The settings hold for this transaction only. Instants are written in UTC, which PostgreSQL
 * writes much faster than a named zone. The planner would rather sort a big merchant's rows
 * than walk them in index order; walking the index streams the first rows at once, and a
 * sort of a million rows would spill to disk before the download could start.
 */
export async function streamLedgerCsv(db: ReadDb, filter: LedgerFilter): Promise<Readable> {
  const client = await poolOf(db).connect();
  let released = false;
  const release = (error?: Error) => {
    if (released) return;
    released = true;
    client.release(error);
  };
  try {
    await client.query(BEGIN_LEDGER_CSV);
    const stream = client.query(copyTo(ledgerCsvQuery(filter)));
    stream.on('end', () => {
      client.query('commit').then(
        () => release(),
        (error: Error) => release(error),
      );
    });
    stream.on('error', (error) => release(error));
    stream.on('close', () => {
      if (!stream.readableEnded) release(new Error('CSV stream closed early'));
    });
    return stream;
  } catch (error) {
    release(error instanceof Error ? error : new Error(String(error)));
    throw error;
  }
}
