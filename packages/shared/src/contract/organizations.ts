import { CurrentOrganizationSchema } from '../dashboard.ts';
import { OnboardRequestSchema, OnboardResponseSchema } from '../onboarding.ts';
import { organizationRoles } from '../roles.ts';
import { defineCalls } from './call.ts';

const tags = ['organizations'];

/** The caller's organization: onboarding creates it, the dashboard reads it. */
export const organizationCalls = defineCalls({
  'POST /api/onboard': {
    operationId: 'onboardOrganization',
    tags,
    summary: "Creates the signed-up admin's organization; answers a new access token that names it",
    description:
      'Only an admin who signed up and has no organization yet may call it; anyone else is refused with `AlreadyOnboarded`. The currency must be one with an exchange rate.',
    body: OnboardRequestSchema,
    answer: OnboardResponseSchema,
    statuses: [201],
    who: ['admin'],
    scope: { within: 'no-organization', outside: 409 },
    refusals: ['InvalidCurrency'],
  },
  'GET /api/organization/current': {
    operationId: 'getCurrentOrganization',
    tags,
    summary: "The caller's organization: its time zone and currency drive the dashboard's periods and money",
    answer: CurrentOrganizationSchema,
    who: organizationRoles,
    refusals: ['NotFound'],
  },
});
