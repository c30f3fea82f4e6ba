// The choices of the dashboard's queries, apart from their schemas in dashboard.ts and free of
// zod, for the home page offers them before anything else of the API's schemas is loaded.

/**
 * The columns the transactions table sorts by: the two dates. Amounts are not on the list, since a
 * period of a large merchant would have to be sorted whole to show its first page.
 */
export const transactionSorts = ['settledAt', 'createdAt'] as const;
export type TransactionSort = (typeof transactionSorts)[number];
export const sortOrders = ['desc', 'asc'] as const;
export type SortOrder = (typeof sortOrders)[number];

export const seriesBuckets = ['hour', 'day', 'month'] as const;

/** What an invoice sells: a terminal sale, a payment link, a donation or a store checkout. */
export const saleSources = ['terminal', 'payment_link', 'donation', 'checkout'] as const;
