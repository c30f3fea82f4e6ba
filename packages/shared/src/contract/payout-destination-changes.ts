import { CancelDestinationChangeRequestSchema, CancelledDestinationChangeSchema } from '../payouts.ts';
import { adminRoles } from '../roles.ts';
import { defineCalls } from './call.ts';
import { IdParamsSchema, mfaRefusals } from './common.ts';

const tags = ['settings'];

/** Cancelling a change of payout destination: from the link mailed to every admin, or in Settings. */
export const payoutDestinationChangeCalls = defineCalls({
  'POST /api/public/payout-destination-changes/cancel': {
    operationId: 'cancelPayoutDestinationChangeByLink',
    tags,
    summary:
      'Cancels a change of payout destination with the link mailed to every admin: the previous destination comes back',
    description:
      "The link's secret is the credential: no sign-in. Refused once payouts to the new destination have started, or when the change was cancelled already.",
    body: CancelDestinationChangeRequestSchema,
    answer: CancelledDestinationChangeSchema,
    // The link mailed to every admin about a change of payout destination: its secret is the credential.
    who: 'public',
    refusals: ['InvalidCode', 'DestinationChangeNotCancellable', 'TooManyRequests'],
  },
  'POST /api/settings/payout-destination-changes/:id/cancel': {
    operationId: 'cancelPayoutDestinationChange',
    tags,
    summary: 'Cancels a change of payout destination that payouts wait on: the previous destination comes back',
    description: 'With MFA on, needs a code in the `mfa-code` header.',
    params: IdParamsSchema,
    answer: CancelledDestinationChangeSchema,
    who: adminRoles,
    scope: { param: 'id', within: 'organization' },
    refusals: ['DestinationChangeNotCancellable', ...mfaRefusals],
  },
});
