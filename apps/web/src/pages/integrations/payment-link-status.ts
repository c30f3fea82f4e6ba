import type { CheckoutStatus, PaymentLink } from '@rayo/shared';

type Label = { key: string; color: string };

/** SPEC §4's words for a payment link's status, as i18n keys, and the colour of its badge. */
const statusLabels: Record<CheckoutStatus, Label> = {
  awaiting_payment: { key: 'paymentLinks.status.awaitingPayment', color: 'yellow' },
  processing: { key: 'paymentLinks.status.processing', color: 'blue' },
  paid: { key: 'paymentLinks.status.paid', color: 'teal' },
  expired: { key: 'paymentLinks.status.expired', color: 'gray' },
};

/** SPEC §4's on-chain 'underpaid': part of the link's price arrived and the rest is missing. */
const underpaidLabel: Label = { key: 'paymentLinks.status.underpaid', color: 'orange' };

export function statusLabel(link: Pick<PaymentLink, 'status' | 'underpaid'>): Label {
  return link.underpaid ? underpaidLabel : statusLabels[link.status];
}
