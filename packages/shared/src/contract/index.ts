import { accountCalls } from './accounts.ts';
import { authCalls, signUpCalls } from './auth.ts';
import { backOfficeCalls } from './back-office.ts';
import { bankingInfoCalls } from './banking-info.ts';
import { bptCalls } from './bpts.ts';
import { brandingCalls } from './branding.ts';
import { checkoutProtectionCalls } from './checkout-protection.ts';
import { checkoutCalls } from './checkouts.ts';
import { countryCalls } from './countries.ts';
import { dashboardCalls } from './dashboard.ts';
import { dayCloseCalls } from './day-close.ts';
import { developerTokenCalls } from './developer-tokens.ts';
import { devnetCalls } from './devnet.ts';
import { donationCalls } from './donations.ts';
import { invoiceCalls } from './invoices.ts';
import { kybCalls } from './kyb.ts';
import { languageCalls } from './language.ts';
import { managerCalls } from './managers.ts';
import { metaCalls } from './meta.ts';
import { mfaCalls } from './mfa.ts';
import { organizationCalls } from './organizations.ts';
import { passwordCalls } from './password.ts';
import { paymentLinkCalls } from './payment-links.ts';
import { payoutAddressCalls } from './payout-addresses.ts';
import { payoutDestinationChangeCalls } from './payout-destination-changes.ts';
import { payoutSplitCalls } from './payout-split.ts';
import { payoutCalls } from './payouts.ts';
import { rateCalls } from './rates.ts';
import { receiptCalls } from './receipts.ts';
import { refundCalls } from './refunds.ts';
import { shopCalls } from './shops.ts';
import { storeCheckoutCalls } from './store-checkouts.ts';
import { virtualBptCalls } from './virtual-bpts.ts';
import { webhookCalls } from './webhooks.ts';

export * from './call.ts';
export { ReceiptTokenParamsSchema } from './receipts.ts';
export * from './webhook-events.ts';

/**
 * Every call the contract defines, one table per module (docs/architecture.md "Route contract").
 * The server and tests read this; the web imports only its type, so no schema reaches a page.
 */
export const contract = {
  ...checkoutCalls,
  ...paymentLinkCalls,
  ...storeCheckoutCalls,
  ...webhookCalls,
  ...developerTokenCalls,
  ...virtualBptCalls,
  ...checkoutProtectionCalls,
  ...languageCalls,
  ...payoutSplitCalls,
  ...payoutAddressCalls,
  ...payoutDestinationChangeCalls,
  ...authCalls,
  ...signUpCalls,
  ...passwordCalls,
  ...mfaCalls,
  ...bankingInfoCalls,
  ...brandingCalls,
  ...kybCalls,
  ...donationCalls,
  ...invoiceCalls,
  ...receiptCalls,
  ...refundCalls,
  ...dashboardCalls,
  ...dayCloseCalls,
  ...accountCalls,
  ...bptCalls,
  ...countryCalls,
  ...managerCalls,
  ...metaCalls,
  ...organizationCalls,
  ...rateCalls,
  ...payoutCalls,
  ...backOfficeCalls,
  ...shopCalls,
  ...devnetCalls,
} as const;

export type Contract = typeof contract;
export type ContractKey = keyof Contract;
