import { pipeline, type Readable } from 'node:stream';
import {
  AppError,
  type CurrentOrganization,
  dayAt,
  formatMinor,
  type LedgerQuery,
  type PeriodQuery,
  type SeriesQuery,
  type TransactionPage,
  type TransactionPageQuery,
  type TransactionSeries,
  type TransactionSort,
  type TransactionSums,
  transactionsCsvHeader,
} from '@rayo/shared';
import type { Db, ReadDb } from '../../db/database.ts';
import { createLedgerCsvFormatter } from '../../domain/transactions-csv.ts';
import { findOrganizationAccount, listOrganizationAccounts, organizationOf } from '../accounts/accounts.service.ts';
import type { AccessClaims } from '../auth/tokens.ts';
import { findCurrentOrganization } from '../organizations/organizations.service.ts';
import { sumRefundsNotDisbursed } from '../refunds/refund-charges.service.ts';
import { toTransaction } from '../transactions/transactions.service.ts';
import {
  countLedgerRows,
  countSales,
  findLocalDayBounds,
  listSalesByAccount,
  listSalesSeries,
  listTransactionsPage,
  type SalesFilter,
  streamLedgerCsv,
  sumSales,
} from './dashboard.repo.ts';
import { mapLines } from './map-lines.ts';

/**
 * The caller's organization and the accounts a call covers (`null`: all of the organization's).
 * Read from the primary, as who may see what must not lag; the sales themselves are read from
 * `readDb`, the replica when there is one.
 */
export type Scope = { organization: CurrentOrganization; accountIds: string[] | null };
type Period = { from: Date | null; to: Date | null };

export async function getCurrentOrganization(db: Db, caller: AccessClaims): Promise<CurrentOrganization> {
  const organization = await findCurrentOrganization(db, organizationOf(caller));
  if (!organization) throw new AppError('NotFound', 'Organization not found');
  return organization;
}

/**
 * Managers see the accounts linked to them. Asking for an account outside what the caller may
 * see (not linked, another organization's, unknown) is Forbidden rather than an empty answer,
 * so a wrong filter is visible and other organizations' ids cannot be probed either way.
 */
export async function scopeOf(db: Db, caller: AccessClaims, account: PeriodQuery['account']): Promise<Scope> {
  const organization = await getCurrentOrganization(db, caller);
  const linked =
    caller.role === 'manager'
      ? (await listOrganizationAccounts(db, organization.id, caller.userId)).map((linkedAccount) => linkedAccount.id)
      : null;
  if (account === undefined || account === 'all') return { organization, accountIds: linked };
  const visible = linked
    ? linked.includes(account)
    : (await findOrganizationAccount(db, organization.id, account)) !== undefined;
  if (!visible) throw new AppError('Forbidden', 'You may not see this account');
  return { organization, accountIds: [account] };
}

function periodOf(query: PeriodQuery): Period {
  if (query.start !== undefined && query.end !== undefined && query.end < query.start) {
    throw new AppError('InvalidInput', 'end must not be before start');
  }
  return {
    from: query.start === undefined ? null : new Date(query.start * 1000),
    to: query.end === undefined ? null : new Date(query.end * 1000),
  };
}

/**
 * Splits a period into whole local days, read from the daily rollup, and the partial days at
 * its edges, read from the ledger. Presets start and end on local midnights, so they read the
 * rollup only; a period inside one or two days reads the ledger only, which is a few rows.
 */
async function salesFilterOf(readDb: ReadDb, scope: Scope, period: Period): Promise<SalesFilter> {
  const base = { organizationId: scope.organization.id, accountIds: scope.accountIds };
  if (period.from === null && period.to === null) return { ...base, days: { from: null, to: null }, edges: [] };
  const bounds = await findLocalDayBounds(readDb, scope.organization.timeZone, period.from, period.to);
  if (bounds.firstDay !== null && bounds.endDay !== null && bounds.firstDay >= bounds.endDay) {
    return { ...base, days: null, edges: [period] };
  }
  const edges: SalesFilter['edges'] = [];
  if (period.from && bounds.firstDayAt && period.from < bounds.firstDayAt) {
    edges.push({ from: period.from, to: bounds.firstDayAt });
  }
  if (period.to && bounds.endDayAt && bounds.endDayAt < period.to) edges.push({ from: bounds.endDayAt, to: period.to });
  return { ...base, days: { from: bounds.firstDay, to: bounds.endDay }, edges };
}

function msatNumber(value: string): number {
  const msat = BigInt(value);
  if (msat > BigInt(Number.MAX_SAFE_INTEGER)) throw new AppError('Default', 'An msat sum exceeds what JSON carries');
  return Number(msat);
}

/** The ledger column of each sort the API allows. */
const SORT_COLUMNS = { settledAt: 'settled_at', createdAt: 'created_at' } as const satisfies Record<
  TransactionSort,
  string
>;

export async function listTransactions(
  db: Db,
  readDb: ReadDb,
  caller: AccessClaims,
  query: TransactionPageQuery,
): Promise<TransactionPage> {
  const period = periodOf(query);
  const scope = await scopeOf(db, caller, query.account);
  const filter = {
    organizationId: scope.organization.id,
    accountIds: scope.accountIds,
    ...period,
    source: query.source,
    paidVia: query.paidVia,
  };
  // The total comes from the rollup plus the edge days, not a COUNT(*) over the whole period;
  // the rollup has no source or payment method, so a filter by either counts in the ledger.
  const bySource = query.source !== undefined || query.paidVia !== undefined;
  const [rows, total] = await Promise.all([
    listTransactionsPage(
      readDb,
      filter,
      { column: SORT_COLUMNS[query.sort], order: query.order },
      query.limit,
      (query.page - 1) * query.limit,
    ),
    bySource
      ? countLedgerRows(readDb, filter)
      : salesFilterOf(readDb, scope, period).then((sales) => countSales(readDb, sales, scope.organization.timeZone)),
  ]);
  return { transactions: rows.map(toTransaction), total };
}

export async function sumTransactions(
  db: Db,
  readDb: ReadDb,
  caller: AccessClaims,
  query: PeriodQuery,
): Promise<TransactionSums> {
  const period = periodOf(query);
  const scope = await scopeOf(db, caller, query.account);
  const { timeZone, currency } = scope.organization;
  const totals = await sumSales(readDb, await salesFilterOf(readDb, scope, period), timeZone, currency);
  const refunded = await sumRefundsNotDisbursed(readDb, {
    organizationId: scope.organization.id,
    accountIds: scope.accountIds,
    ...period,
    currency,
  });
  // Refunds owed beyond the period's shares leave nothing to disburse, not a negative figure.
  const toDisburse = BigInt(totals.msatsToDisburse) - refunded.msat;
  const fiatToDisburse = BigInt(totals.fiatToDisburseMinor) - refunded.fiatMinor;
  return {
    msatsToDisburse: msatNumber((toDisburse > 0n ? toDisburse : 0n).toString()),
    receiveMsat: msatNumber(totals.receiveMsat),
    fiatToDisburse: formatMinor(fiatToDisburse > 0n ? fiatToDisburse : 0n, currency),
    receiveFiat: formatMinor(BigInt(totals.receiveFiatMinor), currency),
    currency,
  };
}

export async function chartTransactions(
  db: Db,
  readDb: ReadDb,
  caller: AccessClaims,
  query: SeriesQuery,
): Promise<TransactionSeries> {
  const period = periodOf(query);
  const scope = await scopeOf(db, caller, query.account);
  const { timeZone, currency } = scope.organization;
  const byDay = await salesFilterOf(readDb, scope, period);
  // The rollup has no hours: hourly charts read the ledger, which suits their short periods.
  const sales: SalesFilter = query.bucket === 'hour' ? { ...byDay, days: null, edges: [period] } : byDay;
  const [points, byAccount] = await Promise.all([
    listSalesSeries(readDb, sales, timeZone, currency, query.bucket),
    listSalesByAccount(readDb, byDay, timeZone, currency),
  ]);
  const money = (minor: string) => formatMinor(BigInt(minor), currency);
  return {
    bucket: query.bucket,
    timeZone,
    currency,
    points: points.map((point) => ({
      start: Number(point.start),
      count: Number(point.count),
      salesMsat: msatNumber(point.salesMsat),
      salesFiat: money(point.salesMinor),
      tipsFiat: money(point.tipsMinor),
    })),
    byAccount: byAccount.map((row) => ({
      accountId: row.accountId,
      name: row.name,
      count: Number(row.count),
      salesMsat: msatNumber(row.salesMsat),
      salesFiat: money(row.salesMinor),
    })),
  };
}

export type TransactionsCsv = { filename: string; stream: Readable };

export async function exportTransactionsCsv(
  db: Db,
  readDb: ReadDb,
  caller: AccessClaims,
  query: LedgerQuery,
  now = new Date(),
): Promise<TransactionsCsv> {
  const period = periodOf(query);
  const scope = await scopeOf(db, caller, query.account);
  const { id, timeZone } = scope.organization;
  const accountNames = new Map((await listOrganizationAccounts(db, id)).map((account) => [account.id, account.name]));
  // The file is named after the local days it covers (`end` is exclusive, so its last second);
  // the whole history, after the day it was taken.
  const last = dayAt(period.to ? period.to.getTime() - 1000 : now.getTime(), timeZone);
  const days = period.from ? `${dayAt(period.from.getTime(), timeZone)}_${last}` : `all_${last}`;
  const ledger = await streamLedgerCsv(readDb, {
    organizationId: id,
    accountIds: scope.accountIds,
    ...period,
    source: query.source,
    paidVia: query.paidVia,
  });
  // PostgreSQL streams the bare ledger columns and this process formats them, so the two
  // share the work on two cores instead of PostgreSQL doing both on one.
  const csv = mapLines(createLedgerCsvFormatter(accountNames, timeZone));
  csv.push(transactionsCsvHeader(timeZone));
  // A failure on either side destroys both with the error, which ends the reply; nothing is
  // left for the callback to do.
  pipeline(ledger, csv, () => {});
  return { filename: `transactions_${days}.csv`, stream: csv };
}
