import { z } from 'zod';

/**
 * Checkout protection (SPEC §2 Settings; DESIGN §9): when on, e-commerce checkouts can only be
 * created server-to-server with a signed request or the developer token, so a shopper cannot
 * change the amount; when off, the store's public checkout button may create them.
 */
export const CheckoutProtectionSchema = z.object({ enabled: z.boolean() });
export type CheckoutProtection = z.infer<typeof CheckoutProtectionSchema>;
