import { type Browser, expect, type Page, test } from '@playwright/test';
import { openSignedIn, sendJson, signInViaUi, signUpShop } from './support.ts';

const PASSWORD = 'Bloqueada-2026!';
/** For the first look after a navigation: each screen's code loads lazily, slowly on a busy machine. */
const afterNavigation = expect.configure({ timeout: 30_000 });

test.describe.configure({ timeout: 180_000 });

async function chargeOnKeypad(page: Page, keypad: string, charge: RegExp) {
  await afterNavigation(page.getByRole('group', { name: keypad })).toBeVisible();
  await page.getByRole('group', { name: keypad }).getByRole('button', { name: '5', exact: true }).click();
  await page.getByRole('button', { name: charge }).click();
}

async function blockAs(page: Page, organization: string, reason: string) {
  await page.goto('/back-office');
  await page.getByRole('textbox', { name: 'Search' }).fill(organization);
  await afterNavigation(page.getByRole('link', { name: organization })).toBeVisible();
  await page.getByRole('link', { name: organization }).click();
  const unblock = page.getByRole('button', { name: 'Unblock organization' });
  await afterNavigation(page.getByRole('heading', { level: 1, name: organization })).toBeVisible();
  if (await unblock.isVisible()) {
    await unblock.click();
    await page.getByRole('dialog').getByRole('button', { name: 'Confirm' }).click();
    await expect(page.getByTestId('blocked-banner')).toBeHidden();
  }
  await page.getByRole('button', { name: 'Block organization' }).click();
  await page.getByRole('dialog').getByRole('radio', { name: reason }).check();
  await page.getByRole('dialog').getByRole('button', { name: 'Confirm' }).click();
  await expect(page.getByTestId('blocked-banner')).toBeVisible();
}

async function newPage(browser: Browser): Promise<Page> {
  return (await browser.newContext()).newPage();
}

// Issue 26: a blocked merchant saw no banner and read "missing info in Settings" at the till while
// Settings showed nothing missing; donors read the same.
test('a blocked merchant is told on every screen, and the public reads a neutral refusal', async ({
  browser,
  page,
  request,
}, testInfo) => {
  const shop = await signUpShop(request, {
    emailPrefix: 'bloqueada',
    emailDomain: 'bloqueada.example',
    name: 'Bloqueada',
    password: PASSWORD,
  });
  const account = await sendJson<{ id: string }>(request, '/api/accounts', { name: 'Counter' }, shop.token);
  const bpt = await sendJson<{ id: string; shareToken: string }>(
    request,
    '/api/bpts',
    { name: 'Till', accountId: account.id, channel: 'store', currency: 'GTQ', shareable: true },
    shop.token,
  );

  await openSignedIn(page, 'backoffice@rayo.local');
  await blockAs(page, shop.name, 'Another reason: write to support');
  await expect(page.getByTestId('blocked-banner')).toContainText('Its members are told to write to support.');

  const merchant = await newPage(browser);
  await signInViaUi(merchant, shop.email, { password: PASSWORD });
  const banner = merchant.getByTestId('organization-blocked');
  await afterNavigation(banner).toContainText('Your organization is blocked');
  await expect(banner).toContainText('support@rayo.local');
  for (const width of [1280, 390]) {
    await merchant.setViewportSize({ width, height: 900 });
    await merchant.screenshot({ path: testInfo.outputPath(`blocked-home-${width}-en.png`) });
  }
  await merchant.goto(`/bpts/${bpt.id}/terminal`);
  await expect(banner).toBeVisible();
  await chargeOnKeypad(merchant, 'Keypad', /^Charge /);
  await expect(
    merchant.getByRole('alert').filter({ hasText: 'Your organization is blocked and cannot take' }),
  ).toBeVisible();
  await expect(merchant.getByText('missing info in Settings')).toHaveCount(0);
  await merchant.screenshot({ path: testInfo.outputPath('blocked-terminal-390-en.png') });

  // The shared terminal is public: whoever holds it reads nothing of why.
  const cashier = await newPage(browser);
  await cashier.goto(`/bpts/${bpt.shareToken}`);
  await chargeOnKeypad(cashier, 'Keypad', /^Charge /);
  await expect(cashier.getByRole('alert')).toHaveText('This merchant cannot take payments right now');

  // Blocked because information is missing: SPEC §8's words, and the way to Settings.
  await blockAs(page, shop.name, 'Information is missing in Settings');
  await merchant.evaluate(() => localStorage.setItem('language', 'es'));
  await merchant.goto('/');
  await afterNavigation(banner).toContainText('Tu organización está deshabilitada, falta información en Configuración');
  await expect(banner.getByRole('link', { name: 'Ir a Configuración' })).toBeVisible();
  for (const width of [390, 1280]) {
    await merchant.setViewportSize({ width, height: 900 });
    await merchant.screenshot({ path: testInfo.outputPath(`blocked-home-${width}-es.png`) });
  }
  await cashier.evaluate(() => localStorage.setItem('language', 'es'));
  await cashier.reload();
  await chargeOnKeypad(cashier, 'Teclado', /^Cobrar /);
  await expect(cashier.getByRole('alert')).toHaveText('Este comercio no puede recibir pagos en este momento');
  await cashier.screenshot({ path: testInfo.outputPath('blocked-shared-terminal-es.png') });
});
