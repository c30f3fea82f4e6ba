import { AccountSummaryListSchema } from '../catalog.ts';
import {
  AccountListSchema,
  AccountSchema,
  CreateAccountRequestSchema,
  UpdateAccountRequestSchema,
} from '../payments.ts';
import { adminRoles, organizationRoles } from '../roles.ts';
import { defineCalls } from './call.ts';
import { IdParamsSchema } from './common.ts';

const tags = ['accounts'];

/** Accounts: what an organization's BPTs and sales are booked under; a manager sees those linked to them. */
export const accountCalls = defineCalls({
  'GET /api/account/all': {
    operationId: 'listAccountSummaries',
    tags,
    summary: "The accounts the caller sees, by id and name: the organization's, or a manager's linked ones",
    answer: AccountSummaryListSchema,
    who: organizationRoles,
    refusals: [],
  },
  'GET /api/accounts': {
    operationId: 'listAccounts',
    tags,
    summary: "The accounts the caller sees, with their internal codes: the organization's, or a manager's linked ones",
    answer: AccountListSchema,
    who: organizationRoles,
    refusals: [],
  },
  'POST /api/accounts': {
    operationId: 'createAccount',
    tags,
    summary: 'Creates an account in the organization',
    body: CreateAccountRequestSchema,
    answer: AccountSchema,
    statuses: [201],
    who: adminRoles,
    refusals: [],
  },
  'PATCH /api/accounts/:id': {
    operationId: 'updateAccount',
    tags,
    summary: 'Renames an account or changes its internal code',
    params: IdParamsSchema,
    body: UpdateAccountRequestSchema,
    answer: AccountSchema,
    who: adminRoles,
    scope: { param: 'id', within: 'organization' },
    refusals: [],
  },
  'DELETE /api/accounts/:id': {
    operationId: 'deleteAccount',
    tags,
    summary: 'Deletes an account that has no terminals and no sales',
    description:
      'An account with BPTs or sales keeps them and is refused with `AccountInUse`; it can still be renamed.',
    params: IdParamsSchema,
    who: adminRoles,
    scope: { param: 'id', within: 'organization' },
    refusals: ['AccountInUse'],
  },
});
