/**
 * The states of invoices and checkouts as plain lists. The schemas build their enums on them,
 * and the web's live status streams check events against them; they live apart from the
 * schemas so that the public checkout and donation pages read them without loading zod.
 */

export const invoiceStatuses = ['pending', 'settled', 'expired', 'cancelled'] as const;

export const checkoutStatuses = ['awaiting_payment', 'processing', 'paid', 'expired'] as const;
