import type { Logger } from 'pino';
import { createChainBackend } from './adapters/chain/index.ts';
import { createLightningBackend } from './adapters/lightning/index.ts';
import { createMailer } from './adapters/mail/mailer.ts';
import { createRateSource } from './adapters/rates/index.ts';
import type { AppDeps } from './app.ts';
import type { Config } from './config.ts';
import { type Db, onConnectionLost, type ReadDb } from './db/database.ts';
import { type Clock, systemClock } from './domain/clock.ts';
import { closeReportsPass, SEND_CLOSE_REPORT_TASK, sendCloseReportTask } from './jobs/close-reports.ts';
import { deliverWebhookTask } from './jobs/deliver-webhook.ts';
import { markShopOrderPaidTask } from './jobs/mark-shop-order-paid.ts';
import { paymentPasses, startSettlementStream } from './jobs/payment-jobs.ts';
import { startJobWorker } from './jobs/worker.ts';
import { createLog, type LogOutput } from './log.ts';
import { observeDatabase, startMetricsServer } from './metrics.ts';
import { loadServerSecret } from './modules/auth/auth.service.ts';
import { createTokenIssuer } from './modules/auth/tokens.ts';
import { startCheckoutEventHub } from './modules/checkouts/checkout-events.ts';
import { registerCheckoutSettlementHandlers } from './modules/checkouts/checkouts.service.ts';
import { registerDonationSettlementHandlers } from './modules/donations/donations.service.ts';
import { startInvoiceEventHub } from './modules/ledger/invoice-events.ts';
import { createSecretCipher } from './modules/mfa/secret-cipher.ts';
import { refreshRates, startRateRefresh } from './modules/rates/rates.service.ts';
import { registerShopSettlementHandlers } from './modules/shops/shop-orders.service.ts';
import { MARK_ORDER_PAID_TASKS } from './modules/shops/shops.repo.ts';
import { DELIVER_WEBHOOK_TASK } from './modules/webhooks/webhooks.repo.ts';

export type Runtime = { deps: AppDeps & { log: Logger }; stop: () => Promise<void> };

/** `logDestination` takes the log instead of stdout, so tests can read what would be logged. */
export type RuntimeOptions = {
  jobs?: boolean;
  logDestination?: LogOutput;
  /** How often the job worker looks for jobs due later; tests shorten it. */
  jobPollIntervalMs?: number;
  clock?: Clock;
};

/**
 * Each selling source tells the ledger what its settled sales change, before anything can settle
 * (modules/ledger/settlement-handlers.ts). A terminal's sale changes nothing else and has none.
 */
function registerSettlementHandlers(): void {
  registerCheckoutSettlementHandlers();
  registerShopSettlementHandlers();
  registerDonationSettlementHandlers();
}

/**
 * Everything a server process runs besides HTTP: the Lightning backend and its settlement
 * stream, the invoice event relay, rate refreshes and the payment jobs. `main.ts` and the tests
 * both start it, so tests run the same wiring as production.
 */
export async function startRuntime(
  config: Config,
  database: { db: Db; url: string; readDb?: ReadDb },
  options: RuntimeOptions = {},
): Promise<Runtime> {
  registerSettlementHandlers();
  const log = await createLog(config.logLevel, options.logDestination);
  const { db } = database;
  const readDb = database.readDb ?? db;
  for (const pool of new Set([db, readDb])) {
    onConnectionLost(pool, (error, role) =>
      log.warn({ err: error, pool: role }, 'PostgreSQL connection lost; the pool opens a new one at its next use'),
    );
  }
  const tokens = createTokenIssuer(await loadServerSecret(db, 'jwt', config.jwtSecret), config.accessTokenTtlSeconds);
  const mfaCipher = createSecretCipher(await loadServerSecret(db, 'mfa', config.mfaEncryptionKey));
  const lightning = await createLightningBackend(config, database, log);
  const chain = createChainBackend(config, db);
  const rateSource = createRateSource(config);
  // The first prices are fetched before serving, so terminals can charge at once; a source
  // that is down at boot must not keep Rayo from starting.
  await refreshRates({ db, rateSource }).catch((error: unknown) =>
    log.warn({ err: error }, 'could not fetch exchange rates at start; the next refresh tries again'),
  );
  const events = await startInvoiceEventHub(database.url, log);
  const checkoutEvents = await startCheckoutEventHub(database.url, log);
  const mailer = createMailer(config, log);
  const clock = options.clock ?? systemClock;
  const stops: Array<() => Promise<void> | void> = [];
  observeDatabase(db, readDb);
  if (config.metrics.port !== undefined) {
    const metrics = await startMetricsServer(config.metrics.host, config.metrics.port);
    log.info({ host: config.metrics.host, port: metrics.port }, 'metrics served at /metrics');
    stops.push(metrics.stop);
  }
  if (options.jobs !== false) {
    stops.push(startRateRefresh({ db, config, rateSource }, log));
    stops.push(
      await startJobWorker({
        db,
        databaseUrl: database.url,
        log,
        tasks: {
          [DELIVER_WEBHOOK_TASK]: deliverWebhookTask({ db, config, mfaCipher }),
          [MARK_ORDER_PAID_TASKS.shopify]: markShopOrderPaidTask({ db, config, mfaCipher }),
          [MARK_ORDER_PAID_TASKS.ecwid]: markShopOrderPaidTask({ db, config, mfaCipher }),
          [SEND_CLOSE_REPORT_TASK]: sendCloseReportTask({ db, mailer, clock }),
        },
        periodic: [...paymentPasses({ db, config, lightning, chain }, log), closeReportsPass({ db, clock })],
        pollIntervalMs: options.jobPollIntervalMs,
      }),
    );
    stops.push(startSettlementStream({ db, config, lightning, chain }, log));
  }
  log.info(
    {
      lightning: lightning.name,
      network: lightning.network,
      chain: chain.name,
      chainNetwork: chain.network,
      rates: rateSource.name,
    },
    'payments ready',
  );
  return {
    deps: {
      db,
      readDb,
      config,
      tokens,
      lightning,
      events,
      checkoutEvents,
      mailer,
      mfaCipher,
      log,
      clock,
    },
    stop: async () => {
      for (const stop of stops) await stop();
      await lightning.close?.();
      await events.close();
      await checkoutEvents.close();
      mailer.close();
    },
  };
}
