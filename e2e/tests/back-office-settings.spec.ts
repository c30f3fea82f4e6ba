import { expect, type Page, test } from '@playwright/test';
import { Secret, TOTP } from 'otpauth';
import { createBackOfficeUser, demo, openSignedIn, sidebarEntries } from './support.ts';

const PASSWORD = 'Oficina-2026!';
const NEW_PASSWORD = 'Oficina-nueva-2026!';

async function signInInSpanish(page: Page, email: string, password: string): Promise<void> {
  await page.goto('/login');
  await page.getByText('Español').click();
  await page.getByRole('textbox', { name: 'Correo electrónico' }).fill(email);
  await page.getByRole('textbox', { name: 'Contraseña' }).fill(password);
  await page.getByRole('button', { name: 'Iniciar sesión' }).click();
  await expect(page).toHaveURL('/back-office');
}

// Issue 26: back office had no Settings, and Español picked at sign-in turned into English.
test('back office signs in in Español, stays in Spanish, changes its password and turns MFA on', async ({
  page,
  browser,
}) => {
  const email = await createBackOfficeUser(PASSWORD);
  await signInInSpanish(page, email, PASSWORD);
  await expect(page.locator('html')).toHaveAttribute('lang', 'es');
  expect(await sidebarEntries(page)).toEqual(['back-office', 'settings']);
  expect(await page.evaluate(() => localStorage.getItem('language'))).toBe('es');

  // Settings: Profile and Security only, in Spanish.
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Configuración' }).click();
  await expect(page).toHaveURL('/settings');
  const sections = page.getByRole('navigation', { name: 'Secciones de la configuración' }).first();
  await expect(sections.getByRole('link')).toHaveText(['Perfil', 'Seguridad']);
  await expect(page.getByRole('radio', { name: 'Español' })).toBeChecked();
  await page.screenshot({ path: 'test-results/back-office-settings-es-1280.png', fullPage: true });

  // The password change.
  const password = page.getByRole('region', { name: 'Contraseña' });
  await password.getByLabel('Contraseña actual', { exact: true }).fill(PASSWORD);
  await password.getByLabel('Nueva contraseña', { exact: true }).fill(NEW_PASSWORD);
  await password.getByLabel('Confirma la nueva contraseña', { exact: true }).fill(NEW_PASSWORD);
  await password.getByRole('button', { name: 'Cambiar contraseña' }).click();
  await expect(page.getByText('Contraseña cambiada. Tus otros dispositivos cerraron sesión.')).toBeVisible();

  // MFA, at its own address.
  await sections.getByRole('link', { name: 'Seguridad' }).click();
  await expect(page).toHaveURL('/settings/security');
  const mfa = page.getByRole('region', { name: 'Autenticación multifactor (MFA)' });
  await expect(mfa.getByText('MFA está desactivada.')).toBeVisible();
  await mfa.getByRole('switch', { name: 'MFA' }).click({ force: true });
  const secret = (await mfa.getByTestId('mfa-secret').textContent())?.replace(/\s/g, '') ?? '';
  expect(secret).toMatch(/^[A-Z2-7]{32}$/);
  await page.screenshot({ path: 'test-results/back-office-settings-security-es-1280.png', fullPage: true });
  await mfa
    .getByLabel('3. Escribe el código de 6 dígitos de la app')
    .fill(new TOTP({ secret: Secret.fromBase32(secret) }).generate());
  await mfa.getByRole('button', { name: 'Activar MFA' }).click();
  await expect(mfa.getByText('MFA está activada.', { exact: true })).toBeVisible();
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto('/settings/security');
  await expect(mfa.getByText('MFA está activada.', { exact: true })).toBeVisible();
  await page.screenshot({ path: 'test-results/back-office-settings-security-es-390.png', fullPage: true });
  await page.goto('/settings');
  await expect(page.getByRole('region', { name: 'Idioma' })).toBeVisible();
  await page.screenshot({ path: 'test-results/back-office-settings-es-390.png', fullPage: true });

  // On another device, in English, without picking: the new password, then a code, and the
  // screens read in the Spanish saved at the first sign-in.
  const other = await browser.newPage({ locale: 'en-US' });
  await other.goto('/login');
  await expect(other.locator('html')).toHaveAttribute('lang', 'en');
  await other.getByRole('textbox', { name: 'Email' }).fill(email);
  await other.getByRole('textbox', { name: 'Password' }).fill(NEW_PASSWORD);
  await other.getByRole('button', { name: 'Sign in' }).click();
  await other
    .getByLabel('Authentication code')
    .fill(new TOTP({ secret: Secret.fromBase32(secret) }).generate({ timestamp: Date.now() + 30_000 }));
  await other.getByRole('button', { name: 'Verify' }).click();
  await expect(other).toHaveURL('/back-office');
  await expect(other.locator('html')).toHaveAttribute('lang', 'es');
  await other.close();
});

test('back office sees its Settings in English, and an organization section sends it back', async ({ page }) => {
  await openSignedIn(page, demo.backOffice, '/settings/payouts');
  await expect(page).toHaveURL('/settings');
  const sections = page.getByRole('navigation', { name: 'Settings sections' });
  await expect(sections.first().getByRole('link')).toHaveText(['Profile', 'Security']);
  await expect(page.getByRole('region', { name: 'Password' })).toBeVisible();
  await expect(page.getByRole('region', { name: 'Language' })).toBeVisible();
  await page.screenshot({ path: 'test-results/back-office-settings-en-1280.png', fullPage: true });
  await page.goto('/settings/security');
  await expect(page.getByRole('region', { name: 'Multi-factor authentication (MFA)' })).toBeVisible();
  await page.screenshot({ path: 'test-results/back-office-settings-security-en-1280.png', fullPage: true });

  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto('/settings/security');
  await expect(sections.last().getByRole('link')).toHaveText(['Profile', 'Security']);
  await page.screenshot({ path: 'test-results/back-office-settings-security-en-390.png', fullPage: true });
  await page.goto('/settings');
  await expect(page.getByRole('region', { name: 'Language' })).toBeVisible();
  await page.screenshot({ path: 'test-results/back-office-settings-en-390.png', fullPage: true });
});
