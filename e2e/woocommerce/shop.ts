import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { openSync } from 'node:fs';
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { type APIRequestContext, type Browser, test as base, expect } from '@playwright/test';
import { freePort } from '../../apps/server/src/ports.ts';
import { sendJson, signUpShop } from '../tests/support.ts';
import { SHOPS_DIR_VARIABLE } from './global-setup.ts';
import { findProgram } from './prerequisites.ts';

const run = promisify(execFile);
const PHP_DIR = path.join(import.meta.dirname, 'php');
/** The merchant's password, in Rayo and in the shop's WordPress. */
const PASSWORD = 'Tienda-Woo-2026!';
/** The merchant's user name and address in the shop's WordPress, and the shop's title. */
const MERCHANT = 'merchant';
export const MERCHANT_EMAIL = 'merchant@tienda.example';
export const SHOP_TITLE = 'Tienda Quetzal';
/** The events the plugin's settings page tells the merchant to subscribe. */
export const CHECKOUT_EVENTS = [
  'checkout.paid',
  'checkout.expired',
  'checkout.processing',
  'checkout.underpaid',
  'checkout.refunded',
];

export type ShopOrder = {
  id: number;
  status: string;
  transactionId: string;
  datePaid: string | null;
  checkoutId: string;
  attempt: string;
  notes: string[];
  /** WooCommerce's refunds of the order, oldest first; `rayoRefundId` is empty on one made in WooCommerce. */
  refunds: { amount: string; reason: string; rayoRefundId: string }[];
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
    password: PASSWORD,
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
 * The merchant signs in to WordPress and fills WooCommerce → Settings → Payments → Rayo, whose
 * page names the address to register in Rayo: the one the shop's endpoint was made with.
 */
async function configureGateway(
  browser: Browser,
  url: string,
  webhookUrl: string,
  settings: { rayoUrl: string; developerToken: string; secret: string },
): Promise<void> {
  const context = await browser.newContext({ baseURL: url });
  const page = await context.newPage();
  const adminPage = expect.configure({ timeout: 60_000 });
  await page.goto('/wp-login.php');
  await page.getByLabel('Username or Email Address').fill(MERCHANT);
  await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
  await page.getByRole('button', { name: 'Log In' }).click();
  await page.waitForURL(/\/wp-admin\//, { timeout: 60_000 });
  await page.goto('/wp-admin/admin.php?page=wc-settings&tab=checkout&section=rayo');
  await adminPage(page.getByLabel('Accept bitcoin with Rayo')).toBeVisible();
  await expect(page.locator('code', { hasText: webhookUrl })).toHaveText(webhookUrl);
  await page.getByLabel('Accept bitcoin with Rayo').check();
  await page.getByLabel('Rayo URL').fill(settings.rayoUrl);
  await page.getByLabel('Developer token').fill(settings.developerToken);
  await page.getByLabel('Webhook secret').fill(settings.secret);
  await page.getByRole('button', { name: 'Save changes' }).click();
  await adminPage(page.getByText('Your settings have been saved.')).toBeVisible();
  await context.close();
}

/**
 * The worker's shop: a database on the run's MariaDB, WordPress served by `php -S` on a free
 * port and installed through its installer over HTTP, WooCommerce and the plugin activated, the
 * store set up with HPOS on or off, and the gateway configured against this run's Rayo.
 */
export const test = base.extend<object, { hpos: boolean; shop: Shop }>({
  hpos: [true, { scope: 'worker', option: true }],
  shop: [
    async ({ hpos, browser, playwright }, use, workerInfo) => {
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
        // WordPress calls itself (the Store API, loopback checks) while it answers a request, and
        // Rayo's webhooks must not wait behind the browser's requests for scripts and styles.
        PHP_CLI_SERVER_WORKERS: '8',
      };
      const serverLog = openSync(path.join(dir, `${name}-server.log`), 'a');
      const server = spawn(
        'php',
        // The server's workers share one compiled WordPress and WooCommerce in memory. (Not
        // opcache.file_cache: a second shop loading the first one's compiled files segfaulted
        // PHP 8.2.36 while it rendered WooCommerce's customer emails.)
        [
          '-d',
          'opcache.enable_cli=1',
          '-S',
          url.replace('http://', ''),
          '-t',
          wordpress,
          path.join(PHP_DIR, 'router.php'),
        ],
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
            weblog_title: SHOP_TITLE,
            user_name: MERCHANT,
            admin_password: PASSWORD,
            admin_password2: PASSWORD,
            pw_weak: '1',
            admin_email: MERCHANT_EMAIL,
            blog_public: '0',
          }),
        });
        expect(await installed.text(), 'the WordPress installer').toContain('<h1>Success!</h1>');

        const cli = async <T>(command: string, ...args: string[]): Promise<T> => {
          const { stdout } = await run('php', [path.join(PHP_DIR, 'shop-cli.php'), command, ...args], { env });
          return JSON.parse(stdout) as T;
        };
        await cli('activate');
        const store = await cli<StoreSetUp>('set-up', JSON.stringify({ hpos }));
        const webhookUrl = `${url}/wp-json/rayo/v1/webhook`;
        const rayoUrl = String(workerInfo.project.use.baseURL);
        const request = await playwright.request.newContext({ baseURL: rayoUrl });
        const rayo = await openRayo(request, webhookUrl);
        await request.dispose();
        await configureGateway(browser, url, webhookUrl, {
          rayoUrl,
          developerToken: rayo.developerToken,
          secret: rayo.secret,
        });
        const gateway = await cli<{ available: boolean; settings: Record<string, string> }>('gateway');
        expect(gateway).toEqual({
          available: true,
          settings: expect.objectContaining({
            enabled: 'yes',
            rayo_url: rayoUrl,
            developer_token: rayo.developerToken,
            webhook_secret: rayo.secret,
          }),
        });
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
