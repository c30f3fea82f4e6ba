import { OnchainPayoutBatchListSchema, OnchainPayoutBatchSchema, SignedBatchRequestSchema } from '@rayo/shared';
import { z } from 'zod';
import { createChainBackend } from '../../adapters/chain/index.ts';
import type { App } from '../../app.ts';
import type { Config } from '../../config.ts';
import type { Db } from '../../db/database.ts';
import { callerOf } from '../../http/access.ts';
import { exportBatchPsbt, listOnchainBatches, submitSignedBatch } from './payouts-onchain.service.ts';

const BatchParamsSchema = z.object({ id: z.uuid() });

/** Back office's on-chain payout batches: the list, the PSBT for the operator's wallet, and its signed return. */
export function registerOnchainPayoutRoutes(app: App, deps: { db: Db; config: Config }): void {
  const tags = ['back-office'];
  const chain = createChainBackend(deps.config, deps.db);

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
      const { psbt, fileName } = await exportBatchPsbt(deps, callerOf(request), request.params.id, request.ip);
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
        { ...deps, chain },
        callerOf(request),
        request.params.id,
        request.body.transaction,
        request.ip,
        request.log,
      ),
  );
}
