import { expect, test } from '@playwright/test';
import { DEMO_PASSWORD, demo, openSignedIn, sendJson, sidebarEntries, signUpShop, storage } from './support.ts';

test('an unknown path shows the 404 page, whose button goes home', async ({ page }) => {
  await openSignedIn(page, demo.admin, '/no/such/page');
  await expect(page.getByRole('heading', { name: "This page doesn't exist" })).toBeVisible();
  await expect(page.getByRole('img', { name: 'Rayo' }).or(page.getByLabel('Rayo'))).toBeVisible();
  await expect(page.getByRole('navigation', { name: 'Main' })).toHaveCount(0);
  await page.getByRole('link', { name: 'Go to home page' }).click();
  await expect(page).toHaveURL('/');
});

test('the language switch turns the auth screens to Spanish and is remembered', async ({ page }) => {
  await page.goto('/login');
  await page.getByText('Español').click();
  await expect(page.getByRole('button', { name: 'Iniciar sesión' })).toBeVisible();
  await expect(page.locator('html')).toHaveAttribute('lang', 'es');
  expect((await storage(page)).language).toBe('es');

  await page.getByRole('button', { name: 'Iniciar sesión' }).click();
  await expect(page.getByText('Falta el correo electrónico')).toBeVisible();

  await page.reload();
  await expect(page.getByRole('button', { name: 'Iniciar sesión' })).toBeVisible();
  await page.getByText('English').click();
  await expect(page.getByRole('button', { name: 'Sign in' })).toBeVisible();
});

test("a language picked on the login page stays after sign-in and becomes the user's", async ({ page, request }) => {
  // A user of its own: the choice is saved, and the demo admin is shared with other specs.
  const shop = await signUpShop(request, {
    emailPrefix: 'picks-language',
    emailDomain: 'pages.example',
    name: 'Picks Language',
    password: DEMO_PASSWORD,
  });
  await page.goto('/login');
  await page.getByText('Español').click();
  await page.getByRole('textbox', { name: 'Correo electrónico' }).fill(shop.email);
  await page.getByRole('textbox', { name: 'Contraseña' }).fill(DEMO_PASSWORD);
  await page.getByRole('button', { name: 'Iniciar sesión' }).click();
  await expect(page).toHaveURL('/');
  await expect(page.getByRole('link', { name: 'Inicio' })).toBeVisible();
  expect((await storage(page)).language).toBe('es');
  await expect
    .poll(
      async () =>
        (
          await sendJson<{ language: string }>(request, '/api/auth/signin', {
            email: shop.email,
            password: DEMO_PASSWORD,
          })
        ).language,
    )
    .toBe('es');
});

test('the main layout reads in Spanish', async ({ page }) => {
  await openSignedIn(page, demo.superAdmin);
  await page.evaluate(() => localStorage.setItem('language', 'es'));
  await page.reload();
  const nav = page.getByRole('navigation', { name: 'Main' });
  for (const label of ['Inicio', 'Configuración', 'Cuentas', 'BPTs', 'Integraciones', 'Gestores', 'Back Office']) {
    await expect(nav.getByRole('link', { name: label })).toBeVisible();
  }
  await expect(page.getByRole('button', { name: 'Cerrar sesión' })).toBeVisible();
  await expect(page.getByRole('combobox', { name: 'Cuenta' }).locator('option:checked')).toHaveText('Todas');
});

test('a network error loading countries shows the red snackbar at the top', async ({ page }) => {
  await openSignedIn(page, demo.backOffice);
  await page.route('**/api/countries', (route) => route.abort('internetdisconnected'));
  await page.reload();
  const snackbar = page.getByRole('alert').filter({ hasText: 'Network error: Please reload the page' });
  await expect(snackbar).toBeVisible();
  const box = await snackbar.boundingBox();
  expect(box?.y).toBeLessThan(100);
  const [color, red] = await snackbar.evaluate((element) => [
    getComputedStyle(element).getPropertyValue('--notification-color'),
    getComputedStyle(document.documentElement).getPropertyValue('--mantine-color-red-filled'),
  ]);
  expect(color).toBe(red);
});

test('countries load into the back-office filter after All Countries', async ({ page }) => {
  await openSignedIn(page, demo.backOffice);
  await page.getByRole('combobox', { name: 'Country' }).click();
  const options = page.getByRole('option');
  await expect(options.first()).toHaveText('All Countries');
  await expect(page.getByRole('option', { name: 'Guatemala' })).toBeAttached();
});

test.describe('on a phone', () => {
  test.use({ viewport: { width: 390, height: 800 } });

  test('the sidebar becomes a top menu', async ({ page }) => {
    await openSignedIn(page, demo.admin);
    const menuButton = page.getByRole('button', { name: 'Menu' });
    await expect(menuButton).toBeVisible();
    await expect(page.getByRole('navigation', { name: 'Main' })).not.toBeInViewport();
    await menuButton.click();
    expect(await sidebarEntries(page)).toEqual(['index', 'settings', 'accounts', 'bpts', 'integrations', 'managers']);
    await page.getByRole('link', { name: 'Accounts' }).click();
    await expect(page).toHaveURL('/accounts');
    await expect(page.getByRole('heading', { name: 'Accounts' })).toBeVisible();
    await expect(page.getByRole('navigation', { name: 'Main' })).not.toBeInViewport();
  });
});

test('at 900 px the sidebar shows without a menu button', async ({ page }) => {
  await page.setViewportSize({ width: 900, height: 800 });
  await openSignedIn(page, demo.admin);
  await expect(page.getByRole('navigation', { name: 'Main' })).toBeInViewport();
  await expect(page.getByRole('button', { name: 'Menu' })).toHaveCount(0);
});

test('the first Tab reaches a skip link that moves the focus past the menu to the page', async ({ page }) => {
  await openSignedIn(page, demo.admin);
  await expect(page.getByRole('heading', { name: 'Home' })).toBeVisible();
  await page.keyboard.press('Tab');
  const skip = page.getByRole('link', { name: 'Skip to main content' });
  await expect(skip).toBeFocused();
  await expect(skip).toBeInViewport();
  await page.screenshot({ path: test.info().outputPath('skip-link-1280-en.png') });
  await page.keyboard.press('Enter');
  await expect(page.getByRole('main')).toBeFocused();
  // The next stop is inside the page, not the menu.
  await page.keyboard.press('Tab');
  expect(await page.evaluate(() => document.activeElement?.closest('main') !== null)).toBe(true);
});

test("a public page opens in the browser's language, and its switch changes it", async ({ browser, request }) => {
  const signIn = await request.post('/api/auth/signin', { data: { email: demo.admin, password: DEMO_PASSWORD } });
  const auth = { authorization: `Bearer ${(await signIn.json()).accessToken}` };
  const accounts = await (await request.get('/api/account/all', { headers: auth })).json();
  const bpt = await (
    await request.post('/api/bpts', {
      headers: auth,
      data: { name: `Stall ${Date.now()}`, accountId: accounts[0].id, currency: 'USD', shareable: true },
    })
  ).json();
  // A Mexican visitor who never chose a language here; the demo organization writes in English.
  const visitor = await browser.newContext({ locale: 'es-MX' });
  const page = await visitor.newPage();
  await page.goto(`/bpts/${bpt.shareToken}`);
  await expect(page.getByRole('heading', { name: 'Ventas de hoy en esta terminal' })).toBeVisible();
  await expect(page.locator('html')).toHaveAttribute('lang', 'es');
  await page.screenshot({ path: test.info().outputPath('shared-terminal-browser-es-1280.png') });
  await page.setViewportSize({ width: 390, height: 844 });
  await page.screenshot({ path: test.info().outputPath('shared-terminal-browser-es-390.png') });
  await page.getByText('English').click();
  await expect(page.getByRole('heading', { name: "Today's sales on this terminal" })).toBeVisible();
  await page.reload();
  await expect(page.getByRole('heading', { name: "Today's sales on this terminal" })).toBeVisible();
  await visitor.close();
});
