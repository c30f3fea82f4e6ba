import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { openSync } from 'node:fs';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { type APIRequestContext, test as base, expect } from '@playwright/test';
import { freePort } from '../../apps/server/src/ports.ts';
import { sendJson, signUpShop } from '../tests/support.ts';
import { SHOPS_DIR_VARIABLE } from './global-setup.ts';
import { findProgram } from './prerequisites.ts';

const run = promisify(execFile);
const PHP_DIR = path.join(import.meta.dirname, 'php');
const RAYO_PASSWORD = 'Tienda-Woo-2026!';
/** The events the plugin's settings page tells the merchant to subscribe. */
export const CHECKOUT_EVENTS = ['checkout.paid', 'checkout.expired', 'checkout.processing', 'checkout.underpaid'];

export type ShopOrder = {
  id: number;
  status: string;
  transactionId: string;
  datePaid: string | null;
  checkoutId: string;
  attempt: string;
  notes: string[];
  storage: 'hpos' | 'posts';
};
export type ShopMail = { to: string[]; subject: string };

/** A WordPress with WooCommerce and the plugin, connected to a Rayo organization of its own. */
export type Shop = {
  url: string;
  hpos: boolean;
  productId: number;
  productUrl: string;
  blockCheckoutUrl: string;
  classicCheckoutUrl: string;
  webhookUrl: string;
  /** The Rayo admin's access token, and the endpoint the shop's webhooks come from. */
  rayo: { token: string; endpointId: string; secret: string };
  /** Runs a command of php/shop-cli.php in this shop and answers its JSON. */
  cli: <T>(command: string, ...args: string[]) => Promise<T>;
  order: (id: number) => Promise<ShopOrder>;
  stock: () => Promise<number>;
  /** What PHP wrote to the debug log since the shop was set up. */
  debugLog: () => Promise<string>;
  /** The mails WordPress sent (the mailbox mu-plugin records them instead). */
  mails: () => Promise<ShopMail[]>;
};

/** What `shop-cli.php set-up` made. */
type StoreSetUp = Pick<Shop, 'productId' | 'productUrl' | 'blockCheckoutUrl' | 'classicCheckoutUrl'>;

/** The shopper's details, as typed in both checkouts. */
export const SHOPPER = {
  email: 'ana.lopez@example.com',
  firstName: 'Ana',
  lastName: 'López',
  address: '6a Avenida 10-20',
  city: 'Huehuetenango',
  department: 'Huehuetenango',
};

async function waitUntilServing(url: string, server: ChildProcess): Promise<void> {
  for (let tries = 0; tries < 240; tries += 1) {
    if (server.exitCode !== null) throw new Error(`php -S for ${url} exited with ${server.exitCode}`);
    if (
      await fetch(`${url}/wp-admin/install.php`).then(
        (response) => response.ok,
        () => false,
      )
    )
      return;
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  throw new Error(`${url} did not answer`);
}

/** The organization the shop sells for, with its developer token and webhook endpoint, as a merchant sets them up. */
async function openRayo(request: APIRequestContext, webhookUrl: string) {
  const merchant = await signUpShop(request, {
    emailPrefix: 'woo',
    emailDomain: 'tienda.example',
    name: 'Tienda Woo',
    password: RAYO_PASSWORD,
  });
  const account = await sendJson<{ id: string }>(request, '/api/accounts', { name: 'Online' }, merchant.token);
  const bpt = await sendJson<{ id: string }>(
    request,
    '/api/bpts',
    { name: 'Web till', accountId: account.id, currency: 'GTQ' },
    merchant.token,
  );
  await sendJson(request, '/api/virtual-bpts', { name: 'WooCommerce', bptId: bpt.id }, merchant.token);
  const developer = await sendJson<{ token: string }>(
    request,
    '/api/settings/developer-tokens',
    { name: 'WooCommerce' },
    merchant.token,
  );
  const endpoint = await sendJson<{ id: string; secret: string }>(
    request,
    '/api/webhooks',
    { url: webhookUrl, events: CHECKOUT_EVENTS },
    merchant.token,
  );
  return { token: merchant.token, developerToken: developer.token, endpointId: endpoint.id, secret: endpoint.secret };
}

/**
 * The worker's shop: a database on the run's MariaDB, WordPress served by `php -S` on a free
 * port and installed through its installer over HTTP, WooCommerce and the plugin activated, the
 * store set up with HPOS on or off, and the gateway configured against this run's Rayo.
 */
export const test = base.extend<object, { hpos: boolean; shop: Shop }>({
  hpos: [true, { scope: 'worker', option: true }],
  shop: [
    async ({ hpos, playwright }, use, workerInfo) => {
      const dir = process.env[SHOPS_DIR_VARIABLE];
      if (!dir) throw new Error(`${SHOPS_DIR_VARIABLE} is not set: run with woocommerce.config.ts`);
      const name = `shop_${hpos ? 'hpos' : 'posts'}_${workerInfo.workerIndex}`;
      const socket = path.join(dir, 'mariadb.sock');
      await run(findProgram('mariadb') ?? 'mariadb', [
        '--no-defaults',
        `--socket=${socket}`,
        '-uroot',
        '-e',
        `create database ${name}`,
      ]);
      const url = `http://127.0.0.1:${await freePort()}`;
      const wordpress = path.join(dir, 'wordpress');
      const debugLogFile = path.join(dir, `${name}-debug.log`);
      const mailbox = path.join(dir, `${name}-mail.jsonl`);
      const env = {
        ...process.env,
        SHOP_WORDPRESS: wordpress,
        SHOP_DB: name,
        SHOP_SOCKET: socket,
        SHOP_URL: url,
        SHOP_DEBUG_LOG: debugLogFile,
        SHOP_MAILBOX: mailbox,
        // WordPress calls itself (the Store API, loopback checks) while it answers a request.
        PHP_CLI_SERVER_WORKERS: '4',
      };
      // PHP compiles WordPress and WooCommerce once, not again on every request and command.
      const php = ['-d', 'opcache.enable_cli=1', '-d', `opcache.file_cache=${path.join(dir, 'opcache')}`];
      await mkdir(path.join(dir, 'opcache'), { recursive: true });
      const serverLog = openSync(path.join(dir, `${name}-server.log`), 'a');
      const server = spawn(
        'php',
        [...php, '-S', url.replace('http://', ''), '-t', wordpress, path.join(PHP_DIR, 'router.php')],
        {
          env,
          stdio: ['ignore', serverLog, serverLog],
          // Its own process group: PHP_CLI_SERVER_WORKERS forks workers, which stop with it.
          detached: true,
        },
      );
      try {
        await waitUntilServing(url, server);
        const installed = await fetch(`${url}/wp-admin/install.php?step=2`, {
          method: 'POST',
          body: new URLSearchParams({
            weblog_title: 'Tienda Quetzal',
            user_name: 'merchant',
            admin_password: RAYO_PASSWORD,
            admin_password2: RAYO_PASSWORD,
            pw_weak: '1',
            admin_email: 'merchant@tienda.example',
            blog_public: '0',
          }),
        });
        expect(await installed.text(), 'the WordPress installer').toContain('<h1>Success!</h1>');

        const cli = async <T>(command: string, ...args: string[]): Promise<T> => {
          const { stdout } = await run('php', [...php, path.join(PHP_DIR, 'shop-cli.php'), command, ...args], { env });
          return JSON.parse(stdout) as T;
        };
        await cli('activate');
        const store = await cli<StoreSetUp>('set-up', JSON.stringify({ hpos }));
        const webhookUrl = `${url}/wp-json/rayo/v1/webhook`;
        const rayoUrl = String(workerInfo.project.use.baseURL);
        const request = await playwright.request.newContext({ baseURL: rayoUrl });
        const rayo = await openRayo(request, webhookUrl);
        await request.dispose();
        const gateway = await cli<{ available: boolean }>(
          'configure-gateway',
          JSON.stringify({ rayo_url: rayoUrl, developer_token: rayo.developerToken, webhook_secret: rayo.secret }),
        );
        expect(gateway.available, 'the Rayo gateway is offered once configured').toBe(true);
        // Installing and activating log WordPress's and WooCommerce's own notices (translations
        // asked of wordpress.org, WooCommerce's first run), none of the plugin's; the tests read
        // the log of the shop at work, from here on.
        const setUpLog = await readFile(debugLogFile, 'utf8');
        expect(setUpLog).toContain('PHP Notice:  The test shop writes its debug log.');
        expect(setUpLog).not.toContain('rayo-for-woocommerce');
        await writeFile(debugLogFile, '');

        await use({
          ...store,
          url,
          hpos,
          webhookUrl,
          rayo,
          cli,
          order: (id) => cli<ShopOrder>('order', String(id)),
          stock: async () => (await cli<{ stock: number }>('stock', String(store.productId))).stock,
          debugLog: () => readFile(debugLogFile, 'utf8').catch(() => ''),
          mails: async () =>
            (await readFile(mailbox, 'utf8').catch(() => ''))
              .split('\n')
              .filter(Boolean)
              .map((line) => JSON.parse(line) as ShopMail),
        });
      } finally {
        if (server.pid) process.kill(-server.pid, 'SIGTERM');
      }
    },
    { scope: 'worker', timeout: 600_000 },
  ],
});
