import { z } from 'zod';
import {
  BptListSchema,
  BptSchema,
  CreateBptRequestSchema,
  CreateInvoiceRequestSchema,
  InvoiceSchema,
  LatestTransactionsQuerySchema,
  TerminalInfoSchema,
  TerminalSaleListSchema,
  UpdateBptRequestSchema,
} from '../payments.ts';
import { adminRoles, organizationRoles } from '../roles.ts';
import { defineCalls } from './call.ts';
import { IdParamsSchema } from './common.ts';

/** A shareable terminal's link names it by its random token. */
const TokenParamsSchema = z.object({ token: z.string().min(16).max(64) });

/** What a charge at a terminal refuses with, signed in or through its link. */
const chargeRefusals = [
  'InvalidAmount',
  'InvalidTip',
  'RateUnavailable',
  'OrganizationDisabled',
  'OrganizationBlocked',
  'LightningUnavailable',
  'InvoiceFailed',
] as const;

/** BPTs (SPEC §5): the organization's point-of-sale terminals, and the terminal screen that charges at one. */
export const bptCalls = defineCalls({
  'GET /api/bpts': {
    operationId: 'listBpts',
    tags: ['bpts'],
    summary: "The organization's BPTs; a manager's, those of their linked accounts, without share links",
    answer: BptListSchema,
    who: organizationRoles,
    refusals: [],
  },
  'POST /api/bpts': {
    operationId: 'createBpt',
    tags: ['bpts'],
    summary: "Creates a BPT on one of the organization's accounts",
    description:
      'The organization needs an account first (`AccountRequired`); a fiat currency must be one with an exchange rate. A shareable BPT gets a share link.',
    body: CreateBptRequestSchema,
    answer: BptSchema,
    statuses: [201],
    who: adminRoles,
    scope: { param: 'accountId', within: 'organization', outside: 400 },
    refusals: ['AccountRequired', 'InvalidCurrency', 'InvalidTaxPercentage'],
  },
  'PATCH /api/bpts/:id': {
    operationId: 'updateBpt',
    tags: ['bpts'],
    summary: 'Changes a BPT',
    description:
      "Turning sharing off revokes the share link; turning it back on issues a new one. A new account must be the organization's and a fiat currency one with an exchange rate.",
    params: IdParamsSchema,
    body: UpdateBptRequestSchema,
    answer: BptSchema,
    who: adminRoles,
    scope: { param: 'id', within: 'organization' },
    refusals: ['InvalidCurrency', 'InvalidTaxPercentage'],
  },
  'DELETE /api/bpts/:id': {
    operationId: 'deleteBpt',
    tags: ['bpts'],
    summary: 'Deletes a BPT; its sales stay',
    params: IdParamsSchema,
    who: adminRoles,
    scope: { param: 'id', within: 'organization' },
    refusals: [],
  },
  'POST /api/bpts/:id/share-token': {
    operationId: 'rotateBptShareToken',
    tags: ['bpts'],
    summary: 'Issues a new share link; the old one stops working',
    description: 'Only a shareable BPT has a link (else `InvalidInput`).',
    params: IdParamsSchema,
    answer: BptSchema,
    who: adminRoles,
    scope: { param: 'id', within: 'organization' },
    refusals: [],
  },
  'GET /api/bpts/:id/terminal': {
    operationId: 'getTerminal',
    tags: ['terminal'],
    summary: "What a signed-in cashier's terminal screen shows: the BPT, its current rate and the branding",
    params: IdParamsSchema,
    answer: TerminalInfoSchema,
    who: organizationRoles,
    scope: { param: 'id', within: 'linked-accounts' },
    refusals: ['RateUnavailable'],
  },
  'POST /api/bpts/:id/invoices': {
    operationId: 'createTerminalInvoice',
    tags: ['terminal'],
    summary: "Charges at a BPT: a Lightning invoice for the bill and tip, taxed at the BPT's rate",
    params: IdParamsSchema,
    body: CreateInvoiceRequestSchema,
    answer: InvoiceSchema,
    statuses: [201],
    who: adminRoles,
    scope: { param: 'id', within: 'organization' },
    userCheckedOnWrite: true,
    refusals: chargeRefusals,
  },
  'GET /api/bpts/:id/transactions': {
    operationId: 'listTerminalSales',
    tags: ['terminal'],
    summary: "A BPT's latest sales, newest first",
    params: IdParamsSchema,
    query: LatestTransactionsQuerySchema,
    answer: TerminalSaleListSchema,
    who: organizationRoles,
    scope: { param: 'id', within: 'linked-accounts' },
    refusals: [],
  },
  'GET /api/terminal/:token': {
    operationId: 'getSharedTerminal',
    tags: ['terminal'],
    summary: "What a shared terminal's screen shows: the BPT, its current rate and the branding",
    description: "The share link's token is the credential; a link no longer valid answers `NotFound`.",
    params: TokenParamsSchema,
    answer: TerminalInfoSchema,
    who: 'public',
    refusals: ['NotFound', 'RateUnavailable'],
  },
  'POST /api/terminal/:token/invoices': {
    operationId: 'createSharedTerminalInvoice',
    tags: ['terminal'],
    summary: 'Charges through a share link: a Lightning invoice for the bill and tip',
    description:
      "The share link's token is the credential. Each caller has a budget of charges a minute on each link, and each link one in all (`TooManyRequests`).",
    params: TokenParamsSchema,
    body: CreateInvoiceRequestSchema,
    answer: InvoiceSchema,
    statuses: [201],
    who: 'public',
    refusals: ['NotFound', 'TooManyRequests', ...chargeRefusals],
  },
  'GET /api/terminal/:token/transactions': {
    operationId: 'listSharedTerminalSales',
    tags: ['terminal'],
    summary: "A shared terminal's latest sales of the current day, newest first",
    description:
      "Only the terminal's own sales of the day in the organization's time zone: whoever holds the link sees neither older sales nor the organization's other ones.",
    params: TokenParamsSchema,
    query: LatestTransactionsQuerySchema,
    answer: TerminalSaleListSchema,
    who: 'public',
    refusals: ['NotFound'],
  },
});
