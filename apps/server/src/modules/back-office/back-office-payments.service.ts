import {
  ALL_COUNTRIES_ID,
  AppError,
  type CountryReport,
  type OrganizationTransaction,
  type OrganizationTransactionsQuery,
  PAY_TRANSACTIONS_LIMIT,
  type PayTransactionsRequest,
  type UnpaidTransaction,
} from '@rayo/shared';
import type { Db, ReadDb } from '../../db/database.ts';
import { buildCountryReport, countryReportCsv } from '../../domain/country-report.ts';
import type { RequestContext } from '../../http/request-context.ts';
import { audit } from '../audit/audit.service.ts';
import { findPayoutDestinationHolds } from '../settings/payout-destination-holds.service.ts';
import { listOrganizationLedgerPage, listUnpaidSalesOfOrganization } from '../transactions/transactions.service.ts';
import {
  findCountryCode,
  listOrganizationsWithoutBankAccount,
  listReportTotals,
  listUnpaidIdsByOrganization,
  lockTransactionsForPay,
  markTransactionsPaid,
  organizationExists,
} from './back-office-payments.repo.ts';

async function assertOrganization(db: Db, organizationId: string): Promise<void> {
  if (!(await organizationExists(db, organizationId))) throw new AppError('NotFound', 'Organization not found');
}

/** The organization's sales whose fiat part back office has not paid, the oldest PAY_TRANSACTIONS_LIMIT. */
export async function listOrganizationUnpaidTransactions(db: Db, organizationId: string): Promise<UnpaidTransaction[]> {
  await assertOrganization(db, organizationId);
  return listUnpaidSalesOfOrganization(db, organizationId, PAY_TRANSACTIONS_LIMIT);
}

/**
 * A page of the organization's whole ledger, oldest first, and how many sales it has in all; the
 * export back office takes page by page, so read from `readDb`.
 */
export async function listOrganizationTransactions(
  db: Db,
  readDb: ReadDb,
  organizationId: string,
  query: OrganizationTransactionsQuery,
): Promise<{ transactions: OrganizationTransaction[]; total: number }> {
  await assertOrganization(db, organizationId);
  return listOrganizationLedgerPage(readDb, organizationId, query.limit, (query.page - 1) * query.limit);
}

/**
 * SPEC §4 mark as paid: every named sale's fiat part becomes disbursed, or none does. An id that
 * is unknown, already paid or has no fiat part refuses the whole request, and so does a sale of
 * an organization without a bank account unless `withoutBankAccount` names it (back office
 * confirmed it paid some other way). Ids may belong to several organizations (a country report's
 * checked rows); each organization gets its audit entry.
 */
export async function payTransactions(ctx: RequestContext, db: Db, request: PayTransactionsRequest): Promise<number> {
  const ids = [...new Set(request.transactionsIds)];
  if (ids.length === 0) return 0;
  const confirmedWithoutBank = new Set(request.withoutBankAccount ?? []);
  return db.transaction().execute(async (trx) => {
    const rows = await lockTransactionsForPay(trx, ids);
    const payable = rows.filter((row) => !row.disbursed && BigInt(row.fiatMsat) > 0n);
    if (payable.length !== ids.length) {
      throw new AppError('TransactionNotFound', "Transaction doesn't exists");
    }
    // The fiat part goes to the bank account: not to one that changed and is held.
    const held = await findPayoutDestinationHolds(trx, 'bank', [...new Set(payable.map((row) => row.organizationId))]);
    const [hold] = held.values();
    if (hold) {
      throw new AppError(
        'PayoutDestinationHeld',
        `An organization's bank account changed on ${hold.changedAt} and is not verified: verify it before paying${hold.releaseAt ? `, or wait until ${hold.releaseAt}` : ''}`,
      );
    }
    const byOrganization = new Map<string, string[]>();
    for (const row of payable) {
      byOrganization.set(row.organizationId, [...(byOrganization.get(row.organizationId) ?? []), row.id]);
    }
    const withoutBank = await listOrganizationsWithoutBankAccount(trx, [...byOrganization.keys()]);
    const unconfirmed = withoutBank.filter((organization) => !confirmedWithoutBank.has(organization.id));
    if (unconfirmed.length > 0) {
      const names = unconfirmed.map((organization) => organization.name).join(', ');
      throw new AppError('BankAccountMissing', `No bank account to pay: ${names}; confirm it was paid another way`);
    }
    await markTransactionsPaid(trx, ids);
    const paidWithoutBank = new Set(withoutBank.map((organization) => organization.id));
    for (const [organizationId, paid] of byOrganization) {
      await audit(ctx, trx, 'back_office.transactions_paid', {
        organizationId,
        target: `organization:${organizationId}`,
        after: {
          count: paid.length,
          transactionIds: paid,
          ...(paidWithoutBank.has(organizationId) && { withoutBankAccount: true }),
        },
      });
    }
    return ids.length;
  });
}

/** What a country report covers: the country's code (lowercase), or 'all' for SPEC §3's -1. */
async function countryScope(db: Db, countryId: number): Promise<string> {
  if (countryId === ALL_COUNTRIES_ID) return 'all';
  const code = await findCountryCode(db, countryId);
  if (code === undefined) throw new AppError('NotFound', 'Country not found');
  return code.toLowerCase();
}

/** SPEC §3 country report; ALL_COUNTRIES_ID for every country. The CSV leaves the unpaid ids out, so it does not read them. */
async function buildReport(db: ReadDb, countryId: number, withIds: boolean): Promise<CountryReport> {
  const totals = await listReportTotals(db, countryId === ALL_COUNTRIES_ID ? null : countryId);
  const withPending = [...new Set(totals.filter((t) => t.pendingCount !== '0').map((t) => t.organizationId))];
  const unpaidIds = withIds
    ? await listUnpaidIdsByOrganization(db, withPending, PAY_TRANSACTIONS_LIMIT)
    : new Map<string, string[]>();
  return buildCountryReport(
    totals.map((line) => ({
      organizationId: line.organizationId,
      organizationName: line.organizationName,
      currency: line.currency,
      pendingCount: BigInt(line.pendingCount),
      paidCount: BigInt(line.paidCount),
      paidFiatMinor: BigInt(line.paidFiatMinor),
      paidMsat: BigInt(line.paidMsat),
      feeUsdMicros: BigInt(line.feeUsdMicros),
      hasBankAccount: line.hasBankAccount,
    })),
    unpaidIds,
  );
}

/**
 * SPEC §3 country report; ALL_COUNTRIES_ID (or no id) for every country. Read from the primary,
 * unlike its CSV: back office marks sales paid from this report and it is reloaded at once, when
 * a replica's lag would still show the sales just paid as unpaid.
 */
export async function getCountryReport(db: Db, countryId: number): Promise<CountryReport> {
  await countryScope(db, countryId);
  return buildReport(db, countryId, true);
}

/**
 * The report as CSV, named like the merchant's whole-history export (`transactions_all_<day>`):
 * what it covers, then the UTC day it was taken, as a report holds everything up to then.
 */
export async function exportCountryReportCsv(
  db: Db,
  readDb: ReadDb,
  countryId: number,
  now = new Date(),
): Promise<{ filename: string; csv: string }> {
  const scope = await countryScope(db, countryId);
  const csv = countryReportCsv(await buildReport(readDb, countryId, false));
  return { filename: `country_report_${scope}_${now.toISOString().slice(0, 10)}.csv`, csv };
}
