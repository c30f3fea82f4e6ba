import type { Migration } from 'kysely';
import * as foundation from './0001-foundation.ts';
import * as countries from './0002-countries.ts';
import * as payments from './0003-payments.ts';
import * as dashboard from './0004-dashboard.ts';
import * as dashboardRollup from './0005-dashboard-rollup.ts';
import * as auditLog from './0006-audit-log.ts';
import * as accountFlows from './0007-account-flows.ts';
import * as mfa from './0008-mfa.ts';
import * as dailyCountIndex from './0009-daily-count-index.ts';
import * as signupPasswordPerCode from './0010-signup-password-per-code.ts';
import * as refreshTokenRotation from './0011-refresh-token-rotation.ts';
import * as payoutDestinations from './0012-payout-destinations.ts';
import * as payoutSplit from './0013-payout-split.ts';
import * as developerTokensAndLanguage from './0014-developer-tokens-and-language.ts';
import * as brandingKyb from './0015-branding-kyb.ts';
import * as onlineSales from './0016-online-sales.ts';
import * as checkouts from './0017-checkouts.ts';
import * as donations from './0018-donations.ts';
import * as onchain from './0019-onchain.ts';
import * as webhooks from './0020-webhooks.ts';
import * as backOffice from './0021-back-office.ts';
import * as disbursementTotals from './0022-disbursement-totals.ts';
import * as shops from './0023-shops.ts';
import * as payouts from './0024-payouts.ts';
import * as onchainPayouts from './0025-onchain-payouts.ts';
import * as payoutEdges from './0026-payout-edges.ts';
import * as bitcoinToDisburse from './0028-bitcoin-to-disburse.ts';
import * as devnetTransactions from './0029-devnet-transactions.ts';
import * as onchainQuotes from './0030-onchain-quotes.ts';
import * as payoutDestinationChanges from './0031-payout-destination-changes.ts';
import * as shopifyAppCredentials from './0033-shopify-app-credentials.ts';
import * as developerTokenScopes from './0034-developer-token-scopes.ts';
import * as signupPasswordOnConfirmation from './0035-signup-password-on-confirmation.ts';
import * as jobRunners from './0036-job-runners.ts';
import * as onchainPayoutWaits from './0037-onchain-payout-waits.ts';
import * as onchainBatchVersions from './0038-onchain-batch-versions.ts';
import * as blockReason from './0039-block-reason.ts';
import * as shareTokenIndex from './0040-share-token-index.ts';
import * as sessionEpoch from './0041-session-epoch.ts';
import * as closeSchedules from './0042-close-schedules.ts';
import * as refunds from './0043-refunds.ts';
import * as refundsInPayouts from './0044-refunds-in-payouts.ts';
import * as receipts from './0045-receipts.ts';
import * as refundsInLedger from './0047-refunds-in-ledger.ts';
import * as closeReportClaims from './0048-close-report-claims.ts';
import * as refundDestinations from './0049-refund-destinations.ts';
import * as refundsFromEveryShare from './0050-refunds-from-every-share.ts';
import * as onchainRefunds from './0051-onchain-refunds.ts';
import * as auditSystemActor from './0052-audit-system-actor.ts';

/** Every migration, in order. A new migration gets the next number and a line here. */
export const migrations: Record<string, Migration> = {
  '0001-foundation': foundation,
  '0002-countries': countries,
  '0003-payments': payments,
  '0004-dashboard': dashboard,
  '0005-dashboard-rollup': dashboardRollup,
  '0006-audit-log': auditLog,
  '0007-account-flows': accountFlows,
  '0008-mfa': mfa,
  '0009-daily-count-index': dailyCountIndex,
  '0010-signup-password-per-code': signupPasswordPerCode,
  '0011-refresh-token-rotation': refreshTokenRotation,
  '0012-payout-destinations': payoutDestinations,
  '0013-payout-split': payoutSplit,
  '0014-developer-tokens-and-language': developerTokensAndLanguage,
  '0015-branding-kyb': brandingKyb,
  '0016-online-sales': onlineSales,
  '0017-checkouts': checkouts,
  '0018-donations': donations,
  '0019-onchain': onchain,
  '0020-webhooks': webhooks,
  '0021-back-office': backOffice,
  '0022-disbursement-totals': disbursementTotals,
  '0023-shops': shops,
  '0024-payouts': payouts,
  '0025-onchain-payouts': onchainPayouts,
  '0026-payout-edges': payoutEdges,
  '0028-bitcoin-to-disburse': bitcoinToDisburse,
  '0029-devnet-transactions': devnetTransactions,
  '0030-onchain-quotes': onchainQuotes,
  '0031-payout-destination-changes': payoutDestinationChanges,
  '0033-shopify-app-credentials': shopifyAppCredentials,
  '0034-developer-token-scopes': developerTokenScopes,
  '0035-signup-password-on-confirmation': signupPasswordOnConfirmation,
  '0036-job-runners': jobRunners,
  '0037-onchain-payout-waits': onchainPayoutWaits,
  '0038-onchain-batch-versions': onchainBatchVersions,
  '0039-block-reason': blockReason,
  '0040-share-token-index': shareTokenIndex,
  '0041-session-epoch': sessionEpoch,
  '0042-close-schedules': closeSchedules,
  '0043-refunds': refunds,
  '0044-refunds-in-payouts': refundsInPayouts,
  '0045-receipts': receipts,
  '0047-refunds-in-ledger': refundsInLedger,
  '0048-close-report-claims': closeReportClaims,
  '0049-refund-destinations': refundDestinations,
  '0050-refunds-from-every-share': refundsFromEveryShare,
  '0051-onchain-refunds': onchainRefunds,
  '0052-audit-system-actor': auditSystemActor,
};
