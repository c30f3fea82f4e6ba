import { execFile, spawn } from 'node:child_process';
import { openSync } from 'node:fs';
import { copyFile, cp, mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { findProgram, WOOCOMMERCE_TARBALL, WORDPRESS_TARBALL } from './prerequisites.ts';

const run = promisify(execFile);
const PHP_DIR = path.join(import.meta.dirname, 'php');
const PLUGIN_DIR = path.resolve(import.meta.dirname, '../../integrations/woocommerce/rayo-for-woocommerce');
/** A first start of MariaDB on a busy two-core machine. */
const MARIADB_START_MS = 120_000;

/** The environment the shops of this run share; set here, read by the workers (shop.ts). */
export const SHOPS_DIR_VARIABLE = 'RAYO_WOO_DIR';

/**
 * Unpacks WordPress and WooCommerce into a temporary directory, with the plugin as this working
 * tree has it, and starts a MariaDB of the run's own there: listening on a socket only, so two
 * runs never share a port. Each test worker installs its shop on it (shop.ts).
 */
export default async function setUpShops(): Promise<() => Promise<void>> {
  const dir = await mkdtemp(path.join(tmpdir(), 'rayo-woo-'));
  const wordpress = path.join(dir, 'wordpress');
  await run('tar', ['-xzf', WORDPRESS_TARBALL, '-C', dir]);
  await run('tar', ['-xzf', WOOCOMMERCE_TARBALL, '-C', path.join(wordpress, 'wp-content/plugins')]);
  await cp(PLUGIN_DIR, path.join(wordpress, 'wp-content/plugins/rayo-for-woocommerce'), { recursive: true });
  await mkdir(path.join(wordpress, 'wp-content/mu-plugins'));
  await copyFile(path.join(PHP_DIR, 'mailbox.php'), path.join(wordpress, 'wp-content/mu-plugins/mailbox.php'));
  await copyFile(path.join(PHP_DIR, 'wp-config.php'), path.join(wordpress, 'wp-config.php'));

  const data = path.join(dir, 'mariadb');
  const socket = path.join(dir, 'mariadb.sock');
  // As root, MariaDB must be told to stay root; as anyone else it runs as that user.
  const asUser = process.getuid?.() === 0 ? ['--user=root'] : [];
  await run(findProgram('mariadb-install-db') ?? 'mariadb-install-db', [
    '--no-defaults',
    `--datadir=${data}`,
    '--auth-root-authentication-method=normal',
    '--skip-test-db',
    ...asUser,
  ]);
  const log = openSync(path.join(dir, 'mariadb.log'), 'a');
  const mariadb = spawn(
    findProgram('mariadbd') ?? 'mariadbd',
    ['--no-defaults', `--datadir=${data}`, `--socket=${socket}`, '--skip-networking', ...asUser],
    { stdio: ['ignore', log, log] },
  );
  const exited = new Promise<void>((resolve) => mariadb.once('exit', () => resolve()));
  const deadline = Date.now() + MARIADB_START_MS;
  for (;;) {
    const ready = await run('mariadb', ['--no-defaults', `--socket=${socket}`, '-uroot', '-e', 'select 1']).then(
      () => true,
      () => false,
    );
    if (ready) break;
    if (mariadb.exitCode !== null || Date.now() > deadline) {
      throw new Error(`MariaDB did not start; see ${path.join(dir, 'mariadb.log')}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  process.env[SHOPS_DIR_VARIABLE] = dir;

  return async () => {
    mariadb.kill('SIGTERM');
    await exited;
    await rm(dir, { recursive: true, force: true });
  };
}
