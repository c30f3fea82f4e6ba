import {
  LightningAddressRequestSchema,
  OnchainAddressRequestSchema,
  PayoutAddressesSchema,
} from '../payout-destinations.ts';
import { adminRoles, organizationRoles } from '../roles.ts';
import { defineCalls } from './call.ts';
import { mfaRefusals } from './common.ts';

const tags = ['settings'];
const change =
  "With MFA on, needs a code in the `mfa-code` header. Back office's verification of the address is withdrawn, and every admin is mailed a link that cancels the change; payouts to the new address wait for its cool-down.";

/** Where the on-chain and Lightning shares of the payout split go (SPEC §7). */
export const payoutAddressCalls = defineCalls({
  'GET /api/settings/payout-addresses': {
    operationId: 'getPayoutAddresses',
    tags,
    summary: "The organization's on-chain and Lightning payout addresses, the network and their verifications",
    answer: PayoutAddressesSchema,
    who: organizationRoles,
    refusals: [],
  },
  'PUT /api/settings/onchain-address': {
    operationId: 'setOnchainAddress',
    tags,
    summary: "Sets the Bitcoin on-chain payout address, which must be for the Lightning node's network",
    description: `An address of another network is refused. ${change}`,
    body: OnchainAddressRequestSchema,
    answer: PayoutAddressesSchema,
    who: adminRoles,
    refusals: ['InvalidOnchainAddress', 'OnchainAddressWrongNetwork', ...mfaRefusals],
  },
  'PUT /api/settings/lightning-address': {
    operationId: 'setLightningAddress',
    tags,
    summary: 'Sets the disbursement Lightning address (name@domain)',
    description: `The address is kept only once its domain answers a LUD-16 payRequest for it. Open payouts to the old address that no payment can still complete are cancelled. ${change}`,
    body: LightningAddressRequestSchema,
    answer: PayoutAddressesSchema,
    who: adminRoles,
    refusals: ['InvalidLightningAddress', 'LightningAddressUnreachable', 'LightningAddressNotPayable', ...mfaRefusals],
  },
});
