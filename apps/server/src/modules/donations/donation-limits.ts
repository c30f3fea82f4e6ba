import type { SharedLimitRule } from '../../http/rate-limit.ts';

/**
 * Anyone may ask a donation link for invoices, from the page or a wallet. Each caller gets a
 * budget on each link (a donor asks a few times at most), and each link one in all, so that
 * neither one address nor many can flood the node with invoices; once addresses have spent the
 * link's budget, each donor still gets a fair share of it.
 */
export const donationInvoices: SharedLimitRule = {
  name: 'donation-invoices',
  perCaller: 20,
  perLink: 120,
  guaranteed: 3,
  windowSeconds: 60,
};
