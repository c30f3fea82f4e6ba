import {
  BankingInfoIdParamsSchema,
  BankingInfoListSchema,
  BankingInfoRequestSchema,
  BankingInfoSchema,
  BankingInfoTemplateSchema,
  CurrencyListSchema,
  MFA_CODE_HEADER,
} from '@rayo/shared';
import { callerOf } from '../../http/access.ts';
import type { App } from '../../http/app-type.ts';
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

const tags = ['settings'];
const needsCode = `With MFA on, a code in the ${MFA_CODE_HEADER} header. Back office's verification of the bank is withdrawn.`;

export function registerBankingInfoRoutes(app: App, deps: DestinationChangeDeps & MfaDeps & RateLimitDeps): void {
  app.get(
    '/api/settings/banking-info/all',
    {
      schema: {
        tags,
        summary: "The organization's bank accounts; the first is the one paid to",
        response: { 200: BankingInfoListSchema },
      },
    },
    async (request) => listBankingInfo(deps.db, callerOf(request)),
  );

  app.get(
    '/api/settings/banking-info-template',
    {
      schema: {
        tags,
        summary: "The fields of a bank account in the organization's country, how each is written and checked",
        response: { 200: BankingInfoTemplateSchema },
      },
    },
    async (request) => getBankingInfoTemplate(deps.db, callerOf(request)),
  );

  app.get(
    '/api/settings/country-currencies',
    {
      schema: {
        tags,
        summary: "The currencies of the organization's country, then bitcoin (isFiat false)",
        response: { 200: CurrencyListSchema },
      },
    },
    async (request) => getCountryCurrencies(deps.db, callerOf(request)),
  );

  app.post(
    '/api/settings/banking-info',
    {
      preHandler: requireMfaCode(deps),
      schema: {
        tags,
        summary: `Adds the organization's bank account (BankingInfoExists when it has one). ${needsCode}`,
        body: BankingInfoRequestSchema,
        response: { 201: BankingInfoSchema },
      },
    },
    async (request, reply) => {
      const saved = await saveBankingInfo(callerOf(request), deps, request.body, request.log);
      return reply.status(201).send(saved);
    },
  );

  app.put(
    '/api/settings/banking-info/:bankingInfoId',
    {
      preHandler: requireMfaCode(deps),
      schema: {
        tags,
        summary: `Changes the organization's bank account. ${needsCode}`,
        params: BankingInfoIdParamsSchema,
        body: BankingInfoRequestSchema,
        response: { 200: BankingInfoSchema },
      },
    },
    async (request) =>
      updateBankingInfo(callerOf(request), deps, request.params.bankingInfoId, request.body, request.log),
  );
}
