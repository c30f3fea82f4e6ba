/** The account filter's value for every account, as the dashboard API takes it. */
export const ALL_ACCOUNTS = 'all';

/** What the home page shows first: today, every account. */
export const FIRST_VIEW = { preset: 'today', custom: null, account: ALL_ACCOUNTS } as const;
