import { execFile } from 'node:child_process';
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { type APIRequestContext, type Browser, expect, type Page } from '@playwright/test';
import type { SignInResponse } from '@rayo/shared';
import { decodeJwt, SignJWT } from 'jose';
import pg from 'pg';
import { runningClusterUrl } from '../../apps/server/src/db/embedded-postgres.ts';
import { E2E_DATA_DIR, E2E_JWT_SECRET, E2E_MAIL_DIR } from '../playwright.config.ts';

export const DEMO_PASSWORD = 'Rayo-demo-2026!';

export const demo = {
  superAdmin: 'superadmin@rayo.local',
  admin: 'admin@rayo.local',
  manager: 'manager@rayo.local',
  backOffice: 'backoffice@rayo.local',
} as const;

export async function signInViaUi(
  page: Page,
  email: string,
  options: { remember?: boolean; password?: string } = {},
): Promise<void> {
  if (!page.url().includes('/login')) await page.goto('/login');
  await page.getByRole('textbox', { name: 'Email' }).fill(email);
  await page.getByRole('textbox', { name: 'Password' }).fill(options.password ?? DEMO_PASSWORD);
  if (options.remember) await page.getByRole('checkbox', { name: 'Remember me' }).check();
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page).not.toHaveURL(/\/login/);
}

/**
 * Opens `path` signed in as `email`, the browser holding what a sign-in without "Remember me"
 * leaves in it (SPEC §3: the access token, role, language and remember in localStorage), the
 * session asked of the API instead of typed into the login form: for journeys about what comes
 * after signing in, which need not load the login page and the home before their own. Signing in
 * through the form is walked by roles.spec.ts for every role, and by session.spec.ts.
 */
export async function openSignedIn(
  page: Page,
  email: string,
  path = '/',
  options: { password?: string; language?: 'en' | 'es' } = {},
): Promise<void> {
  const session = await sendJson<SignInResponse>(page.request, '/api/auth/signin', {
    email,
    password: options.password ?? DEMO_PASSWORD,
  });
  // A file of the app's origin that does not start the app, to write the origin's storage.
  await page.goto('/favicon.svg');
  // `language` stands for the interface's language switch, which only this browser keeps.
  await page.evaluate(
    ({ accessToken, role, language }) => {
      localStorage.setItem('accessToken', accessToken);
      localStorage.removeItem('refreshToken');
      localStorage.setItem('role', role);
      localStorage.setItem('language', language);
      localStorage.setItem('remember', 'false');
    },
    { ...session, language: options.language ?? session.language },
  );
  await page.goto(path);
}

/**
 * A back-office user of a journey's own, made as an operator makes one (`npm run user:create`),
 * for a journey that changes its password, language or MFA, which the demo user must keep.
 */
export async function createBackOfficeUser(password: string, dataDir = E2E_DATA_DIR): Promise<string> {
  const repository = path.resolve(import.meta.dirname, '../..');
  const url = await runningClusterUrl(path.resolve(repository, dataDir));
  if (!url) throw new Error('The e2e server’s PostgreSQL is not running');
  const email = `oficina-${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}@example.com`;
  await promisify(execFile)(
    'node',
    ['apps/server/src/cli/create-user.ts', '--email', email, '--password', password, '--role', 'back_office'],
    { cwd: repository, env: { ...process.env, DATABASE_URL: url, LOG_LEVEL: 'warn' } },
  );
  return email;
}

export function storage(page: Page): Promise<Record<string, string | null>> {
  return page.evaluate(() =>
    Object.fromEntries(
      ['accessToken', 'refreshToken', 'role', 'language', 'remember'].map((key) => [key, localStorage.getItem(key)]),
    ),
  );
}

/** A correctly signed access token for the same user whose expiry has already passed. */
export async function expiredCopyOf(accessToken: string): Promise<string> {
  const claims = decodeJwt(accessToken);
  const past = Math.floor(Date.now() / 1000) - 60;
  return new SignJWT({ role: claims.role, org: claims.org })
    .setProtectedHeader({ alg: 'HS256' })
    .setSubject(String(claims.sub))
    .setIssuer('rayo')
    .setIssuedAt(past - 900)
    .setExpirationTime(past)
    .sign(new TextEncoder().encode(E2E_JWT_SECRET));
}

/** The sidebar entries shown, in order, by their route names. */
export async function sidebarEntries(page: Page): Promise<string[]> {
  const links = page.getByRole('navigation', { name: 'Main' }).locator('[data-nav]');
  await expect(links.first()).toBeVisible();
  return links.evaluateAll((elements) => elements.map((element) => element.getAttribute('data-nav') ?? ''));
}

/** Calls the API as the user signed in on the page, with the token the app stored. */
export async function apiAs<T>(page: Page, method: 'GET' | 'POST', path: string, body?: unknown): Promise<T> {
  const token = await page.evaluate(() => localStorage.getItem('accessToken'));
  const response = await page.request.fetch(path, {
    method,
    headers: { authorization: `Bearer ${token}` },
    data: body,
  });
  expect(response.ok(), `${method} ${path}: ${response.status()}`).toBe(true);
  return response.json() as Promise<T>;
}

/** A sale charged on a BPT and paid from the devnet wallet, as a terminal would; returns its invoice. */
export async function paidSale(
  page: Page,
  bptId: string,
  sale: { amount: string; tip?: string },
): Promise<{ id: string; amountMsat: number; paymentHash: string }> {
  const invoice = await apiAs<{ id: string; paymentRequest: string; amountMsat: number; paymentHash: string }>(
    page,
    'POST',
    `/api/bpts/${bptId}/invoices`,
    sale,
  );
  await apiAs(page, 'POST', '/api/devnet/pay', { paymentRequest: invoice.paymentRequest });
  return invoice;
}

/** Sends JSON through the API, with a bearer token when given, failing the test on any error answer. */
export async function sendJson<T>(
  request: APIRequestContext,
  url: string,
  data: unknown,
  token?: string,
  method: 'POST' | 'PUT' = 'POST',
): Promise<T> {
  const response = await request.fetch(url, {
    method,
    data,
    headers: token ? { authorization: `Bearer ${token}` } : {},
  });
  const body = await response.text();
  expect(response.ok(), `${url}: ${response.status()} ${body}`).toBe(true);
  return (body ? JSON.parse(body) : undefined) as T;
}

/**
 * A fresh organization of the spec's own (never the demo one other specs share), in Guatemala
 * unless told, made as a merchant makes it: sign-up, the emailed confirmation link, onboarding.
 */
export async function signUpShop(
  request: APIRequestContext,
  shop: {
    emailPrefix: string;
    emailDomain: string;
    name: string;
    password: string;
    language?: 'en' | 'es';
    country?: { code: string; currency: string };
  },
) {
  const suffix = `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;
  const email = `${shop.emailPrefix}-${suffix}@${shop.emailDomain}`;
  const name = `${shop.name} ${suffix}`;
  await sendJson(request, '/api/auth/signup', { email, password: shop.password });
  const code = new URL(linkIn(await latestMailTo(email))).searchParams.get('code');
  const session = await sendJson<{ accessToken: string }>(request, '/api/auth/confirm-email', {
    code,
    password: shop.password,
  });
  const { organizationId, accessToken: token } = await sendJson<{ organizationId: string; accessToken: string }>(
    request,
    '/api/onboard',
    {
      name,
      countryCode: shop.country?.code ?? 'GT',
      language: shop.language ?? 'en',
      currency: shop.country?.currency ?? 'GTQ',
    },
    session.accessToken,
  );
  return { email, name, suffix, organizationId, token };
}

/**
 * Writes columns of a journey's own organization where Settings and back office's checks would,
 * for a journey that builds on a state other journeys walk to (as the demo seed writes its own).
 */
export async function writeOrganization(organizationId: string, columns: Record<string, string | number | boolean>) {
  const url = await runningClusterUrl(path.resolve(import.meta.dirname, '../..', E2E_DATA_DIR));
  if (!url) throw new Error('The e2e server’s PostgreSQL is not running');
  const names = Object.keys(columns);
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query(
      `update organizations set ${names.map((name, index) => `${name} = $${index + 2}`).join(', ')} where id = $1`,
      [organizationId, ...Object.values(columns)],
    );
  } finally {
    await client.end();
  }
}

/** The devnet wallet page's labels, in the language it is shown in. */
export type DevnetWalletLabels = { invoice: string; pay: string };
const englishWallet: DevnetWalletLabels = { invoice: 'Lightning invoice', pay: 'Pay' };

/** Pays on a devnet wallet page already open, as a payer pastes an invoice and presses Pay. */
export async function payOnDevnetWallet(wallet: Page, paymentRequest: string, labels = englishWallet) {
  await wallet.getByRole('textbox', { name: labels.invoice }).fill(paymentRequest);
  const paid = wallet.waitForResponse('**/api/devnet/pay');
  await wallet.getByRole('button', { name: labels.pay, exact: true }).click();
  expect((await paid).status()).toBe(200);
}

/** Opens the devnet wallet in a page of its own, pays the invoice there and closes it. */
export async function payFromDevnetWallet(browser: Browser, paymentRequest: string) {
  const wallet = await browser.newPage();
  await wallet.goto('/devnet/wallet');
  // The wallet's code loads lazily: on a loaded machine its first paint has taken over 15 s.
  await expect(wallet.getByRole('heading', { name: /Devnet wallet/ })).toBeVisible({ timeout: 60_000 });
  await payOnDevnetWallet(wallet, paymentRequest);
  await expect(wallet.getByText(/^Paid /)).toBeVisible();
  await wallet.close();
}

/**
 * Pays the store checkout on screen from the devnet wallet, as a payer whose wallet opened the
 * page's invoice: the next invoice if this one ran out (they live 60 s in the main e2e run).
 */
export async function payCheckoutOnScreen(request: APIRequestContext, payer: Page) {
  const walletLink = payer.getByRole('link', { name: 'Open wallet' });
  await expect(walletLink).toBeVisible({ timeout: 30_000 });
  let paid = false;
  for (let attempt = 0; attempt < 3 && !paid; attempt += 1) {
    const onScreen = (await walletLink.getAttribute('href'))?.replace(/^lightning:/, '') ?? '';
    const response = await request.post('/api/devnet/pay', { data: { paymentRequest: onScreen } });
    paid = response.ok();
    if (!paid) await expect(walletLink).not.toHaveAttribute('href', `lightning:${onScreen}`, { timeout: 45_000 });
  }
  expect(paid).toBe(true);
  await expect(payer.getByRole('heading', { name: 'Payment completed' })).toBeVisible({ timeout: 15_000 });
}

export type Mail = { to: string[]; subject: string; text: string };

/** The newest mail to `to` that the run's loopback SMTP inbox received, waiting for it to arrive. */
export async function latestMailTo(to: string, options: { after?: number } = {}): Promise<Mail> {
  const dir = path.resolve(import.meta.dirname, '../..', E2E_MAIL_DIR);
  let found: Mail | undefined;
  await expect
    .poll(
      async () => {
        const names = (await readdir(dir).catch(() => [] as string[])).sort(
          (a, b) => Number.parseInt(a, 10) - Number.parseInt(b, 10),
        );
        for (const name of names.reverse()) {
          if (Number.parseInt(name, 10) < (options.after ?? 0)) break;
          const mail = JSON.parse(await readFile(path.join(dir, name), 'utf8')) as Mail;
          if (mail.to.includes(to.toLowerCase())) {
            found = mail;
            return true;
          }
        }
        return false;
      },
      { timeout: 10_000, message: `a mail to ${to}` },
    )
    .toBe(true);
  return found as Mail;
}

/** The first link in a mail. */
export function linkIn(mail: Mail): string {
  const link = /https?:\/\/\S+/.exec(mail.text)?.[0];
  if (!link) throw new Error(`no link in the mail:\n${mail.text}`);
  return link;
}
