import { expect, test } from '@playwright/test';
import { demo, latestMailTo, linkIn, signInViaUi } from './support.ts';

const PASSWORD = 'Lumbre-2026!';
const NEW_PASSWORD = 'Lumbre-reset-7?';
const OTHER_PASSWORD = 'Someone-else-3#';

test('sign up, confirm from the mail, onboard, reset the password and sign in', async ({ page, request, browser }) => {
  const email = `owner-${Date.now()}@lumbre.example`;

  await page.goto('/login');
  await page.getByRole('link', { name: 'Create an account' }).click();
  await expect(page).toHaveURL(/\/signup$/);
  // The URL changes before the lazily loaded screen replaces the login form.
  await expect(page.getByRole('heading', { name: 'Create an account' })).toBeVisible();
  await page.getByRole('textbox', { name: 'Email' }).fill(email);
  await page.getByRole('textbox', { name: 'Password', exact: true }).fill(PASSWORD);
  await page.getByRole('textbox', { name: 'Confirm password' }).fill(PASSWORD);
  await page.getByRole('button', { name: 'Create account' }).click();
  await expect(page).toHaveURL(/\/check-your-email/);
  await expect(page.getByText(`We sent a confirmation link to ${email}.`)).toBeVisible();

  // Before confirming, the password alone does not open the account.
  await page.goto('/login');
  await page.getByRole('textbox', { name: 'Email' }).fill(email);
  await page.getByRole('textbox', { name: 'Password' }).fill(PASSWORD);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page.getByRole('alert')).toContainText('Confirm your email first');

  // Someone else signs up with the same address and a password of their own, so the newest
  // mail is one their sign-up sent: the password typed after opening it is the one that counts.
  const otherSignUp = Date.now();
  const other = await request.post('/api/auth/signup', { data: { email, password: OTHER_PASSWORD } });
  expect(other.status()).toBe(204);
  const confirmation = await latestMailTo(email, { after: otherSignUp });
  expect(confirmation.subject).toBe('Confirm your email for Rayo');
  await page.goto(linkIn(confirmation));
  await expect(page.getByRole('heading', { name: 'Confirm your email' })).toBeVisible();
  await page.getByRole('textbox', { name: 'Password', exact: true }).fill(PASSWORD);
  await page.getByRole('textbox', { name: 'Confirm password' }).fill('Not-the-same-1!');
  await page.getByRole('button', { name: 'Confirm and continue' }).click();
  await expect(page.getByText("Passwords don't match.")).toBeVisible();
  await page.getByRole('textbox', { name: 'Confirm password' }).fill(PASSWORD);
  await page.getByRole('button', { name: 'Confirm and continue' }).click();
  await expect(page.getByRole('heading', { name: 'Set up your organization' })).toBeVisible();
  // Sent empty, the form says what is missing; each error goes once its field is filled.
  await page.getByRole('button', { name: 'Start selling' }).click();
  await expect(page.getByText('The name is missing')).toBeVisible();
  await expect(page.getByText('Choose a country')).toBeVisible();
  await expect(page.getByText('Choose a currency')).toBeVisible();
  await page.screenshot({ path: test.info().outputPath('onboard-errors-1280-en.png') });
  await page.getByRole('textbox', { name: 'Organization name' }).fill('Café Lumbre');
  await expect(page.getByText('The name is missing')).toBeHidden();
  await page.getByRole('combobox', { name: 'Country' }).fill('Mexi');
  await page.getByRole('option', { name: 'Mexico' }).click();
  await expect(page.getByText('Choose a country')).toBeHidden();
  await expect(page.getByText('Choose a currency')).toBeHidden();
  const currency = page.getByRole('combobox', { name: 'Currency' });
  await expect(currency).toHaveValue('MXN');
  // Choosing the currency already chosen keeps it.
  await currency.click();
  await page.getByRole('option', { name: 'MXN', exact: true }).click();
  await expect(currency).toHaveValue('MXN');
  await page.screenshot({ path: test.info().outputPath('onboard-fixed-1280-en.png') });
  await page.getByRole('button', { name: 'Start selling' }).click();

  await expect(page).toHaveURL(/\/$/);
  await expect(page.getByRole('navigation', { name: 'Main' }).getByText('Managers')).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Home' })).toBeVisible();
  // A new organization: its own currency, and none of the demo's sales.
  await expect(page.getByText('Bill, tip and tax of sales priced in MXN')).toBeVisible();
  await expect(page.getByText('No sales in this period')).toBeVisible();

  // Another device, signed in and remembered, is signed out by the reset below.
  const otherContext = await browser.newContext();
  const otherDevice = await otherContext.newPage();
  await otherDevice.goto('/login');
  await otherDevice.getByRole('checkbox', { name: 'Remember me' }).check();
  await signInViaUi(otherDevice, email, { password: PASSWORD });

  await page.getByRole('button', { name: 'Log Out' }).click();
  await expect(page).toHaveURL(/\/login/);
  await page.getByRole('textbox', { name: 'Email' }).fill(email);
  await page.getByRole('textbox', { name: 'Password' }).fill(OTHER_PASSWORD);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page.getByRole('alert')).toHaveText('Invalid email or password');
  await page.getByRole('link', { name: 'Forgot your password?' }).click();
  await expect(page.getByRole('heading', { name: 'Reset your password' })).toBeVisible();
  const asked = Date.now();
  await page.getByRole('textbox', { name: 'Email' }).fill(email);
  await page.getByRole('button', { name: 'Send code' }).click();
  await expect(page).toHaveURL(/\/confirm-forgot-password\?email=/);

  const reset = await latestMailTo(email, { after: asked });
  expect(reset.subject).toBe('Your Rayo password reset code');
  await page.goto(linkIn(reset));
  await page.getByRole('textbox', { name: 'New password', exact: true }).fill(NEW_PASSWORD);
  await page.getByRole('textbox', { name: 'Confirm new password' }).fill(NEW_PASSWORD);
  await page.getByRole('checkbox', { name: 'Also revoke the developer tokens I made' }).check();
  await page.getByRole('button', { name: 'Save new password' }).click();
  await expect(page).toHaveURL(/\/login$/);
  await expect(page.getByText('Your password was changed. Sign in with the new one.')).toBeVisible();

  await otherDevice.reload();
  await expect(otherDevice).toHaveURL(/\/login/);
  await otherContext.close();

  await signInViaUi(page, email, { password: NEW_PASSWORD });
  await expect(page).toHaveURL(/\/$/);
});

test('sign-up and reset refusals show the SPEC messages', async ({ page }) => {
  await page.goto('/signup');
  await page.getByRole('textbox', { name: 'Email' }).fill(demo.admin);
  await page.getByRole('textbox', { name: 'Password', exact: true }).fill(PASSWORD);
  await page.getByRole('textbox', { name: 'Confirm password' }).fill('Something-else-1!');
  await page.getByRole('button', { name: 'Create account' }).click();
  await expect(page.getByText("Passwords don't match.")).toBeVisible();

  await page.getByRole('textbox', { name: 'Password', exact: true }).fill('weak');
  await page.getByRole('textbox', { name: 'Confirm password' }).fill('weak');
  await page.getByRole('button', { name: 'Create account' }).click();
  await expect(page.getByText('The password did not match the requirements')).toBeVisible();

  await page.getByRole('textbox', { name: 'Password', exact: true }).fill(PASSWORD);
  await page.getByRole('textbox', { name: 'Confirm password' }).fill(PASSWORD);
  await page.getByRole('button', { name: 'Create account' }).click();
  await expect(page.getByRole('alert')).toHaveText('User already exist');

  await page.goto('/forgot-password');
  await page.getByRole('textbox', { name: 'Email' }).fill('nobody@lumbre.example');
  await page.getByRole('button', { name: 'Send code' }).click();
  await expect(page.getByRole('alert')).toHaveText("The email doesn't exists in the product");

  await page.goto('/confirm-forgot-password?email=admin%40rayo.local&code=123456');
  await page.getByRole('textbox', { name: 'New password', exact: true }).fill(NEW_PASSWORD);
  await page.getByRole('textbox', { name: 'Confirm new password' }).fill(NEW_PASSWORD);
  await page.getByRole('button', { name: 'Save new password' }).click();
  await expect(page.getByRole('alert')).toHaveText('The code or link is not valid or has expired');
});

test('a spent confirmation link says so and offers a new one', async ({ page }) => {
  await page.goto('/onboard?code=not-a-real-code');
  await page.getByRole('textbox', { name: 'Password', exact: true }).fill(PASSWORD);
  await page.getByRole('textbox', { name: 'Confirm password' }).fill(PASSWORD);
  await page.getByRole('button', { name: 'Confirm and continue' }).click();
  await expect(page.getByRole('alert')).toHaveText('The code or link is not valid or has expired');
  await expect(page.getByRole('link', { name: 'sign up again for a new link' })).toBeVisible();
});
