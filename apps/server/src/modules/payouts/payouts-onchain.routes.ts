import {
  BumpBatchFeeRequestSchema,
  DepositAddressSchema,
  OnchainPayoutBatchListSchema,
  OnchainPayoutBatchSchema,
  OnchainWalletSummarySchema,
  SignedBatchRequestSchema,
} from '@rayo/shared';
import { z } from 'zod';
import { createChainBackend } from '../../adapters/chain/index.ts';
import type { Config } from '../../config.ts';
import type { Db } from '../../db/database.ts';
import { callerOf } from '../../http/access.ts';
import type { App } from '../../http/app-type.ts';
import {
  bumpBatchFee,
  exportBatchPsbt,
  listOnchainBatches,
  runOnchainPayoutsNow,
  submitSignedBatch,
} from './payouts-onchain-batches.service.ts';
import { createDepositAddress, getOnchainWalletSummary } from './payouts-onchain-wallet.service.ts';

const BatchParamsSchema = z.object({ id: z.uuid() });

/**
 * Back office's on-chain payouts: the platform wallet (owed, held, waiting, a deposit address),
 * the batches, the PSBT for the operator's wallet, and its signed return.
 */
export function registerOnchainPayoutRoutes(app: App, deps: { db: Db; config: Config }): void {
  const tags = ['back-office'];
  const chain = createChainBackend(deps.config, deps.db);

  app.get(
    '/api/back-office/onchain-wallet',
    {
      schema: {
        tags,
        summary:
          'The platform wallet: what the organizations are owed on-chain, what it holds, who waits and why, where to fund it',
        response: { 200: OnchainWalletSummarySchema },
      },
    },
    async () => getOnchainWalletSummary({ ...deps, chain }),
  );

  app.post(
    '/api/back-office/onchain-wallet/deposit-address',
    {
      schema: {
        tags,
        summary: 'A fresh receive address of the platform wallet, to fund it; payments to it are not sales',
        response: { 200: DepositAddressSchema },
      },
    },
    async (request) => createDepositAddress(callerOf(request), deps),
  );

  app.post(
    '/api/back-office/onchain-wallet/run',
    {
      schema: {
        tags,
        summary:
          'Runs the on-chain payout pass now (as the job does every PAYOUT_INTERVAL_SECONDS); answers the wallet after it',
        response: { 200: OnchainWalletSummarySchema },
      },
    },
    async (request) => runOnchainPayoutsNow(callerOf(request), { ...deps, chain }, request.log),
  );

  app.get(
    '/api/back-office/onchain-payouts',
    {
      schema: {
        tags,
        summary: 'The on-chain payout batches, newest first (at most 100)',
        response: { 200: OnchainPayoutBatchListSchema },
      },
    },
    async () => listOnchainBatches(deps),
  );

  app.get(
    '/api/back-office/onchain-payouts/:id/psbt',
    {
      schema: {
        tags,
        summary: "The batch's unsigned transaction as a BIP 174 PSBT file, for the operator's wallet to sign",
        params: BatchParamsSchema,
        produces: ['application/octet-stream'],
      },
    },
    async (request, reply) => {
      const { psbt, fileName } = await exportBatchPsbt(callerOf(request), deps, request.params.id);
      return reply
        .type('application/octet-stream')
        .header('content-disposition', `attachment; filename="${fileName}"`)
        .send(Buffer.from(psbt));
    },
  );

  app.post(
    '/api/back-office/onchain-payouts/:id/signed',
    {
      schema: {
        tags,
        summary: 'The signed batch (PSBT in base64 or raw transaction in hex): stored and broadcast',
        params: BatchParamsSchema,
        body: SignedBatchRequestSchema,
        response: { 200: OnchainPayoutBatchSchema },
      },
    },
    async (request) =>
      submitSignedBatch(
        callerOf(request),
        { ...deps, chain },
        request.params.id,
        request.body.transaction,
        request.log,
      ),
  );

  app.post(
    '/api/back-office/onchain-payouts/:id/bump',
    {
      schema: {
        tags,
        summary:
          'Raises the fee of a batch no block has taken yet: a replacement (BIP 125) pays the same organizations at a higher fee',
        params: BatchParamsSchema,
        body: BumpBatchFeeRequestSchema,
        response: { 200: OnchainPayoutBatchSchema },
      },
    },
    async (request) =>
      bumpBatchFee(callerOf(request), { ...deps, chain }, request.params.id, request.body.feeRate, request.log),
  );
}
