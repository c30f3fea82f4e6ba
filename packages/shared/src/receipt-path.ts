// Without zod, so that the paid screens that link a receipt do not load it.

/**
 * A receipt's public token: 24 random bytes in base64url (192 bits), the whole of what its link
 * carries, never derived from the sale.
 */
export const RECEIPT_TOKEN_BYTES = 24;

/** Where a receipt is read in the web app. */
export function receiptPath(token: string): string {
  return `/receipts/${token}`;
}
