import {
  CreateManagerRequestSchema,
  ManagerListSchema,
  ManagerSchema,
  UpdateManagerRequestSchema,
} from '../managers.ts';
import { adminRoles } from '../roles.ts';
import { defineCalls, person } from './call.ts';
import { IdParamsSchema, mfaRefusals } from './common.ts';

const tags = ['managers'];

/**
 * Managers (SPEC §6): people who read the organization's figures for the accounts linked to
 * them. A manager's password opens the organization to whoever chose it, and outlives any
 * token, so creating one or setting a password is for people only, with the MFA code.
 */
export const managerCalls = defineCalls({
  'GET /api/managers': {
    operationId: 'listManagers',
    tags,
    summary: "The organization's managers with their linked accounts",
    answer: ManagerListSchema,
    who: adminRoles,
    refusals: [],
  },
  'POST /api/managers': {
    operationId: 'createManager',
    tags,
    summary: 'Creates a manager with the password the admin chooses',
    description:
      "Every account must be the organization's (else `InvalidInput`); an email already taken is refused with `UserAlreadyExist`. With MFA on, needs a code in the `mfa-code` header; each admin may set a limited number of manager passwords an hour.",
    body: CreateManagerRequestSchema,
    answer: ManagerSchema,
    statuses: [201],
    who: adminRoles,
    scope: { param: 'accountIds', within: 'organization', outside: 400 },
    developerScopes: person,
    refusals: [...mfaRefusals, 'UserAlreadyExist'],
  },
  'PATCH /api/managers/:id': {
    operationId: 'updateManager',
    tags,
    summary: "Changes a manager's name, language, linked accounts or password",
    description:
      'Setting the password needs, with MFA on, a code in the `mfa-code` header, counts against the hourly budget of manager passwords, and ends the sessions signed in with the old one.',
    params: IdParamsSchema,
    body: UpdateManagerRequestSchema,
    answer: ManagerSchema,
    who: adminRoles,
    scope: { param: 'id', within: 'organization' },
    developerScopes: person,
    refusals: mfaRefusals,
  },
  'DELETE /api/managers/:id': {
    operationId: 'deleteManager',
    tags,
    summary: 'Deletes a manager; their open sessions end at once',
    params: IdParamsSchema,
    who: adminRoles,
    scope: { param: 'id', within: 'organization' },
    refusals: [],
  },
});
