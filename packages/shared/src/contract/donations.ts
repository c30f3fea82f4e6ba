import {
  CreateDonationInvoiceRequestSchema,
  CreateDonationLinkRequestSchema,
  DonationAddressAnswerSchema,
  DonationHistoryQuerySchema,
  DonationHistorySchema,
  DonationInvoiceSchema,
  DonationLinkListSchema,
  DonationLinkSchema,
  PublicDonationLinkSchema,
  SetDonationAddressRequestSchema,
} from '../donations.ts';
import { adminRoles, organizationRoles } from '../roles.ts';
import { defineCalls } from './call.ts';
import { IdParamsSchema } from './common.ts';

const tags = ['donations'];

/**
 * Donation links, their history and the organization's Lightning address (Integrations), and the
 * public donation page. A link's random id is its public address, so the page needs no session.
 * Managers see the links and donations of their linked accounts.
 */
export const donationCalls = defineCalls({
  'GET /api/donation-links': {
    operationId: 'listDonationLinks',
    tags,
    summary: "The organization's donation links; a manager's, those on their linked accounts",
    answer: DonationLinkListSchema,
    who: organizationRoles,
    refusals: [],
  },
  'POST /api/donation-links': {
    operationId: 'createDonationLink',
    tags,
    summary: "Creates a donation link selling through one of the organization's virtual BPTs",
    description:
      'A fixed `amountSats` makes every donation that amount; without one the donor chooses. `commentAllowed` is the longest comment a donor may leave (LUD-12), 0 for none.',
    body: CreateDonationLinkRequestSchema,
    answer: DonationLinkSchema,
    statuses: [201],
    who: adminRoles,
    scope: { param: 'virtualBptId', within: 'organization', outside: 400 },
    refusals: [],
  },
  'DELETE /api/donation-links/:id': {
    operationId: 'deleteDonationLink',
    tags,
    summary: 'Deletes a donation link: it takes no more donations; those received stay in the history',
    params: IdParamsSchema,
    who: adminRoles,
    scope: { param: 'id', within: 'organization' },
    refusals: [],
  },
  'GET /api/donations': {
    operationId: 'listDonations',
    tags,
    summary: 'The donations received, newest first, a page at a time',
    answer: DonationHistorySchema,
    query: DonationHistoryQuerySchema,
    who: organizationRoles,
    refusals: [],
  },
  'GET /api/donations/lightning-address': {
    operationId: 'getDonationAddress',
    tags,
    summary: "The organization's Lightning address and the donation link it pays, or null",
    answer: DonationAddressAnswerSchema,
    who: organizationRoles,
    refusals: [],
  },
  'PUT /api/donations/lightning-address': {
    operationId: 'setDonationAddress',
    tags,
    summary: "Names the organization's Lightning address and the donation link it pays (LUD-16)",
    description:
      'A name uses a-z, 0-9, `-`, `_` and `.`, starts and ends with a letter or digit, and has at most 64 characters; a name another organization holds is refused.',
    body: SetDonationAddressRequestSchema,
    answer: DonationAddressAnswerSchema,
    who: adminRoles,
    scope: { param: 'donationLinkId', within: 'organization', outside: 400 },
    refusals: ['InvalidLightningAddress', 'LightningAddressTaken'],
  },
  'DELETE /api/donations/lightning-address': {
    operationId: 'removeDonationAddress',
    tags,
    summary: "Removes the organization's Lightning address; wallets then find no such address",
    who: adminRoles,
    refusals: [],
  },
  'GET /api/public/donation-links/:id': {
    operationId: 'getPublicDonationLink',
    tags,
    summary: 'A donation link as its public page shows it',
    description: "No session: the link's random id is its address. A deleted link answers 404.",
    params: IdParamsSchema,
    answer: PublicDonationLinkSchema,
    who: 'public',
    refusals: ['NotFound'],
  },
  'POST /api/public/donation-links/:id/invoices': {
    operationId: 'createDonationInvoice',
    tags,
    summary: 'Issues the invoice of one donation, for an amount the donor typed',
    description:
      "The same invoice a wallet gets through LNURL-pay: the amount within the link's limits, the comment within its length, priced at the current rate of its BPT's currency. Limited per address and per link.",
    params: IdParamsSchema,
    body: CreateDonationInvoiceRequestSchema,
    answer: DonationInvoiceSchema,
    statuses: [201],
    who: 'public',
    refusals: [
      'NotFound',
      'TooManyRequests',
      'InvalidAmount',
      'OrganizationDisabled',
      'OrganizationBlocked',
      'RateUnavailable',
      'LightningUnavailable',
      'InvoiceFailed',
    ],
  },
});
