import { expect, test } from '@playwright/test';
import { demo, openSignedIn, sendJson, signUpShop } from './support.ts';

const PASSWORD = 'Setup-pass-2026!';

const texts = {
  en: { title: 'Set up your organization', progress: /^1 of 6 done$/, account: 'Create an account to sell on' },
  es: { title: 'Configura tu organización', progress: /^1 de 6 listos$/, account: 'Crea una cuenta en la que vender' },
};

for (const language of ['en', 'es'] as const) {
  test(`a new organization's home lists what is left to set up, until it is done (${language})`, async ({
    page,
    request,
  }, testInfo) => {
    const t = texts[language];
    const shop = await signUpShop(request, {
      emailPrefix: 'setup',
      emailDomain: 'tienda-luna.example',
      name: 'Tienda Luna',
      password: PASSWORD,
      language,
    });
    await openSignedIn(page, shop.email, '/', { password: PASSWORD });
    const checklist = page.getByRole('region', { name: t.title });
    await expect(checklist.getByRole('listitem')).toHaveCount(6);
    await expect(checklist.locator('[data-done="true"]')).toHaveCount(0);
    // Each step leads where it is done.
    await expect(checklist.getByRole('link', { name: t.account })).toHaveAttribute('href', '/accounts');

    await sendJson(request, '/api/accounts', { name: 'Mostrador' }, shop.token);
    await page.reload();
    await expect(checklist.locator('[data-step="account"]')).toHaveAttribute('data-done', 'true');
    await expect(checklist.getByText(t.progress)).toBeVisible();
    await page.screenshot({ path: testInfo.outputPath(`home-setup-1280-${language}.png`), fullPage: true });
    await page.setViewportSize({ width: 390, height: 844 });
    await page.screenshot({ path: testInfo.outputPath(`home-setup-390-${language}.png`), fullPage: true });
  });
}

test('home says why bitcoin waits when the split pays a share to a Lightning address not set', async ({ page }) => {
  // Demo Café pays 60 % by Lightning and has no Lightning address.
  await openSignedIn(page, demo.admin);
  await page.getByText('This Year', { exact: true }).click();
  const notice = page.getByTestId('unpaid-bitcoin-notice');
  await expect(notice).toContainText('No Lightning address is set');
  await expect(notice.getByRole('link', { name: 'Add it in Settings' })).toHaveAttribute('href', '/settings/payouts');
});
