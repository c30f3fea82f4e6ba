import { expect, test } from '@playwright/test';
import { demo, openSignedIn, sidebarEntries, signInViaUi } from './support.ts';

// Issue 5: an admin creates a manager linked to one account; the manager sees only that account
// and cannot change anything.
test('an admin creates a manager who sees only the linked account and can change nothing', async ({ page }) => {
  const email = `manager-${Date.now()}-${Math.floor(Math.random() * 1e6)}@example.com`;
  const password = 'Manager-e2e-1!';

  await openSignedIn(page, demo.admin);
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Managers' }).click();
  await page.getByRole('button', { name: 'New manager' }).click();
  const form = page.getByRole('dialog', { name: 'New manager' });
  await form.getByRole('textbox', { name: 'Name', exact: true }).fill('E2E Manager');
  await form.getByRole('textbox', { name: 'Email', exact: true }).fill(email);
  await expect(form.getByText('At least 8 characters, with one uppercase')).toBeVisible();

  // SPEC §5: the password rule and the confirmation are checked before anything is sent.
  await form.getByRole('textbox', { name: 'Password', exact: true }).fill('weakpass');
  await form.getByRole('textbox', { name: 'Confirm password', exact: true }).fill('other');
  await form.getByRole('button', { name: 'Create' }).click();
  await expect(form.getByText('The password did not match the requirements')).toBeVisible();
  await expect(form.getByText("Passwords don't match.")).toBeVisible();

  await form.getByRole('textbox', { name: 'Password', exact: true }).fill(password);
  await form.getByRole('textbox', { name: 'Confirm password', exact: true }).fill(password);
  // An address someone already signs in with is named beside the field
  // (docs/decisions/0049-taken-address-and-sums-all.md).
  await form.getByRole('textbox', { name: 'Email', exact: true }).fill(demo.manager);
  await form.getByRole('button', { name: 'Create' }).click();
  await expect(form.getByText('The email is already in use')).toBeVisible();
  await form.getByRole('textbox', { name: 'Email', exact: true }).fill(email);
  await expect(form.getByText('The email is already in use')).toBeHidden();
  await form.getByRole('combobox', { name: 'Linked accounts' }).click();
  await page.getByRole('option', { name: 'Terrace' }).click();
  await form.getByRole('textbox', { name: 'Name', exact: true }).click();
  await form.getByRole('button', { name: 'Create' }).click();
  await expect(form).toBeHidden();
  const row = page.getByRole('row').filter({ hasText: email });
  await expect(row).toContainText('E2E Manager');
  await expect(row).toContainText('Terrace');

  await page.getByRole('button', { name: 'Log Out' }).click();
  await expect(page).toHaveURL(/\/login/);
  await signInViaUi(page, email, { password });
  await expect(page).toHaveURL('/');
  expect(await sidebarEntries(page)).toEqual(['index', 'settings', 'accounts', 'bpts', 'integrations']);
  await expect(page.getByRole('combobox', { name: 'Account' }).getByRole('option')).toHaveText(['All', 'Terrace']);

  const token = await page.evaluate(() => localStorage.getItem('accessToken'));
  const write = await page.request.post('/api/accounts', {
    headers: { authorization: `Bearer ${token}` },
    data: { name: 'Not allowed' },
  });
  expect(write.status()).toBe(403);
  expect((await write.json()).code).toBe('Forbidden');
  const managers = await page.request.get('/api/managers', { headers: { authorization: `Bearer ${token}` } });
  expect(managers.status()).toBe(403);
});
