import { expect, type Page, test } from '@playwright/test';
import { apiAs, demo, openSignedIn } from './support.ts';

const SHOTS = process.env.E2E_SCREENSHOT_DIR;

async function typeOnKeypad(page: Page, amount: string) {
  const keypad = page.getByRole('group', { name: /Keypad|Teclado/ });
  for (const key of amount) {
    if (key === '.') await keypad.getByRole('button', { name: /Decimal point|Punto decimal/ }).click();
    else await keypad.getByRole('button', { name: key, exact: true }).click();
  }
}

/** A GTQ terminal with tips and a 12 % tax, opened signed in. */
async function openTerminal(page: Page) {
  await openSignedIn(page, demo.admin);
  const [account] = await apiAs<{ id: string }[]>(page, 'GET', '/api/account/all');
  const bpt = await apiAs<{ id: string }>(page, 'POST', '/api/bpts', {
    name: `Limits ${Date.now().toString(36)}`,
    accountId: account?.id,
    currency: 'GTQ',
    tipEnabled: true,
    taxPercentage: 12,
  });
  await page.goto(`/bpts/${bpt.id}/terminal`);
}

test.describe('on a 390×844 phone', () => {
  test.use({ viewport: { width: 390, height: 844 } });

  test('Charge stays in view with a long amount and the tip picker open', async ({ page }) => {
    await openTerminal(page);
    await typeOnKeypad(page, '651785.71');
    await page.getByRole('radiogroup', { name: 'Tip' }).getByText('Other', { exact: true }).click();
    await expect(page.getByRole('textbox', { name: 'Tip amount' })).toBeVisible();
    const charge = page.getByRole('button', { name: /^Charge / });
    await page.evaluate(() => window.scrollTo(0, 0));
    await expect(charge).toBeInViewport({ ratio: 1 });
    expect(await page.evaluate(() => window.scrollY)).toBe(0);
    if (SHOTS) await page.screenshot({ path: `${SHOTS}/terminal-390-en.png` });
  });

  test('refuses the key past 1 BTC and a tip above the bill, asking the server nothing', async ({ page }) => {
    await openTerminal(page);
    const invoices: string[] = [];
    page.on('request', (request) => {
      if (request.method() === 'POST' && request.url().endsWith('/invoices')) invoices.push(request.url());
    });
    await typeOnKeypad(page, '999999999999999');
    const limit = page.getByTestId('sale-limit');
    await expect(limit).toContainText('One sale can charge at most');
    await expect(page.getByRole('status').filter({ hasText: '99,999' })).toHaveText(/99,999$/);

    await page.getByRole('button', { name: 'Clear', exact: true }).click();
    await typeOnKeypad(page, '50');
    await page.getByRole('radiogroup', { name: 'Tip' }).getByText('Other', { exact: true }).click();
    const tip = page.getByRole('textbox', { name: 'Tip amount' });
    await tip.fill('-5');
    await expect(page.getByText('A tip cannot be negative.')).toBeVisible();
    await tip.fill('999999');
    await expect(page.getByText(/The tip can be at most the bill/)).toBeVisible();
    const charge = page.getByRole('button', { name: /^Charge / });
    await expect(charge).toBeDisabled();
    await tip.press('Enter');
    expect(invoices).toEqual([]);
    if (SHOTS) await page.screenshot({ path: `${SHOTS}/terminal-tip-390-en.png`, fullPage: true });
  });
});

test('the terminal at 1280 px', async ({ page }) => {
  test.skip(!SHOTS, 'only a look');
  await page.setViewportSize({ width: 1280, height: 900 });
  await openTerminal(page);
  await typeOnKeypad(page, '120.50');
  await expect(page.getByText(/≈ .* sats/)).toBeVisible();
  await page.getByRole('radiogroup', { name: 'Tip' }).getByText('Other', { exact: true }).click();
  await page.getByRole('textbox', { name: 'Tip amount' }).fill('abc');
  await page.screenshot({ path: `${SHOTS}/terminal-1280-en.png`, fullPage: true });
  await page.setViewportSize({ width: 390, height: 844 });
  await page.evaluate(() => localStorage.setItem('language', 'es'));
  await page.reload();
  await typeOnKeypad(page, '999999999999999');
  await page.getByRole('radiogroup', { name: 'Propina' }).getByText('Otra', { exact: true }).click();
  await page.getByRole('textbox', { name: /Monto de la propina|Propina/ }).fill('-1');
  await page.screenshot({ path: `${SHOTS}/terminal-390-es.png`, fullPage: true });
  await page.setViewportSize({ width: 1280, height: 900 });
  await page.goto('/');
  await page.getByRole('radio', { name: 'Todo' }).click();
  await expect(page.getByRole('columnheader', { name: /^Fecha de liquidación|^Fecha/ }).first()).toBeVisible();
  await page.screenshot({ path: `${SHOTS}/home-1280-es.png`, fullPage: true });
  await page.evaluate(() => localStorage.setItem('language', 'en'));
  await page.reload();
  await page.getByRole('radio', { name: 'All' }).click();
  await page.getByRole('button', { name: 'Date settled' }).click();
  await expect(page.getByRole('columnheader', { name: /^Date settled/ })).toHaveAttribute('aria-sort', 'ascending');
  await page.screenshot({ path: `${SHOTS}/home-1280-en.png`, fullPage: true });
  await page.setViewportSize({ width: 390, height: 844 });
  await page.screenshot({ path: `${SHOTS}/home-390-en.png`, fullPage: true });
});
