import { spawnSync } from 'node:child_process';
import { accessSync, constants, existsSync } from 'node:fs';
import path from 'node:path';

/**
 * The released WordPress and WooCommerce, kept beside the repository (`../shared/vendor`), never
 * in it; VENDOR_DIR names another place (a worktree's checkout lives elsewhere).
 */
export const VENDOR_DIR = process.env.VENDOR_DIR ?? path.resolve(import.meta.dirname, '../../../shared/vendor');
export const WORDPRESS_TARBALL = path.join(VENDOR_DIR, 'wordpress-6.8.8.tar.gz');
export const WOOCOMMERCE_TARBALL = path.join(VENDOR_DIR, 'woocommerce-10.0.2.tar.gz');

/** The PHP extensions WordPress and WooCommerce use here (Debian's php-mysql, php-curl, php-mbstring, php-xml, php-intl, php-zip, php-gd). */
const PHP_EXTENSIONS = ['mysqli', 'curl', 'mbstring', 'dom', 'intl', 'zip', 'gd'];

/** The path of a program on PATH or in the sbin directories (where Debian puts mariadbd), if any. */
export function findProgram(name: string): string | undefined {
  const dirs = [...(process.env.PATH ?? '').split(path.delimiter), '/usr/local/sbin', '/usr/sbin', '/sbin'];
  for (const dir of dirs.filter(Boolean)) {
    const candidate = path.join(dir, name);
    try {
      accessSync(candidate, constants.X_OK);
      return candidate;
    } catch {
      // Not in this directory.
    }
  }
  return undefined;
}

/** What this machine lacks to run a real WordPress with WooCommerce; empty when nothing. */
export function missingPrerequisites(): string[] {
  const missing = [WORDPRESS_TARBALL, WOOCOMMERCE_TARBALL].filter((file) => !existsSync(file));
  for (const program of ['mariadbd', 'mariadb-install-db', 'mariadb', 'tar']) {
    if (!findProgram(program)) missing.push(program);
  }
  const php = spawnSync('php', ['-r', 'echo implode(",", get_loaded_extensions());'], { encoding: 'utf8' });
  if (php.status !== 0) return [...missing, 'php'];
  const loaded = new Set(php.stdout.toLowerCase().split(','));
  return [...missing, ...PHP_EXTENSIONS.filter((extension) => !loaded.has(extension)).map((name) => `php ${name}`)];
}
