/** Money for people: the server's receipts and mails write it with the same functions. */
export { formatDecimalMoney, formatMoney, formatMsatAsSats, formatSats, moneyFormat } from '@rayo/shared';
