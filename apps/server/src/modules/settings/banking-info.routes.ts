import { callerOf } from '../../http/access.ts';
import type { App } from '../../http/app-type.ts';
import { registerCall } from '../../http/contract.ts';
import { requireMfaCode } from '../../http/mfa-code.ts';
import type { RateLimitDeps } from '../../http/rate-limit.ts';
import type { MfaDeps } from '../mfa/mfa-codes.ts';
import {
  getBankingInfoTemplate,
  getCountryCurrencies,
  listBankingInfo,
  saveBankingInfo,
  updateBankingInfo,
} from './banking-info.service.ts';
import type { DestinationChangeDeps } from './payout-destination-changes.service.ts';

export function registerBankingInfoRoutes(app: App, deps: DestinationChangeDeps & MfaDeps & RateLimitDeps): void {
  registerCall(app, 'GET /api/settings/banking-info/all', async (request) =>
    listBankingInfo(deps.db, callerOf(request)),
  );

  registerCall(app, 'GET /api/settings/banking-info-template', async (request) =>
    getBankingInfoTemplate(deps.db, callerOf(request)),
  );

  registerCall(app, 'GET /api/settings/country-currencies', async (request) =>
    getCountryCurrencies(deps.db, callerOf(request)),
  );

  registerCall(
    app,
    'POST /api/settings/banking-info',
    async (request) => saveBankingInfo(callerOf(request), deps, request.body, request.log),
    { preHandler: [requireMfaCode(deps)] },
  );

  registerCall(
    app,
    'PUT /api/settings/banking-info/:bankingInfoId',
    async (request) =>
      updateBankingInfo(callerOf(request), deps, request.params.bankingInfoId, request.body, request.log),
    { preHandler: [requireMfaCode(deps)] },
  );
}
