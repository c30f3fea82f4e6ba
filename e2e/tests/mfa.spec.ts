import { readFile } from 'node:fs/promises';
import { expect, type Page, test } from '@playwright/test';
import { Secret, TOTP } from 'otpauth';
import { apiAs, demo, openSignedIn, signInViaUi } from './support.ts';

const PASSWORD = 'Mfa-journey-2026!';

/** What an authenticator app shows for `secret`, `stepsAhead` 30-second steps from now. */
function codeOf(secret: string, stepsAhead = 0): string {
  return new TOTP({ secret: Secret.fromBase32(secret) }).generate({ timestamp: Date.now() + stepsAhead * 30_000 });
}

/** Six digits that none of the codes around now match. */
function wrongCodeOf(secret: string): string {
  const near = new Set([-1, 0, 1, 2].map((steps) => codeOf(secret, steps)));
  let code = 0;
  while (near.has(String(code).padStart(6, '0'))) code++;
  return String(code).padStart(6, '0');
}

async function passwordStep(page: Page, email: string): Promise<void> {
  await page.goto('/login');
  await page.getByRole('textbox', { name: 'Email' }).fill(email);
  await page.getByRole('textbox', { name: 'Password' }).fill(PASSWORD);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page.getByRole('heading', { name: 'Two-step verification' })).toBeVisible();
}

async function openSettings(page: Page) {
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Settings' }).click();
  await page.getByRole('navigation', { name: 'Settings sections' }).getByRole('link', { name: 'Security' }).click();
  return page.getByRole('region', { name: 'Multi-factor authentication (MFA)' });
}

// MFA must never go on for the demo users, whom the other specs sign in as: this journey
// creates a manager of its own through the API.
test('A user turns MFA on, signs in with a code and with a recovery code, and a wrong code keeps it on', async ({
  page,
}) => {
  await openSignedIn(page, demo.admin);
  const email = `mfa-${Date.now()}@example.com`;
  await apiAs(page, 'POST', '/api/managers', { name: 'MFA Manager', email, password: PASSWORD, accountIds: [] });
  await page.getByRole('button', { name: 'Log Out' }).click();
  await signInViaUi(page, email, { password: PASSWORD });

  // Turn it on: the key and the recovery codes are shown once, then a first code turns it on.
  let section = await openSettings(page);
  const toggle = section.getByRole('switch', { name: 'MFA' });
  // Mantine draws its track over the visually hidden input, which is what users click.
  const flip = () => toggle.click({ force: true });
  await expect(section.getByText('MFA is off.')).toBeVisible();
  await expect(toggle).not.toBeChecked();
  await flip();
  const secretText = section.getByTestId('mfa-secret');
  await expect(secretText).toBeVisible();
  const secret = (await secretText.textContent())?.replace(/\s/g, '') ?? '';
  expect(secret).toMatch(/^[A-Z2-7]{32}$/);
  await expect(section.getByRole('img', { name: 'QR code to add Rayo to an authenticator app' })).toBeVisible();
  const recoveryCodes = await section
    .getByRole('list', { name: '2. Save your recovery codes' })
    .getByRole('listitem')
    .allTextContents();
  expect(recoveryCodes).toHaveLength(10);
  const download = page.waitForEvent('download');
  await section.getByRole('button', { name: 'Download' }).click();
  const file = await (await download).path();
  expect((await readFile(file, 'utf8')).trim().split('\n')).toEqual(recoveryCodes);
  await section.screenshot({ path: 'test-results/mfa-settings-setup.png' });

  const code = section.getByLabel('3. Enter the 6-digit code from the app');
  await code.fill(wrongCodeOf(secret));
  await section.getByRole('button', { name: 'Turn on MFA' }).click();
  await expect(section.getByText('The code is not correct')).toBeVisible();
  await code.fill(codeOf(secret));
  await section.getByRole('button', { name: 'Turn on MFA' }).click();
  await expect(section.getByText('MFA is on.')).toBeVisible();
  await expect(toggle).toBeChecked();
  await expect(secretText).toBeHidden();
  await page.getByRole('button', { name: 'Log Out' }).click();

  // The password alone no longer signs in; the authenticator's next code does.
  await passwordStep(page, email);
  expect(await page.evaluate(() => localStorage.getItem('accessToken'))).toBeNull();
  await page.screenshot({ path: 'test-results/mfa-login-code-step.png' });
  const signInCode = codeOf(secret, 1);
  await page.getByLabel('Authentication code').fill(signInCode);
  await page.getByRole('button', { name: 'Verify' }).click();
  await expect(page).not.toHaveURL(/\/login/);

  // The code just used to sign in, typed again, is told apart from a wrong one.
  section = await openSettings(page);
  await expect(toggle).toBeChecked();
  await flip();
  const dialog = page.getByRole('dialog', { name: 'Turn off MFA' });
  await dialog.getByLabel('Code').fill(signInCode);
  await dialog.getByRole('button', { name: 'Turn off MFA' }).click();
  await expect(section.getByText('This code was already used. Wait for your app to show the next code')).toBeVisible();
  await expect(toggle).toBeChecked();

  // A wrong code on turning it off: the switch goes back on and SPEC's message shows.
  await flip();
  await dialog.getByLabel('Code').fill(wrongCodeOf(secret));
  await dialog.getByRole('button', { name: 'Turn off MFA' }).click();
  await expect(section.getByText('Error disabling MFA')).toBeVisible();
  await expect(toggle).toBeChecked();
  await section.screenshot({ path: 'test-results/mfa-settings-disable-failed.png' });
  await page.getByRole('button', { name: 'Log Out' }).click();

  // A recovery code signs in once.
  await passwordStep(page, email);
  await page.getByRole('button', { name: 'Use a recovery code' }).click();
  await page.getByLabel('Recovery code').fill(recoveryCodes[0] ?? '');
  await page.getByRole('button', { name: 'Verify' }).click();
  await expect(page).not.toHaveURL(/\/login/);
  await page.getByRole('button', { name: 'Log Out' }).click();
  await passwordStep(page, email);
  await page.getByRole('button', { name: 'Use a recovery code' }).click();
  await page.getByLabel('Recovery code').fill(recoveryCodes[0] ?? '');
  await page.getByRole('button', { name: 'Verify' }).click();
  await expect(page.getByText('The recovery code is not correct or was already used')).toBeVisible();
});
