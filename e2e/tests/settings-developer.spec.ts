import { type APIRequestContext, expect, test } from '@playwright/test';
import { openSignedIn, sendJson, signUpShop } from './support.ts';

const PASSWORD = 'Desarrollo-2026!';
/** For the first look after a navigation: each screen's code loads lazily, slowly on a busy machine. */
const afterNavigation = expect.configure({ timeout: 30_000 });

// Each journey signs up a shop of its own first, which takes a while on a busy machine.
test.describe.configure({ timeout: 120_000 });

type Shop = { email: string; token: string };

/** A fresh organization of its own (never the demo one other specs share), in Guatemala. */
async function openShop(request: APIRequestContext): Promise<Shop> {
  const { email, token } = await signUpShop(request, {
    emailPrefix: 'dev',
    emailDomain: 'desarrollo.example',
    name: 'Desarrollo',
    password: PASSWORD,
  });
  return { email, token };
}

/** Exchanges a developer token the way a script would: plain `fetch`, no browser. */
async function exchange(baseURL: string, refreshToken: string): Promise<Response> {
  return fetch(`${baseURL}/api/auth/refresh-access-token`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ refreshToken }),
  });
}

test('an admin creates a developer token, a script uses it, and revoking it stops it', async ({
  page,
  request,
  baseURL,
}) => {
  const base = baseURL as string;
  const shop = await openShop(request);
  await openSignedIn(page, shop.email, '/settings/developers', { password: PASSWORD });
  const section = page.getByRole('region', { name: 'Developer token' });
  await afterNavigation(section).toBeVisible();
  await expect(section.getByText('No developer tokens yet.')).toBeVisible();

  // The narrowest access is chosen unless the admin picks another: this script only reads.
  await expect(section.getByRole('radio', { name: /^Store checkouts/ })).toBeChecked();
  await section.getByRole('radio', { name: /^Read only/ }).check();
  await section.getByRole('textbox', { name: 'Name (optional)' }).fill('Inventory sync');
  await section.getByRole('button', { name: 'Create token' }).click();
  const shown = page.getByRole('dialog', { name: 'Copy your new token' });
  const token = (await shown.getByTestId('developer-token').textContent())?.trim() ?? '';
  expect(token).toMatch(/^rayo_dev_/);
  await shown.getByRole('button', { name: 'Done' }).click();
  // Shown once: the list names it, never shows it.
  await expect(section.getByRole('cell', { name: 'Inventory sync', exact: true })).toBeVisible();
  await expect(section.getByRole('cell', { name: 'Read only', exact: true })).toBeVisible();
  await expect(page.getByText(token)).toHaveCount(0);

  const exchanged = await exchange(base, token);
  expect(exchanged.status).toBe(200);
  const { accessToken, refreshToken } = (await exchanged.json()) as { accessToken: string; refreshToken?: string };
  expect(refreshToken).toBeUndefined();
  const accounts = await fetch(`${base}/api/account/all`, { headers: { authorization: `Bearer ${accessToken}` } });
  expect(accounts.status).toBe(200);
  expect(await accounts.json()).toEqual([]);
  // Reading is all it may do.
  const write = await fetch(`${base}/api/accounts`, {
    method: 'POST',
    headers: { authorization: `Bearer ${accessToken}`, 'content-type': 'application/json' },
    body: JSON.stringify({ name: 'Till' }),
  });
  expect(write.status).toBe(403);
  // It does not rotate: the same token works again.
  expect((await exchange(base, token)).status).toBe(200);

  // The list records the script's last use.
  await page.reload();
  await afterNavigation(section.getByRole('cell', { name: 'Inventory sync', exact: true })).toBeVisible();
  await expect(section.getByRole('cell', { name: 'Never' })).toHaveCount(0);
  await section.getByRole('button', { name: 'Revoke Inventory sync' }).click();
  await page.getByRole('dialog', { name: 'Revoke this token?' }).getByRole('button', { name: 'Revoke' }).click();
  await expect(section.getByText('No developer tokens yet.')).toBeVisible();
  expect((await exchange(base, token)).status).toBe(401);
});

test('an admin switches Settings to Español, which stays for the next sign-in', async ({ page, request }) => {
  const shop = await openShop(request);
  await openSignedIn(page, shop.email, '/settings', { password: PASSWORD });
  const language = page.getByRole('region', { name: 'Language' });
  await afterNavigation(language).toBeVisible();
  const saved = page.waitForResponse((response) => response.url().endsWith('/api/settings/language'));
  await language.getByText('Español').click();
  await expect(page.getByRole('heading', { level: 1, name: 'Configuración' })).toBeVisible();
  await expect(page.getByRole('region', { name: 'Idioma' })).toBeVisible();
  expect((await saved).status()).toBe(204);

  await page.reload();
  await afterNavigation(page.getByRole('heading', { level: 1, name: 'Configuración' })).toBeVisible();
  const session = await sendJson<{ language: string }>(request, '/api/auth/signin', {
    email: shop.email,
    password: PASSWORD,
  });
  expect(session.language).toBe('es');
});

test('a manager sees no developer token section and may not list the tokens', async ({ page, request }) => {
  const shop = await openShop(request);
  const email = `manager-${Date.now().toString(36)}@desarrollo.example`;
  await sendJson(request, '/api/managers', { name: 'Lucía', email, password: PASSWORD, accountIds: [] }, shop.token);
  await openSignedIn(page, email, '/settings/developers', { password: PASSWORD });
  await afterNavigation(page.getByRole('heading', { level: 1, name: 'Settings' })).toBeVisible();
  await expect(page.getByRole('region', { name: 'Checkout protection' })).toBeVisible();
  await expect(page.getByRole('region', { name: 'Developer token' })).toHaveCount(0);
  const token = await page.evaluate(() => localStorage.getItem('accessToken'));
  const listed = await request.get('/api/settings/developer-tokens', { headers: { authorization: `Bearer ${token}` } });
  expect(listed.status()).toBe(403);
});
