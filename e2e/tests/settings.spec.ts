import { expect, test } from '@playwright/test';
import { demo, openSignedIn, signInViaUi, storage } from './support.ts';

// The demo users are shared by every spec running in parallel, so this journey changes no
// password: it checks what the form refuses and how a wrong current password is shown. A
// successful change, the old password failing and the sessions it ends are covered through
// HTTP in apps/server/src/modules/settings/settings.test.ts.
test('Settings refuses a weak or mismatched new password and a wrong current one, and keeps the session', async ({
  page,
}) => {
  await signInViaUi(page, demo.manager, { remember: true });
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Settings' }).click();
  await expect(page).toHaveURL('/settings');
  await expect(page.getByRole('heading', { level: 1, name: 'Settings' })).toBeVisible();
  const section = page.getByRole('region', { name: 'Password' });
  const current = section.getByLabel('Current password');
  const next = section.getByLabel('New password', { exact: true });
  const confirmation = section.getByLabel('Confirm new password');
  const submit = section.getByRole('button', { name: 'Change password' });

  await submit.click();
  await expect(section.getByText('The password is missing')).toHaveCount(2);

  await current.fill('Not-my-password-1');
  await next.fill('weakpass');
  await confirmation.fill('weakpas');
  await submit.click();
  await expect(section.getByText('The password did not match the requirements')).toBeVisible();
  await expect(section.getByText("Passwords don't match.")).toBeVisible();

  await next.fill('Strong-pass-1');
  await confirmation.fill('Strong-pass-1');
  const answer = page.waitForResponse('**/api/settings/password');
  await submit.click();
  expect((await answer).status()).toBe(400);
  await expect(section.getByText('The current password is not correct')).toBeVisible();
  await expect(page).toHaveURL('/settings');
  expect((await storage(page)).accessToken).not.toBeNull();
});

for (const language of ['en', 'es'] as const) {
  test(`each Settings section and back-office tab has an address that survives a reload (${language})`, async ({
    page,
  }, testInfo) => {
    const t = {
      en: { settings: 'Settings', sections: 'Settings sections', security: 'Security', payouts: 'Payouts' },
      es: {
        settings: 'Configuración',
        sections: 'Secciones de la configuración',
        security: 'Seguridad',
        payouts: 'Pagos',
      },
    }[language];
    await openSignedIn(page, demo.superAdmin);
    await page.evaluate((lang) => localStorage.setItem('language', lang), language);
    await page.goto('/settings');
    const sections = page.getByRole('navigation', { name: t.sections });
    await sections.getByRole('link', { name: t.security }).click();
    await expect(page).toHaveURL('/settings/security');
    const mfa = page.getByTestId('settings-section').getByRole('switch');
    await expect(mfa).toBeVisible();
    await page.reload();
    await expect(mfa).toBeVisible();
    // Only the section asked for is shown, and the sidebar still highlights Settings (SPEC §2).
    await expect(page.getByRole('region')).toHaveCount(1);
    await expect(
      page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: t.settings }),
    ).toHaveAttribute('aria-current', 'page');
    await expect(sections.getByRole('link', { name: t.security })).toHaveAttribute('aria-current', 'page');
    await page.screenshot({ path: testInfo.outputPath(`settings-security-1280-${language}.png`), fullPage: true });

    // On a phone the sections are a row of links above the section.
    await page.setViewportSize({ width: 390, height: 844 });
    await sections.getByRole('link', { name: t.payouts }).click();
    await expect(page).toHaveURL('/settings/payouts');
    await page.reload();
    await expect(sections.getByRole('link', { name: t.payouts })).toHaveAttribute('aria-current', 'page');
    await page.screenshot({ path: testInfo.outputPath(`settings-payouts-390-${language}.png`), fullPage: true });
    await page.goto('/settings/nothing-here');
    await expect(page).toHaveURL('/settings');

    await page.setViewportSize({ width: 1280, height: 800 });
    await page.goto('/back-office/reports');
    const reports = page.getByRole('tab', { selected: true });
    await expect(reports).toHaveText(language === 'en' ? 'Country reports' : 'Reportes por país');
    await page.getByRole('tab', { name: language === 'en' ? 'Audit' : 'Auditoría' }).click();
    await expect(page).toHaveURL('/back-office/audit');
    await page.reload();
    await expect(page.getByRole('tab', { selected: true })).toHaveText(language === 'en' ? 'Audit' : 'Auditoría');
    await expect(
      page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Back Office' }),
    ).toHaveAttribute('aria-current', 'page');
  });
}
