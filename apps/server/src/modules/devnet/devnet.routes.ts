import {
  DevnetChainTipSchema,
  DevnetMineRequestSchema,
  DevnetMineResponseSchema,
  DevnetPayRequestSchema,
  DevnetPayResponseSchema,
  DevnetSendRequestSchema,
  DevnetSendResponseSchema,
  DevnetWithdrawLinkRequestSchema,
  DevnetWithdrawLinkSchema,
  DevnetWithdrawRequestSchema,
  DevnetWithdrawResponseSchema,
  LnurlErrorSchema,
  LnurlOkSchema,
  LnurlWithdrawCallbackQuerySchema,
  LnurlWithdrawOfferSchema,
} from '@rayo/shared';
import { z } from 'zod';
import type { App } from '../../http/app-type.ts';
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
  const localOnly = onlyFromThisMachine(deps.config.devnetPublic);
  app.post(
    '/api/devnet/pay',
    {
      onRequest: localOnly,
      schema: { tags: ['devnet'], body: DevnetPayRequestSchema, response: { 200: DevnetPayResponseSchema } },
    },
    async (request) => payFromDevnetWallet(deps.db, request.body.paymentRequest),
  );

  app.post(
    '/api/devnet/expire',
    {
      onRequest: localOnly,
      schema: {
        tags: ['devnet'],
        summary: 'The devnet node lets an unpaid invoice run out now, and Rayo records it expired',
        body: DevnetPayRequestSchema,
      },
    },
    async (request, reply) => {
      await expireDevnetInvoiceEarly(deps.db, request.body.paymentRequest);
      return reply.status(204).send();
    },
  );

  app.post(
    '/api/devnet/lnurl-withdraw',
    {
      onRequest: localOnly,
      schema: {
        tags: ['devnet'],
        body: DevnetWithdrawLinkRequestSchema,
        response: { 200: DevnetWithdrawLinkSchema },
      },
    },
    async (request) => {
      const { maxMsat } = request.body;
      return createDevnetWithdrawLink(deps, maxMsat === undefined ? undefined : BigInt(maxMsat));
    },
  );

  app.post(
    '/api/devnet/withdraw',
    {
      onRequest: localOnly,
      schema: {
        tags: ['devnet'],
        summary: "The devnet wallet withdraws amountMsat from an LNURL-withdraw link, such as a refund's",
        body: DevnetWithdrawRequestSchema,
        response: { 200: DevnetWithdrawResponseSchema },
      },
    },
    async (request) =>
      withdrawToDevnetWallet(
        deps,
        { lnurl: request.body.lnurl, amountMsat: BigInt(request.body.amountMsat) },
        request.log,
      ),
  );

  if (deps.config.chain.backend === 'devnet') registerDevnetChainRoutes(app, deps, localOnly);

  // LNURL wallets read these from other origins and expect HTTP 200 with a status in the body.
  app.get(
    '/api/devnet/lnurlw/:k1',
    {
      onRequest: localOnly,
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
      onRequest: localOnly,
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
function registerDevnetChainRoutes(
  app: App,
  deps: DevnetDeps,
  localOnly: ReturnType<typeof onlyFromThisMachine>,
): void {
  app.get(
    '/api/devnet/chain',
    { onRequest: localOnly, schema: { tags: ['devnet'], response: { 200: DevnetChainTipSchema } } },
    async () => getDevnetChainTip(deps.db),
  );

  app.post(
    '/api/devnet/mine',
    {
      onRequest: localOnly,
      schema: { tags: ['devnet'], body: DevnetMineRequestSchema, response: { 200: DevnetMineResponseSchema } },
    },
    async (request) => mineDevnetChain(deps.db, request.body.blocks),
  );

  app.post(
    '/api/devnet/send-onchain',
    {
      onRequest: localOnly,
      schema: { tags: ['devnet'], body: DevnetSendRequestSchema, response: { 200: DevnetSendResponseSchema } },
    },
    async (request) => sendOnchainFromDevnetWallet(deps.db, request.body.address, request.body.sats),
  );
}
