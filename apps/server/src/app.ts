import multipart from '@fastify/multipart';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import { type DemoDataState, KYB_MAX_BYTES } from '@rayo/shared';
import Fastify, { type FastifyBaseLogger } from 'fastify';
import {
  jsonSchemaTransform,
  serializerCompiler,
  validatorCompiler,
  type ZodTypeProvider,
} from 'fastify-type-provider-zod';
import type { LightningBackend } from './adapters/lightning/types.ts';
import type { Mailer } from './adapters/mail/mailer.ts';
import type { Config, TrustProxy } from './config.ts';
import type { Db, ReadDb } from './db/database.ts';
import type { Clock } from './domain/clock.ts';
import { registerAccessControl } from './http/access.ts';
import type { App } from './http/app-type.ts';
import { capConnectionsPerAddress, registerLingeringClose } from './http/connections.ts';
import { answerClientError, answerFrameworkError, registerErrorHandler } from './http/error-handler.ts';
import { registerJsonBodyParser } from './http/json-body.ts';
import { completeApiDocument, OPENAPI_VERSION } from './http/openapi.ts';
import { pruneRateLimits } from './http/rate-limit.ts';
import { registerRequestBudget } from './http/request-budget.ts';
import { registerSecurityHeaders } from './http/security.ts';
import { registerSpa } from './http/spa.ts';
import { registerEventStreamDrain } from './http/sse.ts';
import { registerTextInputGuard } from './http/text-input.ts';
import { registerMetricsRoute } from './metrics.ts';
import { registerAccountRoutes } from './modules/accounts/accounts.routes.ts';
import { registerAuthRoutes } from './modules/auth/auth.routes.ts';
import { pruneRefreshTokens } from './modules/auth/auth.service.ts';
import { registerSignUpRoutes } from './modules/auth/signup.routes.ts';
import type { TokenIssuer } from './modules/auth/tokens.ts';
import { registerBackOfficeRoutes } from './modules/back-office/back-office.routes.ts';
import { registerBackOfficePaymentRoutes } from './modules/back-office/back-office-payments.routes.ts';
import { registerBptRoutes } from './modules/bpts/bpts.routes.ts';
import type { CheckoutEventHub } from './modules/checkouts/checkout-events.ts';
import { registerCheckoutRoutes } from './modules/checkouts/checkouts.routes.ts';
import { registerPaymentLinkRoutes } from './modules/checkouts/payment-links.routes.ts';
import { registerCountryRoutes } from './modules/countries/countries.routes.ts';
import { registerDashboardRoutes } from './modules/dashboard/dashboard.routes.ts';
import { registerDayCloseRoutes } from './modules/day-close/day-close.routes.ts';
import { registerDevnetRoutes } from './modules/devnet/devnet.routes.ts';
import { registerDonationRoutes } from './modules/donations/donations.routes.ts';
import { registerLnurlPayRoutes } from './modules/donations/lnurlp.routes.ts';
import { registerInvoiceRoutes } from './modules/invoices/invoices.routes.ts';
import type { InvoiceEventHub } from './modules/ledger/invoice-events.ts';
import { registerManagerRoutes } from './modules/managers/managers.routes.ts';
import { registerMetaRoutes } from './modules/meta/meta.routes.ts';
import { registerMfaRoutes } from './modules/mfa/mfa.routes.ts';
import type { SecretCipher } from './modules/mfa/secret-cipher.ts';
import { registerOrganizationRoutes } from './modules/organizations/organizations.routes.ts';
import { registerPayoutCancelRoutes } from './modules/payouts/payout-cancel.routes.ts';
import { registerPayoutRoutes } from './modules/payouts/payouts.routes.ts';
import { registerOnchainPayoutRoutes } from './modules/payouts/payouts-onchain.routes.ts';
import { registerRateRoutes } from './modules/rates/rates.routes.ts';
import { registerReceiptRoutes } from './modules/receipts/receipts.routes.ts';
import { registerRefundRoutes } from './modules/refunds/refunds.routes.ts';
import { registerBrandingRoutes } from './modules/settings/branding.routes.ts';
import { registerCheckoutProtectionRoutes } from './modules/settings/checkout-protection.routes.ts';
import { registerDeveloperTokenRoutes } from './modules/settings/developer-tokens.routes.ts';
import { registerKybRoutes } from './modules/settings/kyb.routes.ts';
import { registerLanguageRoutes } from './modules/settings/language.routes.ts';
import { registerSettingsRoutes } from './modules/settings/settings.routes.ts';
import { registerShopifyWebhookRoutes } from './modules/shops/shopify-webhooks.routes.ts';
import { registerShopRoutes } from './modules/shops/shops.routes.ts';
import { registerStoreCheckoutRoutes } from './modules/store-checkouts/store-checkouts.routes.ts';
import { registerVirtualBptRoutes } from './modules/virtual-bpts/virtual-bpts.routes.ts';
import { registerWebhookRoutes } from './modules/webhooks/webhooks.routes.ts';

export type AppDeps = {
  db: Db;
  /**
   * Where dashboards, reports and CSV exports read: the replica of `DATABASE_READ_URL`, which may
   * lag the primary by its replication delay, or `db` without one (docs/deploy.md).
   */
  readDb: ReadDb;
  config: Config;
  tokens: TokenIssuer;
  lightning: LightningBackend;
  events: InvoiceEventHub;
  checkoutEvents: CheckoutEventHub;
  mailer: Mailer;
  /** Seals and opens TOTP secrets at rest. */
  mfaCipher: SecretCipher;
  log: FastifyBaseLogger;
  /** The time as rate limits see it; tests hold it still instead of waiting for the wall clock. */
  clock: Clock;
  /** On a demo server, how far the demo's sales are recorded (main.ts records them after start). */
  demoData?: { state: DemoDataState };
  /** Set by main.ts when shutdown begins, so /api/ready takes this process out of a load balancer. */
  lifecycle?: { draining: boolean };
};

const PRUNE_INTERVAL_MS = 10 * 60 * 1000;

/**
 * Fastify ignores a bare hop count (it cannot tell a proxy from a direct client), so a count
 * becomes the trust function it used to be: the socket peer and the next N − 1 hops are proxies.
 * It is only as safe as the promise that every request comes through those proxies (docs/security.md).
 */
function fastifyTrustProxy(trust: TrustProxy): boolean | string[] | ((address: string, hop: number) => boolean) {
  if (typeof trust !== 'number') return trust;
  return (_address, hop) => hop < trust;
}

/** Builds the whole HTTP application around its dependencies; tests pass their own. */
export async function buildApp(deps: AppDeps): Promise<App> {
  const { http } = deps.config;
  const app = Fastify({
    loggerInstance: deps.log,
    trustProxy: fastifyTrustProxy(deps.config.trustProxy),
    bodyLimit: 1024 * 1024,
    frameworkErrors: answerFrameworkError,
    clientErrorHandler: answerClientError,
    // Node looks for connections past these limits every `connectionsCheckingInterval` (30 s by
    // default, which would let a trickling request live that much longer than its limit).
    requestTimeout: http.requestTimeoutSeconds * 1000,
    http: { headersTimeout: http.headersTimeoutSeconds * 1000, connectionsCheckingInterval: 1000 },
  }).withTypeProvider<ZodTypeProvider>();
  capConnectionsPerAddress(app.server, http.connectionsPerAddress, deps.config.trustProxy);
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);

  // Hooks run in the order they are added, and one that answers early (the access check's 401
  // and 403) skips the rest: the security headers come first so that every answer has them, and
  // the request budget next so that a refused request costs nothing more.
  registerSecurityHeaders(app, deps.config.shops);
  registerRequestBudget(app, deps);
  registerLingeringClose(app);
  registerAccessControl(app, deps);
  registerErrorHandler(app);
  registerJsonBodyParser(app);
  // Uploads (logo, KYB) are read as streams by `http/upload.ts`, which sets each route's limits;
  // these defaults only bound a route that forgets to. JSON bodies keep their own parser.
  await app.register(multipart, {
    limits: { fileSize: KYB_MAX_BYTES, files: 1, fields: 0, parts: 1 },
    throwFileSizeLimit: true,
  });
  registerTextInputGuard(app);
  registerEventStreamDrain(app);

  await app.register(swagger, {
    openapi: {
      openapi: OPENAPI_VERSION,
      info: { title: 'Rayo API', version: '1.0.0', description: 'Merchant API for Bitcoin Lightning payments' },
      components: { securitySchemes: { bearer: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' } } },
      security: [{ bearer: [] }],
    },
    transform: jsonSchemaTransform,
    transformObject: (document) => completeApiDocument('openapiObject' in document ? document.openapiObject : {}),
  });
  await app.register(swaggerUi, { routePrefix: '/api/docs', staticCSP: true });

  registerMetaRoutes(app, deps);
  registerAuthRoutes(app, deps);
  registerSignUpRoutes(app, deps);
  registerCountryRoutes(app, deps);
  registerAccountRoutes(app, deps);
  registerManagerRoutes(app, deps);
  registerRateRoutes(app, deps);
  registerBptRoutes(app, deps);
  registerInvoiceRoutes(app, deps);
  registerVirtualBptRoutes(app, deps);
  registerPaymentLinkRoutes(app, deps);
  registerCheckoutRoutes(app, deps);
  registerReceiptRoutes(app, deps);
  registerOrganizationRoutes(app, deps);
  registerDashboardRoutes(app, deps);
  registerDayCloseRoutes(app, deps);
  registerBackOfficeRoutes(app, deps);
  registerBackOfficePaymentRoutes(app, deps);
  registerSettingsRoutes(app, deps);
  registerBrandingRoutes(app, deps);
  registerKybRoutes(app, deps);
  registerPayoutRoutes(app, deps);
  registerOnchainPayoutRoutes(app, deps);
  registerPayoutCancelRoutes(app, deps);
  registerRefundRoutes(app, deps);
  registerCheckoutProtectionRoutes(app, deps);
  registerDeveloperTokenRoutes(app, deps);
  registerLanguageRoutes(app, deps);
  registerMfaRoutes(app, deps);
  registerWebhookRoutes(app, deps);
  registerStoreCheckoutRoutes(app, deps);
  registerShopRoutes(app, deps);
  registerShopifyWebhookRoutes(app, deps);
  registerDonationRoutes(app, deps);
  // Also serves LUD-16's `/.well-known/lnurlp/:name`, outside /api, so before the SPA's catch-all.
  registerLnurlPayRoutes(app, deps);
  if (deps.config.lightning.backend === 'devnet') registerDevnetRoutes(app, deps);
  // Outside /api, where Prometheus looks by default, so before the SPA's catch-all.
  if (deps.config.metrics.token) registerMetricsRoute(app, deps.config.metrics.token);
  await registerSpa(app, deps.config.webDistDir);

  const prune = setInterval(() => {
    pruneRateLimits(deps.db).catch((error) =>
      app.log.warn({ err: error }, 'rate-limit pruning failed; it runs again in 10 minutes'),
    );
    pruneRefreshTokens(deps.db).catch((error) =>
      app.log.warn({ err: error }, 'refresh-token pruning failed; it runs again in 10 minutes'),
    );
  }, PRUNE_INTERVAL_MS);
  prune.unref();
  app.addHook('onClose', async () => clearInterval(prune));

  return app;
}
