import type { CheckoutStatus } from '@rayo/shared';

/** SPEC §4's words for a payment link's status, as i18n keys, and the colour of its badge. */
const statusLabels: Record<CheckoutStatus, { key: string; color: string }> = {
  awaiting_payment: { key: 'paymentLinks.status.awaitingPayment', color: 'yellow' },
  processing: { key: 'paymentLinks.status.processing', color: 'blue' },
  paid: { key: 'paymentLinks.status.paid', color: 'teal' },
  expired: { key: 'paymentLinks.status.expired', color: 'gray' },
};

export function statusLabel(status: CheckoutStatus): { key: string; color: string } {
  return statusLabels[status];
}
