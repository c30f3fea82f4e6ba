/** Business constants of SPEC §9. */
export const DEFAULT_PAGE_SIZE = 10;
export const BACK_OFFICE_EXPORT_PAGE_SIZE = 500;
export const MOBILE_MAX_WIDTH_PX = 900;
export const ALL_COUNTRIES_ID = -1;
export const DEVELOPER_TOKEN_YEARS = 20;
export const ONCHAIN_CONFIRMATIONS = 4;
export const ACTIVE_ORGANIZATION_MIN_TRANSACTIONS = 5;

export const languages = ['en', 'es'] as const;
export type Language = (typeof languages)[number];
export const DEFAULT_LANGUAGE: Language = 'en';
