import { expect, test } from '@playwright/test';
import { demo, signInViaUi, storage } from './support.ts';

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
