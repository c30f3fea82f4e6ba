import { PayoutSplitRequestSchema, PayoutSplitSettingsSchema } from '../payout-split.ts';
import { adminRoles, organizationRoles } from '../roles.ts';
import { defineCalls } from './call.ts';
import { mfaRefusals } from './common.ts';

const tags = ['settings'];

/** The payout split (SPEC §7): how each settled sale is paid out, on-chain, Lightning and fiat. */
export const payoutSplitCalls = defineCalls({
  'GET /api/settings/payout-split': {
    operationId: 'getPayoutSplit',
    tags,
    summary: "The organization's payout split, the conversion fee and which fields back office has verified",
    answer: PayoutSplitSettingsSchema,
    who: organizationRoles,
    refusals: [],
  },
  'PUT /api/settings/payout-split': {
    operationId: 'setPayoutSplit',
    tags,
    summary: 'Sets the payout split for the sales settled from now on',
    description:
      'Every destination the split sends a share to must be verified by back office first (`SplitNeedsValidation` otherwise). With MFA on, needs a code in the `mfa-code` header.',
    body: PayoutSplitRequestSchema,
    answer: PayoutSplitSettingsSchema,
    who: adminRoles,
    refusals: ['SplitNeedsValidation', ...mfaRefusals],
  },
});
