import type { RateLimitRule } from '../../http/rate-limit.ts';

/**
 * Anyone may ask a donation link for invoices, from the page or a wallet. Each caller gets a
 * budget on each link (a donor asks a few times at most), and each link one in all, so that
 * neither one address nor many can flood the node with invoices.
 */
export const donationInvoicesPerCaller: RateLimitRule = { name: 'donation-invoices-ip', limit: 20, windowSeconds: 60 };
export const donationInvoicesPerLink: RateLimitRule = { name: 'donation-invoices', limit: 120, windowSeconds: 60 };
