import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { chmod, mkdtemp, readdir, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ledgerDigest } from '../../test/ledger-digest.ts';
import { type ServerProcess, startServerProcess } from '../../test/server-process.ts';
import { openShop } from '../../test/server-shop.ts';
import { waitFor } from '../../test/wait-for.ts';
import { payDevnetInvoice } from '../adapters/lightning/devnet.ts';
import { countTransactionsForPayment } from '../modules/transactions/transactions.repo.ts';
import { freePort } from '../ports.ts';
import { createDatabase, type Db } from './database.ts';
import { backupEmbeddedDatabase } from './embedded-backup.ts';
import { liveClusterUrl } from './embedded-postgres.ts';

const run = promisify(execFile);
const CLI = path.join(import.meta.dirname, '../cli');

/** Runs `npm run backup` or `npm run restore` as the operator would, on the test's data directory. */
async function cli(
  command: 'backup' | 'restore',
  env: Record<string, string>,
  file: string,
): Promise<{ code: number; output: string }> {
  try {
    const { stdout, stderr } = await run(process.execPath, [path.join(CLI, `${command}.ts`), file], {
      env: { ...process.env, DATABASE_URL: '', ...env },
    });
    return { code: 0, output: stdout + stderr };
  } catch (error) {
    const failed = error as { code: number; stdout: string; stderr: string };
    return { code: failed.code, output: failed.stdout + failed.stderr };
  }
}

describe('npm run backup and npm run restore on the embedded PostgreSQL', () => {
  let dataDir = '';
  let env: Record<string, string> = {};
  let server: ServerProcess | undefined;
  let db: Db | undefined;

  /** Starts Rayo on the test's data directory and connects to its PostgreSQL. */
  async function startRayo(): Promise<Db> {
    server = await startServerProcess(undefined, env);
    const url = await liveClusterUrl(env.DATA_DIR as string);
    if (!url) throw new Error(`no PostgreSQL answers for ${env.DATA_DIR}`);
    db = createDatabase(url, 2);
    return db;
  }
  async function stopRayo(): Promise<void> {
    await db?.destroy();
    db = undefined;
    await server?.stop();
    server = undefined;
  }

  beforeAll(async () => {
    dataDir = await mkdtemp(path.join(os.tmpdir(), 'rayo-backup-'));
    // As root, PostgreSQL runs as the `postgres` user, which must reach the cluster directory inside.
    await chmod(dataDir, 0o755);
    env = {
      DATA_DIR: path.join(dataDir, 'data'),
      EMBEDDED_PG_PORT: String(await freePort()),
      SEED_DEMO: 'false',
      RECONCILE_SECONDS: '3600',
    };
  }, 120_000);

  afterAll(async () => {
    await stopRayo();
    await rm(dataDir, { recursive: true, force: true });
  });

  it('restores a backup taken while sales were recorded to the ledger as it was when the backup stopped', async () => {
    const live = await startRayo();
    const shop = await openShop((server as ServerProcess).url, live);
    const sell = async () => {
      const invoice = await shop.charge();
      await payDevnetInvoice(live, invoice.paymentRequest);
      await waitFor(async () => (await countTransactionsForPayment(live, invoice.paymentHash)) === 1);
    };
    for (let i = 0; i < 3; i++) await sell();

    // Sales go on while the data directory is copied, and more are recorded once it is copied:
    // the copy alone has none of those, only the WAL replayed at the first start has them.
    let selling = true;
    let soldDuringCopy = 0;
    let seller: Promise<void> = Promise.resolve();
    let atStop = '';
    const file = path.join(dataDir, 'while-selling.tar.gz');
    const manifest = await backupEmbeddedDatabase({
      dataDir: env.DATA_DIR as string,
      port: Number(env.EMBEDDED_PG_PORT),
      file,
      log: () => {},
      onStep: async (step) => {
        if (step === 'started') {
          seller = (async () => {
            while (selling) {
              await sell();
              soldDuringCopy++;
            }
          })();
          await waitFor(() => soldDuringCopy > 0, 60_000);
        }
        if (step === 'copied') {
          selling = false;
          await seller;
          await sell();
          await sell();
          atStop = await ledgerDigest(live);
        }
      },
    });
    expect(manifest.walFiles).toBeGreaterThan(0);
    expect(soldDuringCopy).toBeGreaterThan(0);
    const salesAtStop = 3 + soldDuringCopy + 2;
    await sell();
    const afterBackup = await ledgerDigest(live);
    expect(afterBackup).not.toBe(atStop);

    const refused = await cli('restore', env, file);
    expect(refused.code).toBe(1);
    expect(refused.output).toMatch(/Rayo \(pid \d+\) is already running .* stop it first/);

    await stopRayo();
    // With Rayo stopped, the backup starts the embedded PostgreSQL itself.
    const stoppedFile = path.join(dataDir, 'while-stopped.tar.gz');
    const stopped = await cli('backup', env, stoppedFile);
    expect(stopped.output).toContain(`to ${stoppedFile}`);
    expect(stopped.code).toBe(0);

    const restored = await cli('restore', env, file);
    expect(restored.output).toContain(`It holds 1 organizations and ${salesAtStop} sales`);
    expect(restored.code).toBe(0);
    const kept = (await readdir(env.DATA_DIR as string)).filter((name) => name.startsWith('before-restore-'));
    expect(kept).toHaveLength(1);
    expect(existsSync(path.join(env.DATA_DIR as string, kept[0] as string, 'postgres', 'PG_VERSION'))).toBe(true);

    expect(await ledgerDigest(await startRayo())).toBe(atStop);
    await stopRayo();

    const restoredLater = await cli('restore', env, stoppedFile);
    expect(restoredLater.output).toContain(`It holds 1 organizations and ${salesAtStop + 1} sales`);
    expect(await ledgerDigest(await startRayo())).toBe(afterBackup);
  }, 600_000);
});
