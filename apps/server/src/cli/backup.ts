import { mkdir, stat } from 'node:fs/promises';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { loadConfig, repoRoot } from '../config.ts';
import { backupEmbeddedDatabase } from '../db/embedded-backup.ts';

const usage = `Backs up the embedded PostgreSQL, while Rayo runs or not, into one file.

  npm run backup [-- FILE]

FILE defaults to backups/rayo-<date and time>.tar.gz in the repository. Restore it with
npm run restore -- FILE. With DATABASE_URL, back up that PostgreSQL with its own tools instead
(docs/operations.md "Backups").`;

const { positionals, values } = parseArgs({ allowPositionals: true, options: { help: { type: 'boolean' } } });
if (values.help || positionals.length > 1) {
  console.log(usage);
  process.exit(values.help ? 0 : 2);
}
const config = loadConfig();
if (config.databaseUrl) {
  console.error(
    'npm run backup copies the embedded PostgreSQL, and DATABASE_URL is set: back that server up with ' +
      'pg_basebackup and WAL archiving instead (docs/operations.md "Backups").',
  );
  process.exit(2);
}
const stamp = new Date()
  .toISOString()
  .replace(/[:]/g, '-')
  .replace(/\.\d+Z$/, 'Z');
// npm runs this script in apps/server; a path the operator typed is theirs, from where they typed it.
const file = positionals[0]
  ? path.resolve(process.env.INIT_CWD ?? process.cwd(), positionals[0])
  : path.join(repoRoot, 'backups', `rayo-${stamp}.tar.gz`);

let exitCode = 0;
try {
  await mkdir(path.dirname(file), { recursive: true });
  const manifest = await backupEmbeddedDatabase({
    dataDir: config.dataDir,
    port: config.embeddedPgPort,
    file,
    log: (message) => console.log(message),
  });
  const megabytes = ((await stat(file)).size / 1e6).toFixed(1);
  console.log(`Backed up the embedded PostgreSQL as of ${manifest.takenAt} to ${file} (${megabytes} MB).`);
  console.log(
    "It holds every merchant's records and the keys Rayo generated for itself: keep it as safe as the server. " +
      'JWT_SECRET, MFA_ENCRYPTION_KEY and CHAIN_PAYOUT_XPRV set outside it must be kept too (docs/operations.md "Backups").',
  );
} catch (error) {
  console.error(`The backup failed: ${error instanceof Error ? error.message : error}`);
  exitCode = 1;
}
// The embedded PostgreSQL package exits with 0 on beforeExit, which would hide a failure.
process.exit(exitCode);
