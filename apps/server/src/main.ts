import { buildApp } from './app.ts';
import { loadConfig } from './config.ts';
import { openDatabase } from './db/open-database.ts';
import { DEMO_PASSWORD, demoUsers, seedDemo } from './db/seed-demo.ts';
import { loadSigningSecret } from './modules/auth/auth.service.ts';
import { createTokenIssuer } from './modules/auth/tokens.ts';

const config = loadConfig();
const database = await openDatabase(config, (message) => console.log(message));
const { db } = database;

if (database.embedded && config.seedDemo) {
  if (await seedDemo(db)) console.log('Seeded the demo organization "Demo Café".');
}

const secret = await loadSigningSecret(db, config.jwtSecret);
const app = await buildApp({ db, config, tokens: createTokenIssuer(secret, config.accessTokenTtlSeconds) });

let stopping = false;
async function shutdown(signal: string): Promise<void> {
  if (stopping) return;
  stopping = true;
  app.log.info({ signal }, 'shutting down');
  await app.close();
  await database.close();
  process.exit(0);
}
process.once('SIGINT', () => void shutdown('SIGINT'));
process.once('SIGTERM', () => void shutdown('SIGTERM'));

await app.listen({ host: config.host, port: config.port });

if (database.embedded && config.seedDemo) {
  const lines = demoUsers.map((user) => `  ${user.email.padEnd(24)} ${user.role}`);
  console.log(`\nRayo is running on ${config.publicUrl}`);
  console.log(`Demo users (password ${DEMO_PASSWORD}):\n${lines.join('\n')}\n`);
}
