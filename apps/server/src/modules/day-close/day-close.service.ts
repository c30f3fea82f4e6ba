import {
  AppError,
  type CloseFigures,
  CSV_LINE_END,
  type CurrentOrganization,
  closeHourLabel,
  csvLine,
  csvTextField,
  type DayClose,
  type DayCloseQuery,
  formatMinor,
  type Language,
} from '@rayo/shared';
import type { Db, ReadDb } from '../../db/database.ts';
import { type CloseTotals, repeatedHoursOf, summarizeClose } from '../../domain/day-close.ts';
import type { AccessClaims } from '../auth/tokens.ts';
import { findOrganizationBpt } from '../bpts/bpts.service.ts';
import { getCurrentOrganization, scopeOf } from '../dashboard/dashboard.service.ts';
import { closePdf } from './close-pdf.ts';
import { listCloseGroups } from './day-close.repo.ts';

/** What a close covers: local days of one organization, its accounts (`null`: all) and maybe one terminal. */
export type CloseScope = {
  organization: CurrentOrganization;
  accountIds: string[] | null;
  bptId: string | null;
  fromDay: string;
  toDay: string;
};

function msatNumber(value: bigint): number {
  if (value > BigInt(Number.MAX_SAFE_INTEGER)) throw new AppError('Default', 'An msat sum exceeds what JSON carries');
  return Number(value);
}

function figuresOf(totals: CloseTotals, currency: string): CloseFigures {
  return {
    count: Number(totals.count),
    gross: formatMinor(totals.grossMinor, currency),
    tips: formatMinor(totals.tipsMinor, currency),
    tax: formatMinor(totals.taxMinor, currency),
    refunds: formatMinor(totals.refundsMinor, currency),
    grossMsat: msatNumber(totals.grossMsat),
    feesMsat: msatNumber(totals.feesMsat),
    refundsMsat: msatNumber(totals.refundsMsat),
    netMsat: msatNumber(totals.netMsat),
  };
}

/** The close of a scope, whoever asks: the scheduled mail reads it too. */
export async function readClose(db: ReadDb, scope: CloseScope): Promise<DayClose> {
  const { timeZone, currency } = scope.organization;
  const groups = await listCloseGroups(db, {
    organizationId: scope.organization.id,
    timeZone,
    currency,
    accountIds: scope.accountIds,
    bptId: scope.bptId,
    fromDay: scope.fromDay,
    toDay: scope.toDay,
  });
  const close = summarizeClose(groups);
  const repeated = repeatedHoursOf(scope.fromDay, scope.toDay, timeZone);
  const figures = (totals: CloseTotals) => figuresOf(totals, currency);
  return {
    from: scope.fromDay,
    to: scope.toDay,
    timeZone,
    currency,
    totals: figures(close.totals),
    byAccount: close.byAccount.map((account) => ({
      accountId: account.accountId,
      name: account.name,
      figures: figures(account.totals),
      byBpt: account.byBpt.map((bpt) => ({ bptId: bpt.bptId, name: bpt.name, figures: figures(bpt.totals) })),
    })),
    byMethod: { lightning: figures(close.byMethod.lightning), onchain: figures(close.byMethod.onchain) },
    byHour: close.byHour.map((hour) => ({
      hour: hour.hour,
      fold: hour.fold,
      repeated: repeated.has(hour.hour),
      figures: figures(hour.totals),
    })),
  };
}

/**
 * The caller's scope of a day's close. A terminal must be on an account the caller may see
 * (for a manager, one linked to them) and within the account asked for; otherwise Forbidden,
 * as the dashboard's account filter answers.
 */
async function closeScopeOf(db: Db, caller: AccessClaims, query: DayCloseQuery): Promise<CloseScope> {
  const scope = await scopeOf(db, caller, query.account);
  let bptId: string | null = null;
  if (query.bpt !== undefined) {
    const bpt = await findOrganizationBpt(db, scope.organization.id, query.bpt);
    if (!bpt || (scope.accountIds !== null && !scope.accountIds.includes(bpt.account_id))) {
      throw new AppError('Forbidden', 'You may not see this terminal');
    }
    bptId = bpt.id;
  }
  return { ...scope, bptId, fromDay: query.day, toDay: query.day };
}

/** Who may see what is read from the primary, the sales from `readDb` (the replica when there is one). */
export async function getDayClose(
  db: Db,
  readDb: ReadDb,
  caller: AccessClaims,
  query: DayCloseQuery,
): Promise<DayClose> {
  return readClose(readDb, await closeScopeOf(db, caller, query));
}

/** The CSV's header is English; so are the words that tell the two runs of a repeated hour apart. */
const CSV_HOUR_RUNS = { first: '1st', second: '2nd' };

export const CLOSE_CSV_HEADER = [
  'Section',
  'Account',
  'Terminal',
  'Method',
  'Hour',
  'Currency',
  'Sales',
  'Gross',
  'Tips',
  'Tax',
  'Refunds',
  'Gross (msat)',
  'Fees (msat)',
  'Refunds (msat)',
  'Net (msat)',
] as const;

/**
 * The close as RFC 4180 CSV, through the shared CSV writer: a line for the whole, each account,
 * each of its terminals, each payment method and each local hour with sales.
 */
export function closeCsv(close: DayClose): string {
  // Account and terminal names are typed by people: csvTextField keeps them from running as formulas.
  const line = (section: string, names: [string, string, string, string], figures: CloseFigures) =>
    [
      section,
      ...names.map(csvTextField),
      close.currency,
      String(figures.count),
      figures.gross,
      figures.tips,
      figures.tax,
      figures.refunds,
      String(figures.grossMsat),
      String(figures.feesMsat),
      String(figures.refundsMsat),
      String(figures.netMsat),
    ].join(',') + CSV_LINE_END;
  const lines = [csvLine(CLOSE_CSV_HEADER), line('total', ['', '', '', ''], close.totals)];
  for (const account of close.byAccount) {
    lines.push(line('account', [account.name, '', '', ''], account.figures));
    for (const bpt of account.byBpt) lines.push(line('terminal', [account.name, bpt.name, '', ''], bpt.figures));
  }
  for (const method of ['lightning', 'onchain'] as const) {
    lines.push(line('method', ['', '', method, ''], close.byMethod[method]));
  }
  for (const hour of close.byHour) {
    lines.push(line('hour', ['', '', '', closeHourLabel(hour, CSV_HOUR_RUNS)], hour.figures));
  }
  return lines.join('');
}

/** `close_<day>.csv`, or `close_<first>_<last>.pdf` for a period of several days. */
export function closeFileName(close: Pick<DayClose, 'from' | 'to'>, extension: 'csv' | 'pdf'): string {
  return close.from === close.to ? `close_${close.from}.${extension}` : `close_${close.from}_${close.to}.${extension}`;
}

export async function exportDayCloseCsv(
  db: Db,
  readDb: ReadDb,
  caller: AccessClaims,
  query: DayCloseQuery,
): Promise<{ filename: string; text: string }> {
  const close = await getDayClose(db, readDb, caller, query);
  return { filename: closeFileName(close, 'csv'), text: closeCsv(close) };
}

export async function exportDayClosePdf(
  db: Db,
  readDb: ReadDb,
  caller: AccessClaims,
  query: DayCloseQuery,
  language: Language,
): Promise<{ filename: string; bytes: Buffer }> {
  const organization = await getCurrentOrganization(db, caller);
  const close = await getDayClose(db, readDb, caller, query);
  return { filename: closeFileName(close, 'pdf'), bytes: await closePdf(organization.name, close, language) };
}
