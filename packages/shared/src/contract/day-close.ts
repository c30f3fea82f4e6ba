import { LanguageSchema } from '../auth.ts';
import {
  CloseScheduleInputSchema,
  CloseScheduleListSchema,
  CloseScheduleSchema,
  DayCloseQuerySchema,
  DayCloseSchema,
} from '../day-close.ts';
import { adminRoles, organizationRoles } from '../roles.ts';
import { defineCalls } from './call.ts';
import { IdParamsSchema } from './common.ts';

const tags = ['dashboard'];

// The PDF's language is the reader's, as the web app shows it.
const DayClosePdfQuerySchema = DayCloseQuerySchema.extend({ language: LanguageSchema.default('en') });

const dayClose = {
  who: organizationRoles,
  scope: { param: 'account', within: 'linked-accounts', outside: 403 },
} as const;

/**
 * The end-of-day close and its mailed schedules. The close filters by account as the dashboard
 * does: a manager asking for an account not linked to them is answered 403 (`scopeOf` in
 * dashboard.service.ts says why).
 */
export const dayCloseCalls = defineCalls({
  'GET /api/close': {
    operationId: 'getDayClose',
    tags,
    summary: 'The end-of-day close of a local day: totals by account, terminal, payment method and hour',
    description:
      "The day is local to the organization's time zone. `account` is `all` or one account; `bpt` narrows it to one terminal, whose account must be within `account`.",
    query: DayCloseQuerySchema,
    answer: DayCloseSchema,
    ...dayClose,
    refusals: [],
  },
  'GET /api/close/csv': {
    operationId: 'exportDayCloseCsv',
    tags,
    summary: 'The end-of-day close of a local day as CSV (RFC 4180, header row)',
    query: DayCloseQuerySchema,
    file: { mediaType: 'text/csv', disposition: 'attachment' },
    ...dayClose,
    refusals: [],
  },
  'GET /api/close/pdf': {
    operationId: 'exportDayClosePdf',
    tags,
    summary: 'The end-of-day close of a local day as an A4 PDF, in English or Spanish',
    query: DayClosePdfQuerySchema,
    file: { mediaType: 'application/pdf', disposition: 'attachment' },
    ...dayClose,
    refusals: [],
  },
  'GET /api/close/schedules': {
    operationId: 'listCloseSchedules',
    tags,
    summary: "The organization's mailed close schedules",
    answer: CloseScheduleListSchema,
    who: adminRoles,
    refusals: [],
  },
  'POST /api/close/schedules': {
    operationId: 'createCloseSchedule',
    tags,
    summary: 'Has the close mailed to the caller at closing time, daily, weekly or monthly',
    description: "Each period's report is mailed at `time`, local, on the period's last day.",
    body: CloseScheduleInputSchema,
    answer: CloseScheduleSchema,
    statuses: [201],
    who: adminRoles,
    scope: { param: 'account', within: 'organization', outside: 400 },
    refusals: [],
  },
  'DELETE /api/close/schedules/:id': {
    operationId: 'deleteCloseSchedule',
    tags,
    summary: 'Stops a mailed close',
    params: IdParamsSchema,
    who: adminRoles,
    scope: { param: 'id', within: 'organization' },
    refusals: [],
  },
});
