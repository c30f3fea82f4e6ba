import { type ChildProcess, spawn } from 'node:child_process';
import { rm } from 'node:fs/promises';
import path from 'node:path';
import { expect, type Page, test } from '@playwright/test';
import { Secret, TOTP } from 'otpauth';
import config, { E2E_PG_PORT, E2E_PORT } from '../playwright.config.ts';
import { expectAccessible } from './axe.ts';
import { createBackOfficeUser, signInViaUi, signUpShop } from './support.ts';

/**
 * BACKOFFICE_MFA_REQUIRED is read when the server starts, so this journey runs against a Rayo of
 * its own, started with it on: the shared server's settings as playwright.config.ts gives them,
 * on the shared ports plus 3 and a data directory of its own.
 */
const PORT = E2E_PORT + 3;
const DATA_DIR = `.data/e2e-mfa-required-${PORT}`;
const URL = `http://127.0.0.1:${PORT}`;
const PASSWORD = 'Requerida-2026!';
const repository = path.resolve(import.meta.dirname, '../..');

test.use({ baseURL: URL });
test.describe.configure({ mode: 'serial' });

let server: ChildProcess | undefined;

test.beforeAll(async () => {
  test.setTimeout(180_000);
  await rm(path.join(repository, DATA_DIR), { recursive: true, force: true });
  const shared = (config.webServer as { env: Record<string, string> }).env;
  server = spawn(process.execPath, ['apps/server/src/main.ts'], {
    cwd: repository,
    env: {
      ...process.env,
      ...shared,
      PORT: String(PORT),
      PUBLIC_URL: URL,
      DATA_DIR,
      EMBEDDED_PG_PORT: String(E2E_PG_PORT + 3),
      BACKOFFICE_MFA_REQUIRED: 'true',
      // The journey needs one organization, which it signs up; the demo's year of sales would be
      // recorded in the background while it runs, loading the machine for nothing.
      SEED_DEMO: 'false',
    },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  await expect
    .poll(
      () =>
        fetch(`${URL}/api/ready`).then(
          (response) => response.ok,
          () => false,
        ),
      { timeout: 170_000 },
    )
    .toBe(true);
});

test.afterAll(async () => {
  if (server && server.exitCode === null) {
    const exited = new Promise((resolve) => server?.once('exit', resolve));
    server.kill('SIGTERM');
    await exited;
  }
  await rm(path.join(repository, DATA_DIR), { recursive: true, force: true });
});

async function shoot(page: Page, name: string) {
  await page.screenshot({ path: test.info().outputPath(`${name}.png`), fullPage: true });
}

// Issue 26: an organization's page opened directly showed the refusal, and MFA could be turned off.
test('back office without MFA is sent to turn it on, reaches its pages, and cannot turn it off', async ({
  page,
  request,
}) => {
  const { organizationId } = await signUpShop(request, {
    emailPrefix: 'mfa-required',
    emailDomain: 'tienda.example',
    name: 'Tienda MFA',
    password: PASSWORD,
  });
  const email = await createBackOfficeUser(PASSWORD, DATA_DIR);

  await signInViaUi(page, email, { password: PASSWORD });
  await expect(page).toHaveURL('/settings/security');
  for (const tab of ['infos', 'transactions']) {
    await page.goto(`/back-office/${organizationId}/${tab}`);
    await expect(page).toHaveURL('/settings/security');
  }

  const mfa = page.getByRole('region', { name: 'Multi-factor authentication (MFA)' });
  await expect(mfa.getByText('Turn on MFA')).toBeVisible();
  await mfa.getByRole('switch', { name: 'MFA' }).click({ force: true });
  const secret = (await mfa.getByTestId('mfa-secret').textContent())?.replace(/\s/g, '') ?? '';
  const totp = new TOTP({ secret: Secret.fromBase32(secret) });
  await mfa.getByLabel('3. Enter the 6-digit code from the app').fill(totp.generate());
  await mfa.getByRole('button', { name: 'Turn on MFA' }).click();
  await expect(mfa.getByText('MFA is on.', { exact: true })).toBeVisible();

  // Now the organization's pages open, and MFA stays on.
  await page.goto(`/back-office/${organizationId}/infos`);
  await expect(page).toHaveURL(`/back-office/${organizationId}/infos`);
  await expect(page.getByRole('tab', { name: 'Transactions' })).toBeVisible();
  await page.goto('/settings/security');
  await expect(mfa.getByRole('switch', { name: 'MFA' })).toBeDisabled();
  await expect(mfa.getByText('Back office requires MFA, so it cannot be turned off.')).toBeVisible();
  // The server says the same to a call made without the screen.
  const accessToken = await page.evaluate(() => localStorage.getItem('accessToken') ?? '');
  const refused = await request.post('/api/settings/mfa/disable', {
    headers: { authorization: `Bearer ${accessToken}`, 'mfa-code': totp.generate({ timestamp: Date.now() + 30_000 }) },
  });
  expect(refused.status()).toBe(403);
  expect((await refused.json()).code).toBe('MfaCannotBeTurnedOff');

  for (const width of [1280, 390]) {
    await page.setViewportSize({ width, height: 844 });
    for (const language of ['en', 'es'] as const) {
      await page.evaluate((lang) => localStorage.setItem('language', lang), language);
      await page.reload();
      await expect(page.locator('html')).toHaveAttribute('lang', language);
      const locked = language === 'en' ? 'Back office requires MFA' : 'El back office requiere MFA';
      await expect(page.getByText(locked)).toBeVisible();
      await shoot(page, `mfa-required-locked-${language}-${width}`);
      await expectAccessible(page, `${language} MFA required @${width}`);
    }
  }
});
