import { expect, test } from '@playwright/test';
import { demo, openSignedIn, sidebarEntries, signInViaUi } from './support.ts';

// SPEC §6: the sidebar entries of each role, in order.
const cases = [
  {
    email: demo.superAdmin,
    home: '/',
    entries: ['index', 'settings', 'accounts', 'bpts', 'integrations', 'managers', 'back-office'],
  },
  { email: demo.admin, home: '/', entries: ['index', 'settings', 'accounts', 'bpts', 'integrations', 'managers'] },
  { email: demo.manager, home: '/', entries: ['index', 'settings', 'accounts', 'bpts', 'integrations'] },
  // Back office also gets its own Settings (docs/decisions/0003-settings-for-back-office.md).
  { email: demo.backOffice, home: '/back-office', entries: ['back-office', 'settings'] },
];

for (const { email, home, entries } of cases) {
  test(`${email} lands on ${home} with exactly the sidebar of the role`, async ({ page }) => {
    await signInViaUi(page, email);
    await expect(page).toHaveURL(home);
    expect(await sidebarEntries(page)).toEqual(entries);
    await expect(page.getByRole('button', { name: 'Log Out' })).toBeVisible();
    await expect(page.getByRole('button', { name: 'Need help? Contact Us' })).toBeVisible();
  });
}

test('the sidebar labels read as SPEC names them', async ({ page }) => {
  await openSignedIn(page, demo.superAdmin);
  const nav = page.getByRole('navigation', { name: 'Main' });
  for (const label of ['Home', 'Settings', 'Accounts', 'BPTs', 'Integrations', 'Managers', 'Back Office']) {
    await expect(nav.getByRole('link', { name: label })).toBeVisible();
  }
});

test('a manager sees only the linked account and cannot open Managers', async ({ page }) => {
  await openSignedIn(page, demo.manager);
  await expect(page.getByRole('combobox', { name: 'Account' }).getByRole('option')).toHaveText(['All', 'Main counter']);
  await page.goto('/managers');
  await expect(page).toHaveURL('/');
});

test('back office opening a merchant route is sent to the back office', async ({ page }) => {
  await openSignedIn(page, demo.backOffice, '/accounts');
  await expect(page).toHaveURL('/back-office');
});

test('detail routes highlight their sidebar entry', async ({ page }) => {
  await openSignedIn(page, demo.superAdmin);
  const cases = [
    ['/back-office/org-1/infos', 'back-office'],
    ['/back-office/org-1/transactions', 'back-office'],
    ['/accounts/acc-1/links', 'accounts'],
    ['/integrations/payment-links/vbpt-1', 'integrations'],
    ['/settings', 'settings'],
  ] as const;
  for (const [path, entry] of cases) {
    await page.goto(path);
    const current = page.getByRole('navigation', { name: 'Main' }).locator('[aria-current="page"]');
    await expect(current).toHaveCount(1);
    await expect(current).toHaveAttribute('data-nav', entry);
  }
});

test('Need help copies the support address', async ({ page, context }) => {
  await context.grantPermissions(['clipboard-read', 'clipboard-write']);
  await openSignedIn(page, demo.admin);
  await page.getByRole('button', { name: 'Need help? Contact Us' }).click();
  await expect(page.getByText('Email copied to clipboard.')).toBeVisible();
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe('support@rayo.local');
});

// Issue 26: a browser that refuses the clipboard left the click without any answer.
test('Need help shows the support address when the browser will not copy it', async ({ page }) => {
  await page.addInitScript(() => {
    Object.defineProperty(navigator, 'clipboard', {
      value: { writeText: () => Promise.reject(new DOMException('Write permission denied.', 'NotAllowedError')) },
    });
  });
  await openSignedIn(page, demo.admin);
  await page.getByRole('button', { name: 'Need help? Contact Us' }).click();
  await expect(page.getByText('Write to us at support@rayo.local')).toBeVisible();
});
