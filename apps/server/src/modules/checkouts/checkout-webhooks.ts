import { formatMinor, type WebhookEventType } from '@rayo/shared';
import type { Db } from '../../db/database.ts';
import { enqueueWebhookEvent } from '../webhooks/webhooks.service.ts';
import type { CheckoutRow } from './checkouts.repo.ts';

/** What every checkout event says of its checkout (docs/api.md, Webhooks). */
function checkoutFields(checkout: CheckoutRow) {
  return {
    checkoutId: checkout.id,
    kind: checkout.kind,
    orderId: checkout.order_id,
    status: checkout.status,
    amount: {
      currency: checkout.amount_currency,
      value: formatMinor(BigInt(checkout.amount_minor), checkout.amount_currency),
    },
    paidVia: checkout.paid_via,
    late: checkout.late_payment,
    metadata: checkout.metadata,
  };
}

/** An amount of a refund: msat, and the sale's currency both in minor units and as the API writes it. */
function refundAmount(msat: bigint, minor: bigint, currency: string) {
  return { amountMsat: Number(msat), currency, amountMinor: Number(minor), value: formatMinor(minor, currency) };
}

/**
 * Tells the store what became of its checkout (docs/api.md, Webhooks), in the caller's
 * transaction so that the event exists exactly when the change does. Payment links have no store
 * to tell. `amountSats` is what the payment asked for, or null when none was asked yet.
 */
export async function enqueueCheckoutWebhook(
  trx: Db,
  checkout: CheckoutRow,
  type: WebhookEventType,
  amountSats: bigint | null,
): Promise<void> {
  if (checkout.kind !== 'store') return;
  await enqueueWebhookEvent(trx, checkout.organization_id, type, {
    ...checkoutFields(checkout),
    amountSats: amountSats === null ? null : Number(amountSats),
  });
}

export type RefundOfCheckout = {
  id: string;
  amountMsat: bigint;
  fiatMinor: bigint;
  currency: string;
  createdAt: Date;
};

/**
 * `checkout.refunded`: an admin refunded (part of) a store checkout's sale. Sent in the
 * transaction that records the refund, when it is made rather than when the customer takes it
 * (docs/decisions/0059-checkout-refunded-webhook.md). `refundedSoFar` includes this refund.
 */
export async function enqueueCheckoutRefundedWebhook(
  trx: Db,
  checkout: CheckoutRow,
  refund: RefundOfCheckout,
  refundedSoFar: { msat: bigint; minor: bigint },
): Promise<void> {
  if (checkout.kind !== 'store') return;
  await enqueueWebhookEvent(trx, checkout.organization_id, 'checkout.refunded', {
    ...checkoutFields(checkout),
    refund: {
      id: refund.id,
      createdAt: refund.createdAt.toISOString(),
      ...refundAmount(refund.amountMsat, refund.fiatMinor, refund.currency),
    },
    refunded: refundAmount(refundedSoFar.msat, refundedSoFar.minor, refund.currency),
  });
}
