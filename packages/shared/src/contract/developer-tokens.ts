import {
  CreateDeveloperTokenRequestSchema,
  CreatedDeveloperTokenSchema,
  DeveloperTokenListSchema,
} from '../developer-tokens.ts';
import { adminRoles } from '../roles.ts';
import { defineCalls, person } from './call.ts';
import { IdParamsSchema, mfaRefusals } from './common.ts';

const tags = ['developer-tokens'];

/**
 * Developer tokens act as an admin for years, so managers neither see nor make them, and no
 * token makes or revokes one: a token could otherwise outlive its own revocation.
 */
export const developerTokenCalls = defineCalls({
  'GET /api/settings/developer-tokens': {
    operationId: 'listDeveloperTokens',
    tags,
    summary: "The organization's developer tokens that still work, without the tokens themselves",
    answer: DeveloperTokenListSchema,
    who: adminRoles,
    refusals: [],
  },
  'POST /api/settings/developer-tokens': {
    operationId: 'createDeveloperToken',
    tags,
    summary: 'Creates a developer token, answered this once',
    description:
      'With MFA on, needs a code in the `mfa-code` header. Exchange the token for access tokens at `POST /api/auth/refresh-access-token`; it does not rotate, and works until it expires or is revoked.',
    body: CreateDeveloperTokenRequestSchema,
    answer: CreatedDeveloperTokenSchema,
    statuses: [201],
    who: adminRoles,
    developerScopes: person,
    refusals: ['DeveloperTokenLimit', ...mfaRefusals],
  },
  'DELETE /api/settings/developer-tokens/:id': {
    operationId: 'revokeDeveloperToken',
    tags,
    summary: 'Revokes a developer token: its next exchange is refused',
    description: 'Access tokens it already earned stay valid until they expire (15 minutes).',
    params: IdParamsSchema,
    who: adminRoles,
    scope: { param: 'id', within: 'organization' },
    developerScopes: person,
    refusals: [],
  },
});
