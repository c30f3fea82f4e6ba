import { CreatePaymentLinkRequestSchema, PaymentLinkListSchema, PaymentLinkSchema } from '../checkouts.ts';
import { adminRoles, organizationRoles } from '../roles.ts';
import { defineCalls } from './call.ts';
import { IdParamsSchema } from './common.ts';

const tags = ['payment-links'];

/** Payment links: a virtual BPT's shareable checkouts (SPEC §5). */
export const paymentLinkCalls = defineCalls({
  'GET /api/virtual-bpts/:id/payment-links': {
    operationId: 'listPaymentLinks',
    tags,
    summary: "A virtual BPT's payment links",
    params: IdParamsSchema,
    answer: PaymentLinkListSchema,
    who: organizationRoles,
    scope: { param: 'id', within: 'linked-accounts' },
    refusals: [],
  },
  'POST /api/virtual-bpts/:id/payment-links': {
    operationId: 'createPaymentLink',
    tags,
    summary: 'Creates a payment link of a virtual BPT',
    params: IdParamsSchema,
    body: CreatePaymentLinkRequestSchema,
    answer: PaymentLinkSchema,
    statuses: [201],
    who: adminRoles,
    scope: { param: 'id', within: 'organization' },
    refusals: ['MissingAmount', 'InvalidAmount', 'InvalidCurrency', 'LinkAlreadyExists'],
  },
  'DELETE /api/payment-links/:id': {
    operationId: 'deletePaymentLink',
    tags,
    summary: 'Deletes a payment link: its page stops taking payments',
    params: IdParamsSchema,
    who: adminRoles,
    scope: { param: 'id', within: 'organization' },
    refusals: [],
  },
  'GET /api/accounts/:id/payment-links': {
    operationId: 'listAccountPaymentLinks',
    tags,
    summary: 'The payment links of every virtual BPT selling for an account',
    params: IdParamsSchema,
    answer: PaymentLinkListSchema,
    who: organizationRoles,
    scope: { param: 'id', within: 'linked-accounts' },
    refusals: [],
  },
});
