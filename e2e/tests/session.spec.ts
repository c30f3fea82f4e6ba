import { expect, test } from '@playwright/test';
import { demo, expiredCopyOf, signInViaUi, storage } from './support.ts';

test('sign-in with remember on stores both tokens and the session facts', async ({ page }) => {
  await signInViaUi(page, demo.admin, { remember: true });
  const stored = await storage(page);
  expect(stored.accessToken).toBeTruthy();
  expect(stored.refreshToken).toBeTruthy();
  expect(stored).toMatchObject({ role: 'admin', language: 'en', remember: 'true' });
});

test('with remember on, an expired access token is refreshed and the call retried', async ({ page }) => {
  await signInViaUi(page, demo.admin, { remember: true });
  const before = await storage(page);
  const expired = await expiredCopyOf(before.accessToken ?? '');
  await page.evaluate((token) => localStorage.setItem('accessToken', token), expired);

  const refreshed = page.waitForResponse('**/api/auth/refresh-access-token');
  const calls: Array<{ path: string; status: number }> = [];
  page.on('response', (response) => {
    const { pathname } = new URL(response.url());
    if (pathname.startsWith('/api/') && !pathname.startsWith('/api/auth/')) {
      calls.push({ path: pathname, status: response.status() });
    }
  });
  await page.reload();
  expect((await refreshed).status()).toBe(200);

  await expect(page).toHaveURL('/');
  await expect(
    page.getByRole('combobox', { name: 'Account' }).getByRole('option', { name: 'Main counter' }),
  ).toBeAttached();
  // The home page loads several things at once: whichever got a 401 was retried and succeeded.
  const rejected = calls.filter((call) => call.status === 401);
  expect(rejected.length).toBeGreaterThan(0);
  for (const { path } of rejected) {
    expect(calls.some((call) => call.path === path && call.status === 200)).toBe(true);
  }
  const after = await storage(page);
  expect(after.accessToken).not.toBe(expired);
  // A refresh token works once: the one that replaced it is kept.
  expect(after.refreshToken).toBeTruthy();
  expect(after.refreshToken).not.toBe(before.refreshToken);
});

test('with remember off, no refresh token is kept and an expired token logs out', async ({ page }) => {
  await signInViaUi(page, demo.admin);
  const before = await storage(page);
  expect(before.refreshToken).toBeNull();
  expect(before.remember).toBe('false');

  let refreshCalls = 0;
  page.on('request', (request) => {
    if (request.url().endsWith('/api/auth/refresh-access-token')) refreshCalls += 1;
  });
  await page.evaluate(
    async (token) => localStorage.setItem('accessToken', token),
    await expiredCopyOf(before.accessToken ?? ''),
  );
  await page.reload();
  await expect(page).toHaveURL('/login');
  expect(refreshCalls).toBe(0);
  expect(await storage(page)).toMatchObject({
    accessToken: null,
    refreshToken: null,
    role: 'admin',
    language: 'en',
    remember: 'false',
  });
});

test('a refresh token the server no longer accepts logs out', async ({ page, request }) => {
  await signInViaUi(page, demo.admin, { remember: true });
  const before = await storage(page);
  await request.post('/api/auth/logout', { data: { refreshToken: before.refreshToken } });
  await page.evaluate(
    async (token) => localStorage.setItem('accessToken', token),
    await expiredCopyOf(before.accessToken ?? ''),
  );
  await page.reload();
  await expect(page).toHaveURL('/login');
  expect(await storage(page)).toMatchObject({ accessToken: null, refreshToken: null, remember: 'true' });
});

test('Log Out clears the tokens, keeps role, language and remember, and revokes the refresh token', async ({
  page,
  request,
}) => {
  await signInViaUi(page, demo.manager, { remember: true });
  const before = await storage(page);
  const revoked = page.waitForResponse('**/api/auth/logout');
  await page.getByRole('button', { name: 'Log Out' }).click();
  await expect(page).toHaveURL('/login');
  expect((await revoked).status()).toBe(204);
  expect(await storage(page)).toEqual({
    accessToken: null,
    refreshToken: null,
    role: 'manager',
    language: 'en',
    remember: 'true',
  });
  const refresh = await request.post('/api/auth/refresh-access-token', { data: { refreshToken: before.refreshToken } });
  expect(refresh.status()).toBe(401);
  // The remember box keeps its last state for the next sign-in.
  await expect(page.getByRole('checkbox', { name: 'Remember me' })).toBeChecked();
});

test('/login sends a signed-in user home', async ({ page }) => {
  await signInViaUi(page, demo.admin);
  await page.goto('/login');
  await expect(page).toHaveURL('/');
});

for (const path of ['/ecommerce/shopify?shop=demo-cafe.myshopify.com', '/ecommerce/ecwid?store=1234']) {
  test(`signed out on ${path.split('?')[0]}, login carries the full path and sign-in returns there`, async ({
    page,
  }) => {
    await page.goto(path);
    await expect(page).toHaveURL(`/login?redirect=${encodeURIComponent(path)}`);
    await signInViaUi(page, demo.admin);
    await expect(page).toHaveURL(path);
  });
}

test('other routes without a token log out to a plain /login', async ({ page }) => {
  for (const path of ['/', '/settings', '/back-office/org-1/infos']) {
    await page.goto(path);
    await expect(page).toHaveURL('/login');
  }
});

test('public routes and the bpt route parameter open without a token', async ({ page }) => {
  const cases = [
    ['/bpts/share-token-123', 'Terminal'],
    ['/signup', 'Create an account'],
    ['/forgot-password', 'Reset your password'],
    ['/confirm-forgot-password', 'Choose a new password'],
    ['/check-your-email', 'Check your email'],
    ['/onboard', 'Set up your organization'],
    ['/ecommerce/checkout/abc', 'Checkout'],
    ['/donation/abc', 'Donation'],
  ] as const;
  for (const [path, title] of cases) {
    await page.goto(path);
    await expect(page).toHaveURL(path);
    await expect(page.getByRole('heading', { level: 1, name: title })).toBeVisible();
  }
});

test('the login form shows the messages of SPEC §5 and §8', async ({ page }) => {
  await page.goto('/login');
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page.getByText('The email is missing')).toBeVisible();
  await expect(page.getByText('The password is missing')).toBeVisible();

  await page.getByRole('textbox', { name: 'Email' }).fill('not-an-email');
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page.getByText('The email is not valid')).toBeVisible();

  await page.getByRole('textbox', { name: 'Email' }).fill(demo.admin);
  await page.getByRole('textbox', { name: 'Password' }).fill('Wrong-password-1!');
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page.getByRole('alert')).toHaveText('Invalid email or password');
  await expect(page).toHaveURL('/login');
});
