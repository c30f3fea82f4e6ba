import path from 'node:path';
import { parseArgs } from 'node:util';
import { loadConfig } from '../config.ts';
import { restoreEmbeddedDatabase } from '../db/embedded-backup.ts';

const usage = `Replaces the embedded PostgreSQL's data with a backup made by npm run backup.

  npm run restore -- FILE

Stop Rayo first. The data it replaces is kept in DATA_DIR/before-restore-<date and time>/.`;

const { positionals, values } = parseArgs({ allowPositionals: true, options: { help: { type: 'boolean' } } });
if (values.help || positionals.length !== 1) {
  console.log(usage);
  process.exit(values.help ? 0 : 2);
}
const config = loadConfig();
if (config.databaseUrl) {
  console.error(
    'npm run restore writes the embedded PostgreSQL, and DATABASE_URL is set (docs/operations.md "Backups").',
  );
  process.exit(2);
}
const file = path.resolve(process.env.INIT_CWD ?? process.cwd(), positionals[0] as string);

let exitCode = 0;
try {
  const { manifest, keptIn, summary } = await restoreEmbeddedDatabase({
    dataDir: config.dataDir,
    port: config.embeddedPgPort,
    file,
    log: (message) => console.log(message),
  });
  const lastSale = summary.lastSaleAt ? `, the last of ${summary.lastSaleAt.toISOString()}` : '';
  console.log(`Restored the backup of ${manifest.takenAt} into ${config.dataDir}.`);
  console.log(`It holds ${summary.organizations} organizations and ${summary.sales} sales${lastSale}.`);
  if (keptIn) console.log(`The data it replaced is in ${keptIn}; delete that folder once Rayo runs as expected.`);
  console.log('Start Rayo as usual.');
} catch (error) {
  console.error(`The restore failed: ${error instanceof Error ? error.message : error}`);
  exitCode = 1;
}
process.exit(exitCode);
