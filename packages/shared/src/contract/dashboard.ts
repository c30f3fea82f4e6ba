import { z } from 'zod';
import {
  AccountFilterSchema,
  LedgerQuerySchema,
  PeriodQuerySchema,
  SeriesQuerySchema,
  TransactionPageQuerySchema,
  TransactionPageSchema,
  TransactionSeriesSchema,
  TransactionSumsSchema,
} from '../dashboard.ts';
import { organizationRoles } from '../roles.ts';
import { defineCalls } from './call.ts';

const tags = ['dashboard'];

/**
 * The organization's members read the ledger of the accounts they may see: a manager those
 * linked to them. An account filter outside them answers 403, not 404 (`scopeOf` in the
 * server's dashboard.service.ts says why).
 */
const dashboard = {
  who: organizationRoles,
  scope: { param: 'account', within: 'linked-accounts', outside: 403 },
} as const;

// SPEC §7: `/sum/all` is the path form of `account=all`, every account the caller may see.
const AccountParamsSchema = z.object({ account: AccountFilterSchema.unwrap() });

/** Home's figures (SPEC §3) and the ledger's CSV. */
export const dashboardCalls = defineCalls({
  'GET /api/dashboard/transactions': {
    operationId: 'listTransactions',
    tags,
    summary: 'A page of the ledger, newest first, with the total for the filter',
    description:
      'Filtered by a period (`start` inclusive, `end` exclusive, unix seconds), an account or `all`, and where sales came from and how they were paid; sorted by settlement or creation time.',
    query: TransactionPageQuerySchema,
    answer: TransactionPageSchema,
    ...dashboard,
    refusals: ['NotFound'],
  },
  'GET /api/dashboard/transactions/sum': {
    operationId: 'sumTransactions',
    tags,
    summary: 'SPEC §3 transaction metrics of a period',
    description:
      'What was charged and what is left to disburse, in msat and in the organization’s currency, for a period and an account or `all`.',
    query: PeriodQuerySchema,
    answer: TransactionSumsSchema,
    ...dashboard,
    refusals: ['NotFound'],
  },
  'GET /api/dashboard/transactions/sum/:account': {
    operationId: 'sumAccountTransactions',
    tags,
    summary: 'SPEC §3 transaction metrics of a period for one account, or `all`',
    params: AccountParamsSchema,
    query: PeriodQuerySchema.omit({ account: true }),
    answer: TransactionSumsSchema,
    ...dashboard,
    refusals: ['NotFound'],
  },
  'GET /api/dashboard/transactions/series': {
    operationId: 'chartTransactions',
    tags,
    summary: 'Sales per hour, day or month in the organization time zone, and per account',
    query: SeriesQuerySchema,
    answer: TransactionSeriesSchema,
    ...dashboard,
    refusals: ['NotFound'],
  },
  'GET /api/dashboard/transactions/csv': {
    operationId: 'exportTransactionsCsv',
    tags,
    summary: 'The whole filtered ledger as CSV (RFC 4180, header row), streamed',
    query: LedgerQuerySchema,
    file: { mediaType: 'text/csv', disposition: 'attachment' },
    ...dashboard,
    refusals: ['NotFound'],
  },
});
