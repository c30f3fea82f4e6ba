import {
  LnurlErrorSchema,
  LnurlOkSchema,
  LnurlWithdrawCallbackQuerySchema,
  LnurlWithdrawOfferSchema,
} from '@rayo/shared';
import { z } from 'zod';
import type { App } from '../../http/app-type.ts';
import { type CallOptions, registerCall } from '../../http/contract.ts';
import { onlyFromThisMachine } from '../../http/local-only.ts';
import {
  createDevnetWithdrawLink,
  type DevnetDeps,
  describeDevnetWithdrawal,
  expireDevnetInvoiceEarly,
  getDevnetChainTip,
  mineDevnetChain,
  payFromDevnetWallet,
  redeemDevnetWithdrawal,
  sendOnchainFromDevnetWallet,
  withdrawToDevnetWallet,
} from './devnet.service.ts';

/** Any text: an unknown k1 gets an LNURL ERROR answer, not a validation error. */
const K1ParamsSchema = z.object({ k1: z.string().max(128) });

/**
 * The devnet wallet and its Bolt Card service. Without a session because devnet money is not
 * real, but only for callers on the machine Rayo runs on unless DEVNET_PUBLIC is set: devnet is
 * the default backend, and a server reachable from elsewhere must not let anyone pay its
 * invoices. The caller registers these only when the devnet Lightning backend is configured.
 */
export function registerDevnetRoutes(app: App, deps: DevnetDeps): void {
  const localOnly = { onRequest: [onlyFromThisMachine(deps.config.devnetPublic)] };
  registerCall(
    app,
    'POST /api/devnet/pay',
    async (request) => payFromDevnetWallet(deps.db, request.body.paymentRequest),
    localOnly,
  );

  registerCall(
    app,
    'POST /api/devnet/expire',
    async (request) => expireDevnetInvoiceEarly(deps.db, request.body.paymentRequest),
    localOnly,
  );

  registerCall(
    app,
    'POST /api/devnet/lnurl-withdraw',
    async (request) => {
      const { maxMsat } = request.body;
      return createDevnetWithdrawLink(deps, maxMsat === undefined ? undefined : BigInt(maxMsat));
    },
    localOnly,
  );

  registerCall(
    app,
    'POST /api/devnet/withdraw',
    async (request) =>
      withdrawToDevnetWallet(
        deps,
        { lnurl: request.body.lnurl, amountMsat: BigInt(request.body.amountMsat) },
        request.log,
      ),
    localOnly,
  );

  if (deps.config.chain.backend === 'devnet') registerDevnetChainRoutes(app, deps, localOnly);

  // LNURL wallets read these from other origins and expect HTTP 200 with a status in the body.
  app.get(
    '/api/devnet/lnurlw/:k1',
    {
      ...localOnly,
      schema: {
        tags: ['devnet'],
        params: K1ParamsSchema,
        response: { 200: z.union([LnurlWithdrawOfferSchema, LnurlErrorSchema]) },
      },
    },
    async (request, reply) => {
      reply.header('access-control-allow-origin', '*');
      return describeDevnetWithdrawal(deps, request.params.k1);
    },
  );

  app.get(
    '/api/devnet/lnurlw/:k1/callback',
    {
      ...localOnly,
      schema: {
        tags: ['devnet'],
        params: K1ParamsSchema,
        querystring: LnurlWithdrawCallbackQuerySchema,
        response: { 200: z.union([LnurlOkSchema, LnurlErrorSchema]) },
      },
    },
    async (request, reply) => {
      reply.header('access-control-allow-origin', '*');
      return redeemDevnetWithdrawal(deps, request.params.k1, request.query);
    },
  );
}

/** The devnet chain's tools: its tip, mining blocks, and paying an address from the devnet wallet. */
function registerDevnetChainRoutes(app: App, deps: DevnetDeps, localOnly: CallOptions<unknown>): void {
  registerCall(app, 'GET /api/devnet/chain', async () => getDevnetChainTip(deps.db), localOnly);

  registerCall(
    app,
    'POST /api/devnet/mine',
    async (request) => mineDevnetChain(deps.db, request.body.blocks),
    localOnly,
  );

  registerCall(
    app,
    'POST /api/devnet/send-onchain',
    async (request) => sendOnchainFromDevnetWallet(deps.db, request.body.address, request.body.sats),
    localOnly,
  );
}
