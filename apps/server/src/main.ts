import { buildApp } from './app.ts';
import { loadConfig } from './config.ts';
import { openDatabase } from './db/open-database.ts';
import { DEMO_PASSWORD, demoUsers, seedDemo } from './db/seed-demo.ts';
import { startRuntime } from './runtime.ts';

const config = loadConfig();
const database = await openDatabase(config, (message) => console.log(message));

if (database.embedded && config.seedDemo) {
  if (await seedDemo(database.db)) console.log('Seeded the demo organization "Demo Café".');
}

const runtime = await startRuntime(config, database);
const app = await buildApp(runtime.deps);

let stopping = false;
async function shutdown(signal: string): Promise<void> {
  if (stopping) return;
  stopping = true;
  app.log.info({ signal }, 'shutting down');
  await app.close();
  await runtime.stop();
  await database.close();
  process.exit(0);
}
process.once('SIGINT', () => void shutdown('SIGINT'));
process.once('SIGTERM', () => void shutdown('SIGTERM'));

await app.listen({ host: config.host, port: config.port });

if (runtime.deps.lightning.name === 'devnet') {
  console.log('Payments go to the built-in devnet Lightning node: test invoices, no real bitcoin.');
}
if (database.embedded && config.seedDemo) {
  const lines = demoUsers.map((user) => `  ${user.email.padEnd(24)} ${user.role}`);
  console.log(`\nRayo is running on ${config.publicUrl}`);
  console.log(`Demo users (password ${DEMO_PASSWORD}):\n${lines.join('\n')}\n`);
  if (runtime.deps.lightning.name === 'devnet') console.log(`Devnet wallet: ${config.publicUrl}/devnet/wallet\n`);
}
