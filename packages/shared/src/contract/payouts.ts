import {
  BumpBatchFeeRequestSchema,
  DepositAddressSchema,
  OnchainPayoutBatchListSchema,
  OnchainPayoutBatchSchema,
  OnchainWalletSummarySchema,
  PayoutPageSchema,
  PayoutQuerySchema,
  PayoutSchema,
  SignedBatchRequestSchema,
} from '../payouts.ts';
import { backOfficeRoles, organizationRoles } from '../roles.ts';
import { defineCalls } from './call.ts';
import { IdParamsSchema } from './common.ts';

/**
 * Payouts: the organization's history in Settings, and back office's side of them (SPEC §7):
 * an organization's payouts, cancelling a Lightning payout no payment can still complete, and
 * the platform wallet that pays on-chain, its batches and the operator's signature.
 */
export const payoutCalls = defineCalls({
  'GET /api/settings/payouts': {
    operationId: 'listPayouts',
    tags: ['settings'],
    summary:
      "The organization's payouts, newest first, its fiat share awaiting or done by bank transfer, and why payouts wait",
    query: PayoutQuerySchema,
    answer: PayoutPageSchema,
    who: organizationRoles,
    refusals: [],
  },
  'GET /api/back-office/organization/:id/payouts': {
    operationId: 'listOrganizationPayouts',
    tags: ['back-office'],
    summary: "The organization's payouts, newest first, and its fiat share awaiting or done by bank transfer",
    params: IdParamsSchema,
    query: PayoutQuerySchema,
    answer: PayoutPageSchema,
    who: backOfficeRoles,
    refusals: [],
  },
  'POST /api/back-office/payouts/:id/cancel': {
    operationId: 'cancelPayout',
    tags: ['back-office'],
    summary: 'Cancels a pending or failed Lightning payout whose payment cannot complete any more',
    description:
      'Its shares are paid again by the next batch. `PayoutInFlight` while a payment of it may still complete, `PayoutNotCancellable` once sent or cancelled (or for an on-chain payout), `LightningUnavailable` when the node does not say whether it was paid. Audit-logged.',
    params: IdParamsSchema,
    answer: PayoutSchema,
    who: backOfficeRoles,
    refusals: ['NotFound', 'PayoutNotCancellable', 'PayoutInFlight', 'LightningUnavailable'],
  },
  'GET /api/back-office/onchain-wallet': {
    operationId: 'getOnchainWallet',
    tags: ['back-office'],
    summary:
      'The platform wallet: what the organizations are owed on-chain, what it holds, who waits and why, where to fund it',
    answer: OnchainWalletSummarySchema,
    who: backOfficeRoles,
    refusals: [],
  },
  'POST /api/back-office/onchain-wallet/deposit-address': {
    operationId: 'createDepositAddress',
    tags: ['back-office'],
    summary: 'A fresh receive address of the platform wallet, to fund it; payments to it are not sales',
    description: '`NotFound` when the platform has no on-chain wallet (`CHAIN_XPUB` is not set). Audit-logged.',
    answer: DepositAddressSchema,
    who: backOfficeRoles,
    refusals: ['NotFound'],
  },
  'POST /api/back-office/onchain-wallet/run': {
    operationId: 'runOnchainPayouts',
    tags: ['back-office'],
    summary: 'Runs the on-chain payout pass now; answers the wallet after it',
    description:
      'The same pass the job runs every `PAYOUT_INTERVAL_SECONDS`, under the same lock; a batch it builds names the caller. Audit-logged.',
    answer: OnchainWalletSummarySchema,
    who: backOfficeRoles,
    refusals: [],
  },
  'GET /api/back-office/onchain-payouts': {
    operationId: 'listOnchainPayoutBatches',
    tags: ['back-office'],
    summary: 'The on-chain payout batches, newest first (at most 100)',
    answer: OnchainPayoutBatchListSchema,
    who: backOfficeRoles,
    refusals: [],
  },
  'GET /api/back-office/onchain-payouts/:id/psbt': {
    operationId: 'exportPayoutBatchPsbt',
    tags: ['back-office'],
    summary: "The batch's unsigned transaction as a BIP 174 PSBT file, for the operator's wallet to sign",
    description:
      "The PSBT's binary form (not base64), named `payout-batch-<first 12 hex digits of the txid>.psbt`. Audit-logged.",
    params: IdParamsSchema,
    file: { mediaType: 'application/octet-stream', disposition: 'attachment' },
    who: backOfficeRoles,
    refusals: ['NotFound'],
  },
  'POST /api/back-office/onchain-payouts/:id/signed': {
    operationId: 'submitSignedPayoutBatch',
    tags: ['back-office'],
    summary: 'The signed batch (PSBT in base64 or raw transaction in hex): stored and broadcast',
    description:
      'It must be the very transaction of a batch waiting for a signature (`InvalidInput` otherwise, `BatchNotAwaitingSignature` for a batch not waiting). Audit-logged.',
    params: IdParamsSchema,
    body: SignedBatchRequestSchema,
    answer: OnchainPayoutBatchSchema,
    who: backOfficeRoles,
    refusals: ['NotFound', 'BatchNotAwaitingSignature'],
  },
  'POST /api/back-office/onchain-payouts/:id/bump': {
    operationId: 'bumpPayoutBatchFee',
    tags: ['back-office'],
    summary: 'Raises the fee of a batch no block has taken yet',
    description:
      'A replacement (BIP 125) pays the same organizations at `feeRate` sat/vB, or the current estimate without it. `BatchNotReplaceable` once a block has the batch, `BatchFeeNotCovered` when the platform wallet cannot pay the higher fee. Audit-logged.',
    params: IdParamsSchema,
    body: BumpBatchFeeRequestSchema,
    answer: OnchainPayoutBatchSchema,
    who: backOfficeRoles,
    refusals: ['NotFound', 'BatchNotReplaceable', 'BatchFeeNotCovered'],
  },
});
