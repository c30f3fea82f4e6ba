import {
  LightningAddressRequestSchema,
  MFA_CODE_HEADER,
  OnchainAddressRequestSchema,
  PayoutAddressesSchema,
} from '@rayo/shared';
import { callerOf } from '../../http/access.ts';
import type { App } from '../../http/app-type.ts';
import { requireMfaCode } from '../../http/mfa-code.ts';
import type { RateLimitDeps } from '../../http/rate-limit.ts';
import type { MfaDeps } from '../mfa/mfa-codes.ts';
import {
  getPayoutAddresses,
  type PayoutAddressDeps,
  setLightningAddress,
  setOnchainAddress,
} from './payout-addresses.service.ts';

const tags = ['settings'];
const needsCode = `With MFA on, a code in the ${MFA_CODE_HEADER} header. Back office's verification of the address is withdrawn.`;

export function registerPayoutAddressRoutes(app: App, deps: PayoutAddressDeps & MfaDeps & RateLimitDeps): void {
  app.get(
    '/api/settings/payout-addresses',
    {
      schema: {
        tags,
        summary: "The organization's on-chain and Lightning payout addresses, the network and their verifications",
        response: { 200: PayoutAddressesSchema },
      },
    },
    async (request) => getPayoutAddresses(deps, callerOf(request)),
  );

  app.put(
    '/api/settings/onchain-address',
    {
      preHandler: requireMfaCode(deps),
      schema: {
        tags,
        summary: `Sets the Bitcoin on-chain payout address, which must be for the Lightning node's network. ${needsCode}`,
        body: OnchainAddressRequestSchema,
        response: { 200: PayoutAddressesSchema },
      },
    },
    async (request) => setOnchainAddress(callerOf(request), deps, request.body, request.log),
  );

  app.put(
    '/api/settings/lightning-address',
    {
      preHandler: requireMfaCode(deps),
      schema: {
        tags,
        summary: `Sets the disbursement Lightning address (name@domain), kept only once its domain answers a LUD-16 payRequest. ${needsCode}`,
        body: LightningAddressRequestSchema,
        response: { 200: PayoutAddressesSchema },
      },
    },
    async (request) => setLightningAddress(callerOf(request), deps, request.body, request.log),
  );
}
