import { CreateRefundRequestSchema, RefundSchema, SaleRefundsSchema } from '../refunds.ts';
import { adminRoles, organizationRoles } from '../roles.ts';
import { defineCalls } from './call.ts';
import { IdParamsSchema, mfaRefusals } from './common.ts';

const tags = ['refunds'];

/** Refunds of a sale: managers see them on their linked accounts; only admins make them (issue 30). */
export const refundCalls = defineCalls({
  'GET /api/transactions/:id/refunds': {
    operationId: 'listSaleRefunds',
    tags,
    summary: "A sale's refunds and what may still be refunded",
    description:
      "By its transaction's or its invoice's id. The refund links (LNURL-withdraw) are given only to admins.",
    params: IdParamsSchema,
    answer: SaleRefundsSchema,
    who: organizationRoles,
    scope: { param: 'id', within: 'linked-accounts' },
    refusals: [],
  },
  'POST /api/transactions/:id/refunds': {
    operationId: 'refundSale',
    tags,
    summary: 'Refunds a sale in full or in part',
    description:
      "By its transaction's or its invoice's id: to the customer's Lightning invoice or address, or Bitcoin address (sent on-chain by the platform wallet), in `destination`, or else through a refund link (LNURL-withdraw) the answer carries. The same `idempotencyKey` again answers the same refund. With MFA on, needs a code in the `mfa-code` header.",
    params: IdParamsSchema,
    body: CreateRefundRequestSchema,
    answer: RefundSchema,
    who: adminRoles,
    scope: { param: 'id', within: 'organization' },
    refusals: [
      'InvalidRefundInvoice',
      'InvalidLightningAddress',
      'LightningAddressUnreachable',
      'LightningAddressNotPayable',
      'InvalidOnchainAddress',
      'OnchainAddressWrongNetwork',
      'RefundBelowDust',
      'SaleNotPaid',
      'RefundExceedsSale',
      'OnchainRefundUnavailable',
      'OrganizationBlocked',
      ...mfaRefusals,
    ],
  },
});
