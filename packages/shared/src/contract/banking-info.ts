import { CurrencyListSchema } from '../payments.ts';
import {
  BankingInfoIdParamsSchema,
  BankingInfoListSchema,
  BankingInfoRequestSchema,
  BankingInfoSchema,
  BankingInfoTemplateSchema,
} from '../payout-destinations.ts';
import { adminRoles, organizationRoles } from '../roles.ts';
import { defineCalls } from './call.ts';
import { mfaRefusals } from './common.ts';

const tags = ['settings'];
const change =
  "With MFA on, needs a code in the `mfa-code` header. Each field is checked against the country's template. Back office's verification of the bank is withdrawn, and every admin is mailed a link that cancels the change.";
const fieldRefusals = [
  'InvalidBankingField',
  'MissingBankingField',
  'InvalidAccountNumber',
  'InvalidRoutingNumber',
] as const;

/** The organization's bank account, paid the fiat share of the payout split (SPEC §7). */
export const bankingInfoCalls = defineCalls({
  'GET /api/settings/banking-info/all': {
    operationId: 'listBankingInfo',
    tags,
    summary: "The organization's bank accounts; the first is the one paid to",
    answer: BankingInfoListSchema,
    who: organizationRoles,
    refusals: [],
  },
  'GET /api/settings/banking-info-template': {
    operationId: 'getBankingInfoTemplate',
    tags,
    summary: "The fields of a bank account in the organization's country, how each is written and checked",
    answer: BankingInfoTemplateSchema,
    who: organizationRoles,
    refusals: [],
  },
  'GET /api/settings/country-currencies': {
    operationId: 'listCountryCurrencies',
    tags,
    summary: "The currencies of the organization's country, then bitcoin (isFiat false)",
    answer: CurrencyListSchema,
    who: organizationRoles,
    refusals: [],
  },
  'POST /api/settings/banking-info': {
    operationId: 'addBankingInfo',
    tags,
    summary: "Adds the organization's bank account",
    description: `Refused with \`BankingInfoExists\` when it has one already: that one is changed instead. ${change}`,
    body: BankingInfoRequestSchema,
    answer: BankingInfoSchema,
    statuses: [201],
    who: adminRoles,
    refusals: ['BankingInfoExists', ...fieldRefusals, ...mfaRefusals],
  },
  'PUT /api/settings/banking-info/:bankingInfoId': {
    operationId: 'changeBankingInfo',
    tags,
    summary: "Changes the organization's bank account",
    description: change,
    params: BankingInfoIdParamsSchema,
    body: BankingInfoRequestSchema,
    answer: BankingInfoSchema,
    who: adminRoles,
    scope: { param: 'bankingInfoId', within: 'organization' },
    refusals: [...fieldRefusals, ...mfaRefusals],
  },
});
