import { type APIRequestContext, type Browser, expect, type Locator, type Page, test } from '@playwright/test';
import { ALL_COUNTRIES_ID } from '@rayo/shared';
import { E2E_ECWID_CDN } from '../playwright.config.ts';
import { expectAccessible } from './axe.ts';
import { DEMO_PASSWORD, demo, openSignedIn, sendJson, signUpShop } from './support.ts';

/**
 * Every screen of the router, signed out and as each role that sees different ones, in English and
 * (the main ones) in Spanish, checked against WCAG 2.1 A and AA: any serious or critical finding
 * fails the run, listed by screen, rule and element. Each screen is checked at a desktop's width,
 * and at a phone's too where its page differs there (see `Screen.phone`).
 */

const DESKTOP = { width: 1280, height: 900 };
const PHONE = { width: 390, height: 844 };
const PASSWORD = 'Accesible-2026!';
/** For the first look after a navigation: each screen's code loads lazily, slowly on a busy machine. */
const afterNavigation = expect.configure({ timeout: 60_000 });

type Language = 'en' | 'es';

/** Every screen names itself in the browser's tab and history: '<screen> · Rayo'. */
async function expectOwnTitle(page: Page, screen: string) {
  expect.soft(await page.title(), `the title of ${screen}`).toMatch(/^\S.* · Rayo$/);
}

/** The screen at the desktop's width, then at the phone's where its page differs there. */
async function expectAccessibleAtWidths(page: Page, screen: string, ready: () => Locator, options: ScreenOptions) {
  await page.setViewportSize(DESKTOP);
  await settled(page, ready(), options.waitsForPayment);
  await expectAccessible(page, `${screen} @1280`);
  if (!options.phone) return;
  await page.setViewportSize(PHONE);
  await settled(page, ready(), options.waitsForPayment);
  await expectAccessible(page, `${screen} @390`);
  await page.setViewportSize(DESKTOP);
}

/**
 * The screen has painted what it loads: its landmark is shown and nothing is still spinning (but
 * on screens that wait for a payment, where a spinner says so).
 */
async function settled(page: Page, ready: Locator, waitsForPayment = false) {
  await afterNavigation(ready).toBeVisible();
  if (!waitsForPayment) await afterNavigation(page.locator('.mantine-Loader-root:visible')).toHaveCount(0);
  await afterNavigation(page.locator('.mantine-Skeleton-root:visible')).toHaveCount(0);
}

/** A dialog done fading in: half-transparent text would be measured at a contrast it never keeps. */
async function openedDialog(page: Page): Promise<Locator> {
  const dialog = page.getByRole('dialog');
  await expect(dialog).toBeVisible();
  await expect.poll(() => dialog.evaluate((element) => getComputedStyle(element).opacity)).toBe('1');
  return dialog;
}

const heading = (page: Page) => page.getByRole('heading', { level: 1 }).first();

async function inLanguage(page: Page, language: Language) {
  await page.evaluate((lang) => localStorage.setItem('language', lang), language);
}

/** Signed in at `path`: the form's own screens are checked signed out, and this file checks what follows. */
async function signedInPage(browser: Browser, email: string, path: string, password = DEMO_PASSWORD): Promise<Page> {
  const context = await browser.newContext({ viewport: DESKTOP });
  // Ecwid's SDK comes from its CDN, which this machine cannot reach; the page works without it.
  await context.route(`${E2E_ECWID_CDN}/**`, (route) => route.abort());
  const page = await context.newPage();
  await openSignedIn(page, email, path, { password, language: 'en' });
  return page;
}

async function signInApi(request: APIRequestContext, email: string): Promise<string> {
  const session = await sendJson<{ accessToken: string }>(request, '/api/auth/signin', {
    email,
    password: DEMO_PASSWORD,
  });
  return session.accessToken;
}

async function getJson<T>(request: APIRequestContext, url: string, token: string): Promise<T> {
  const response = await request.get(url, { headers: { authorization: `Bearer ${token}` } });
  expect(response.ok(), `${url}: ${response.status()}`).toBe(true);
  return response.json() as Promise<T>;
}

/**
 * A fresh organization of the spec's own with what its public pages need: a shareable terminal, a
 * virtual BPT with a payment link, and a donation link.
 */
async function openShop(request: APIRequestContext) {
  const { email, token } = await signUpShop(request, {
    emailPrefix: 'a11y',
    emailDomain: 'accesible.example',
    name: 'Panadería',
    password: PASSWORD,
  });
  const account = await sendJson<{ id: string }>(request, '/api/accounts', { name: 'Online' }, token);
  const bpt = await sendJson<{ id: string; shareToken: string }>(
    request,
    '/api/bpts',
    { name: 'Counter', accountId: account.id, currency: 'GTQ', shareable: true },
    token,
  );
  const virtualBpt = await sendJson<{ id: string }>(
    request,
    '/api/virtual-bpts',
    { name: 'Website', bptId: bpt.id },
    token,
  );
  const checkout = await sendJson<{ url: string }>(
    request,
    '/api/checkouts',
    {
      amount: '36.50',
      currency: 'GTQ',
      orderId: `A11Y-${Date.now().toString(36)}`,
      virtualBptId: virtualBpt.id,
      description: 'Two loaves',
      expiresInSeconds: 600,
    },
    token,
  );
  const donation = await sendJson<{ id: string }>(
    request,
    '/api/donation-links',
    { virtualBptId: virtualBpt.id, title: 'Bake for the school' },
    token,
  );
  return {
    email,
    shareToken: bpt.shareToken,
    virtualBptId: virtualBpt.id,
    checkoutPath: new URL(checkout.url).pathname,
    donationPath: `/donation/${donation.id}`,
  };
}

type Shop = Awaited<ReturnType<typeof openShop>>;
let shop: Shop | undefined;
/** One shop for the whole file, made by whichever test needs it first in each worker. */
async function theShop(request: APIRequestContext): Promise<Shop> {
  shop ??= await openShop(request);
  return shop;
}

type ScreenOptions = {
  waitsForPayment?: boolean;
  /**
   * The page differs on a phone beyond where its parts sit: elements shown or hidden there (the
   * signed-in header and its menu button, phone-only columns and lines, the settings' top menu),
   * or a table that scrolls sideways. Those are what axe can find only at the phone's width; a
   * page whose columns merely stack has the same elements, names and colours at both widths.
   */
  phone?: boolean;
};
type Screen = { path: string; name: string; ready?: (page: Page) => Locator } & ScreenOptions;

/**
 * Each screen in English at the desktop's width and, where its page differs there, the phone's;
 * then the main ones (`spanish`) in Spanish at the width they are mostly used at: a phone for the
 * public pages, a desktop for the dashboard.
 */
async function expectScreensAccessible(
  page: Page,
  who: string,
  screens: Screen[],
  spanish: { names: string[]; viewport: typeof DESKTOP },
) {
  await inLanguage(page, 'en');
  for (const screen of screens) {
    await page.goto(screen.path);
    await expectAccessibleAtWidths(page, `en ${who} ${screen.name}`, () => (screen.ready ?? heading)(page), screen);
    await expectOwnTitle(page, `en ${who} ${screen.name}`);
  }
  await inLanguage(page, 'es');
  await page.setViewportSize(spanish.viewport);
  for (const screen of screens.filter(({ name }) => spanish.names.includes(name))) {
    await page.goto(screen.path);
    await settled(page, (screen.ready ?? heading)(page), screen.waitsForPayment);
    await expectAccessible(page, `es ${who} ${screen.name} @${spanish.viewport.width}`);
    await expectOwnTitle(page, `es ${who} ${screen.name}`);
  }
  await inLanguage(page, 'en');
  await page.setViewportSize(DESKTOP);
}

// A busy machine runs an axe pass in several seconds; each test does a few dozen.
test.describe.configure({ timeout: 300_000 });

test('the signed-out screens meet WCAG 2.1 AA, in English and Spanish', async ({ browser, request }) => {
  const { checkoutPath, donationPath, shareToken } = await theShop(request);
  const context = await browser.newContext({ viewport: DESKTOP });
  const page = await context.newPage();
  await page.goto('/login');
  // None of these pages differs on a phone beyond stacking; the main ones are checked there, in Spanish.
  const screens: Screen[] = [
    { path: '/login', name: 'login' },
    { path: '/signup', name: 'signup' },
    { path: '/forgot-password', name: 'forgot-password' },
    { path: '/confirm-forgot-password?email=someone%40example.com', name: 'confirm-forgot-password' },
    { path: '/check-your-email?email=someone%40example.com', name: 'check-your-email' },
    { path: '/onboard?code=not-a-real-code', name: 'onboard' },
    {
      path: checkoutPath,
      name: 'checkout',
      ready: (p) => p.getByTestId('checkout-countdown'),
      waitsForPayment: true,
    },
    { path: donationPath, name: 'donation' },
    { path: `/bpts/${shareToken}`, name: 'shared terminal', ready: (p) => p.getByText('Counter').first() },
    { path: '/devnet/wallet', name: 'devnet wallet' },
    { path: '/no/such/page', name: 'not found' },
  ];
  await expectScreensAccessible(page, 'signed out', screens, {
    names: ['login', 'signup', 'forgot-password', 'checkout', 'donation', 'shared terminal'],
    viewport: PHONE,
  });
  // The sign-in form as the user meets it after a slip, its errors shown.
  await page.goto('/login');
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page.getByRole('textbox', { name: 'Email' })).toHaveAttribute('aria-invalid', 'true');
  await expectAccessible(page, 'en signed out login with errors');
  await context.close();
});

test('the admin screens meet WCAG 2.1 AA, in English and Spanish', async ({ browser, request }) => {
  const token = await signInApi(request, demo.admin);
  const [account] = await getJson<{ id: string }[]>(request, '/api/account/all', token);
  const [bpt] = await getJson<{ id: string }[]>(request, '/api/bpts', token);
  expect(account && bpt).toBeTruthy();
  const page = await signedInPage(browser, demo.admin, '/');
  const screens: Screen[] = [
    // The signed-in header with its menu button, a phone's charts, and a table that scrolls.
    { path: '/', name: 'home', ready: (p) => p.getByRole('table').first(), phone: true },
    // The sections' top menu, the same on every section: checked here.
    { path: '/settings', name: 'settings', phone: true },
    { path: '/settings/security', name: 'settings security' },
    // A table that scrolls; phone-only columns and lines.
    { path: '/settings/payouts', name: 'settings payouts', phone: true },
    { path: '/settings/verification', name: 'settings verification', phone: true },
    { path: '/settings/branding', name: 'settings branding' },
    { path: '/settings/developers', name: 'settings developers', phone: true },
    { path: '/accounts', name: 'accounts' },
    { path: `/accounts/${account?.id}/links`, name: 'account links' },
    // A phone's own list of BPTs.
    { path: '/bpts', name: 'bpts', phone: true },
    // A phone's list of the latest sales.
    {
      path: `/bpts/${bpt?.id}/terminal`,
      name: 'terminal',
      ready: (p) => p.getByRole('button', { name: /^(Charge|Cobrar)/ }),
      phone: true,
    },
    // Phone-only lines under each manager's name.
    { path: '/managers', name: 'managers', phone: true },
  ];
  await expectScreensAccessible(page, 'admin', screens, {
    names: ['home', 'settings', 'bpts', 'terminal'],
    viewport: DESKTOP,
  });
  // The phone's top menu, opened.
  await page.setViewportSize(PHONE);
  await page.goto('/');
  await settled(page, page.getByRole('table').first());
  await page.getByRole('button', { name: 'Menu' }).click();
  await expect(page.getByRole('navigation', { name: 'Main' })).toBeVisible();
  await expectAccessible(page, 'en admin phone menu @390');
  await page.context().close();
});

test('the admin dialogs meet WCAG 2.1 AA', async ({ browser }) => {
  const page = await signedInPage(browser, demo.admin, '/accounts');
  // A form of each kind (new account, BPT, manager) and a confirmation (deleting an account).
  const dialogs = [
    { path: '/accounts', open: (p: Page) => p.getByRole('button', { name: 'New account' }), name: 'new account' },
    {
      path: '/accounts',
      open: (p: Page) => p.getByRole('button', { name: /^Delete / }).first(),
      name: 'delete account confirmation',
    },
    { path: '/bpts', open: (p: Page) => p.getByRole('button', { name: 'New BPT' }), name: 'new BPT' },
    { path: '/managers', open: (p: Page) => p.getByRole('button', { name: 'New manager' }), name: 'new manager' },
  ];
  for (const dialog of dialogs) {
    await page.goto(dialog.path);
    await settled(page, heading(page));
    await dialog.open(page).click();
    await openedDialog(page);
    await expectAccessible(page, `en admin ${dialog.name} dialog`);
    await page.keyboard.press('Escape');
    await expect(page.getByRole('dialog')).toBeHidden();
  }
  await page.context().close();
});

test('the integrations, payment links and shop screens meet WCAG 2.1 AA', async ({ browser, request }) => {
  const { email, virtualBptId } = await theShop(request);
  const page = await signedInPage(browser, email, '/integrations', PASSWORD);
  const screens: Screen[] = [
    // Phone-only lines in the virtual BPTs' table.
    { path: '/integrations', name: 'integrations', phone: true },
    { path: `/integrations/payment-links/${virtualBptId}`, name: 'payment links' },
    { path: '/ecommerce/shopify', name: 'shopify' },
    { path: '/ecommerce/ecwid', name: 'ecwid', ready: (p) => p.getByRole('heading').first() },
  ];
  await expectScreensAccessible(page, 'shop', screens, {
    names: ['integrations', 'payment links'],
    viewport: DESKTOP,
  });
  await page.context().close();
});

test('the manager and back-office screens meet WCAG 2.1 AA, in English and Spanish', async ({ browser, request }) => {
  const manager = await signedInPage(browser, demo.manager, '/');
  await expectScreensAccessible(
    manager,
    'manager',
    [
      { path: '/', name: 'home', ready: (p) => p.getByRole('table').first(), phone: true },
      { path: '/settings', name: 'settings', phone: true },
      { path: '/accounts', name: 'accounts' },
      { path: '/bpts', name: 'bpts', phone: true },
    ],
    { names: [], viewport: DESKTOP },
  );
  await manager.context().close();

  const token = await signInApi(request, demo.backOffice);
  const { organizations } = await getJson<{ organizations: { id: string }[] }>(
    request,
    `/api/back-office/organizations?country=${ALL_COUNTRIES_ID}&page=1&limit=10`,
    token,
  );
  const organizationId = organizations[0]?.id;
  expect(organizationId).toBeTruthy();
  const page = await signedInPage(browser, demo.backOffice, '/back-office');
  await expectScreensAccessible(
    page,
    'back office',
    [
      // Each has a table that scrolls on a phone.
      { path: '/back-office', name: 'organizations', phone: true },
      {
        path: `/back-office/${organizationId}/infos`,
        name: 'infos',
        ready: (p) => p.getByTestId('verifications'),
        phone: true,
      },
      { path: `/back-office/${organizationId}/transactions`, name: 'transactions', phone: true },
      { path: '/settings', name: 'settings', phone: true },
      { path: '/settings/security', name: 'settings security' },
    ],
    { names: ['organizations', 'infos', 'transactions', 'settings', 'settings security'], viewport: DESKTOP },
  );
  // The back office's other sections, each a tab of its first screen.
  await page.goto('/back-office');
  await settled(page, heading(page));
  for (const tab of [1, 2, 3, 4]) {
    await page.getByRole('tab').nth(tab).click();
    await settled(page, page.getByRole('tabpanel'));
    await expectAccessible(page, `en back office tab ${tab + 1}`);
  }
  await page.context().close();
});

test('a sale on the shared terminal meets WCAG 2.1 AA while it waits for payment and once paid', async ({
  browser,
  request,
}) => {
  const { shareToken } = await theShop(request);
  const context = await browser.newContext({ viewport: PHONE });
  const page = await context.newPage();
  await page.goto(`/bpts/${shareToken}`);
  const keypad = page.getByRole('group', { name: 'Keypad' });
  await afterNavigation(keypad).toBeVisible();
  await keypad.getByRole('button', { name: '5', exact: true }).click();
  const created = page.waitForResponse((r) => r.url().endsWith('/invoices') && r.request().method() === 'POST');
  await page.getByRole('button', { name: /^Charge / }).click();
  const invoice = (await (await created).json()) as { paymentRequest: string };
  await expect(page.getByRole('img', { name: 'QR code of the Lightning invoice' })).toBeVisible();
  await expectAccessible(page, 'en shared terminal invoice @390');
  await sendJson(request, '/api/devnet/pay', { paymentRequest: invoice.paymentRequest });
  const paid = page.getByRole('dialog', { name: 'Paid' });
  await expect(paid).toBeVisible();
  await expect.poll(() => paid.evaluate((element) => getComputedStyle(element).opacity)).toBe('1');
  await expectAccessible(page, 'en shared terminal paid @390');
  await context.close();
});

test('the password is revealed from the keyboard, and its button says so', async ({ page }) => {
  await page.goto('/login');
  const password = page.getByRole('textbox', { name: 'Password' });
  await afterNavigation(password).toBeVisible();
  await password.fill('Secret-2026!');
  await password.press('Tab');
  const reveal = page.getByRole('button', { name: 'Show password' });
  await expect(reveal).toBeFocused();
  await expect(reveal).toHaveAttribute('aria-pressed', 'false');
  await page.keyboard.press('Space');
  await expect(reveal).toHaveAttribute('aria-pressed', 'true');
  await expect(password).toHaveAttribute('type', 'text');
});
