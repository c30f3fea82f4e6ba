import { createChainBackend } from '../../adapters/chain/index.ts';
import type { Config } from '../../config.ts';
import type { Db } from '../../db/database.ts';
import { callerOf } from '../../http/access.ts';
import type { App } from '../../http/app-type.ts';
import { registerCall } from '../../http/contract.ts';
import {
  bumpBatchFee,
  exportBatchPsbt,
  listOnchainBatches,
  runOnchainPayoutsNow,
  submitSignedBatch,
} from './payouts-onchain-batches.service.ts';
import { createDepositAddress, getOnchainWalletSummary } from './payouts-onchain-wallet.service.ts';

/**
 * Back office's on-chain payouts: the platform wallet (owed, held, waiting, a deposit address),
 * the batches, the PSBT for the operator's wallet, and its signed return.
 */
export function registerOnchainPayoutRoutes(app: App, deps: { db: Db; config: Config }): void {
  const chain = createChainBackend(deps.config, deps.db);

  registerCall(app, 'GET /api/back-office/onchain-wallet', async () => getOnchainWalletSummary({ ...deps, chain }));

  registerCall(app, 'POST /api/back-office/onchain-wallet/deposit-address', async (request) =>
    createDepositAddress(callerOf(request), deps),
  );

  registerCall(app, 'POST /api/back-office/onchain-wallet/run', async (request) =>
    runOnchainPayoutsNow(callerOf(request), { ...deps, chain }, request.log),
  );

  registerCall(app, 'GET /api/back-office/onchain-payouts', async () => listOnchainBatches(deps));

  registerCall(app, 'GET /api/back-office/onchain-payouts/:id/psbt', async (request, reply) => {
    const { psbt, fileName } = await exportBatchPsbt(callerOf(request), deps, request.params.id);
    return reply
      .type('application/octet-stream')
      .header('content-disposition', `attachment; filename="${fileName}"`)
      .send(Buffer.from(psbt));
  });

  registerCall(app, 'POST /api/back-office/onchain-payouts/:id/signed', async (request) =>
    submitSignedBatch(callerOf(request), { ...deps, chain }, request.params.id, request.body.transaction, request.log),
  );

  registerCall(app, 'POST /api/back-office/onchain-payouts/:id/bump', async (request) =>
    bumpBatchFee(callerOf(request), { ...deps, chain }, request.params.id, request.body.feeRate, request.log),
  );
}
