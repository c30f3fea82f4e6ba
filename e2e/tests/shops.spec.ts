import { type APIRequestContext, type Browser, expect, type Page, test } from '@playwright/test';
import { ecwidEncryptGcm, startEcwidStandIn, startShopifyStandIn } from '../../apps/server/test/shop-standins.ts';
import { E2E_ECWID_CDN, E2E_ECWID_PORT, E2E_SHOPIFY_PORT } from '../playwright.config.ts';
import { payCheckoutOnScreen, sendJson, signInViaUi, signUpShop } from './support.ts';

// The Shopify and Ecwid journeys from order to paid against local stand-ins of the platforms,
// which run in this test process on the ports the server is configured with. Each test starts
// the stand-in it needs on that one port, so this file's tests run one after another.
test.describe.configure({ mode: 'default' });

const PASSWORD = 'Tienda-2026!';
const PHONE = { width: 390, height: 844 };
const afterNavigation = expect.configure({ timeout: 30_000 });

/** A fresh organization with a GTQ terminal sold through a virtual BPT. */
async function openMerchant(request: APIRequestContext, language: 'en' | 'es') {
  const shop = await signUpShop(request, {
    emailPrefix: 'shops',
    emailDomain: 'tienda.example',
    name: 'Tienda',
    password: PASSWORD,
    language,
  });
  const account = await sendJson<{ id: string }>(request, '/api/accounts', { name: 'Online' }, shop.token);
  const bpt = await sendJson<{ id: string }>(
    request,
    '/api/bpts',
    { name: 'Web till', accountId: account.id, currency: 'GTQ' },
    shop.token,
  );
  const vbpt = await sendJson<{ id: string; name: string }>(
    request,
    '/api/virtual-bpts',
    { name: 'Web shop', bptId: bpt.id },
    shop.token,
  );
  await sendJson(request, '/api/settings/language', { language }, shop.token, 'PUT');
  return { ...shop, vbpt };
}

async function screenshots(page: Page, name: string, testInfo: { outputPath: (name: string) => string }) {
  await page.setViewportSize({ width: 1280, height: 900 });
  await page.screenshot({ path: testInfo.outputPath(`${name}-1280.png`), fullPage: true });
  await page.setViewportSize(PHONE);
  await page.screenshot({ path: testInfo.outputPath(`${name}-390.png`), fullPage: true });
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(PHONE.width);
  await page.setViewportSize({ width: 1280, height: 900 });
}

/** Ecwid's CDN, answered locally: an SDK that records how it was started, and a stylesheet. */
async function serveEcwidCdn(page: Page) {
  await page.route(`${E2E_ECWID_CDN}/**`, (route) =>
    route.request().url().endsWith('.js')
      ? route.fulfill({
          contentType: 'text/javascript',
          body: 'window.EcwidApp = { init: function (options) { window.ecwidInit = options; } };',
        })
      : route.fulfill({ contentType: 'text/css', body: 'body { font-family: sans-serif; }' }),
  );
}

async function phonePage(browser: Browser) {
  const phone = await browser.newContext({ viewport: PHONE });
  await phone.addInitScript(() => localStorage.setItem('language', 'en'));
  return { phone, page: await phone.newPage() };
}

test('Shopify: the admin connects the store, the shopper pays the order, and Shopify has it paid', async ({
  page,
  browser,
  request,
}, testInfo) => {
  const shopify = await startShopifyStandIn(E2E_SHOPIFY_PORT);
  try {
    const merchant = await openMerchant(request, 'en');
    const domain = `tienda-${merchant.suffix}.myshopify.com`;
    const app = {
      clientId: `e2e${merchant.suffix}0123456789abcdef`.slice(0, 32),
      clientSecret: `shpss_${merchant.suffix}_0123456789`,
    };
    shopify.addShop(domain, app, 'Tienda Online');

    // Signed out, the page sends its full path to the login, and sign-in returns there.
    await page.goto(`/ecommerce/shopify?shop=${domain}`);
    await expect(page).toHaveURL(`/login?redirect=${encodeURIComponent(`/ecommerce/shopify?shop=${domain}`)}`);
    await signInViaUi(page, merchant.email, { password: PASSWORD });
    await expect(page).toHaveURL(`/ecommerce/shopify?shop=${domain}`);
    await afterNavigation(page.getByRole('heading', { name: 'Connect Shopify' })).toBeVisible();
    await expect(page.getByRole('region', { name: 'Set up Shopify' }).getByRole('listitem')).toHaveCount(4);

    await page.getByRole('textbox', { name: 'Store domain' }).fill(domain);
    await page.getByRole('textbox', { name: 'Client ID' }).fill(app.clientId);
    await page.getByLabel('Client secret').fill('shpss_not_the_right_one_000');
    await page.getByRole('combobox', { name: 'Virtual BPT' }).click();
    await page.getByRole('option', { name: /Web shop/ }).click();
    await screenshots(page, 'shopify-form-en', testInfo);
    await page.getByRole('button', { name: 'Connect' }).click();
    await expect(page.getByRole('alert')).toContainText('The store did not accept these details');
    await page.getByLabel('Client secret').fill(app.clientSecret);
    await page.getByRole('button', { name: 'Connect' }).click();
    await expect(page.getByTestId('shop-connected-name')).toHaveText(`Tienda Online (${domain})`);
    const entry = (await page.getByTestId('shop-entry-url').textContent()) ?? '';
    expect(entry).toMatch(/\/api\/public\/shopify\/pay\?shop=.*&order=$/);
    await expect(page.getByTestId('shopify-rayo-address')).toHaveText(new URL(entry).origin);
    // Connecting minted a token with the app and subscribed its webhooks by uri.
    expect(shopify.grants.filter((grant) => grant.shop === domain).map((grant) => grant.status)).toEqual([400, 200]);
    expect(
      shopify.subscriptions
        .filter((s) => s.shop === domain)
        .map((s) => s.topic)
        .sort(),
    ).toEqual(['APP_UNINSTALLED', 'ORDERS_CANCELLED', 'ORDERS_PAID']);
    await screenshots(page, 'shopify-connected-en', testInfo);

    // The shopper's order, paid with the manual method; the extension's button is the pay link.
    const statusPage = `https://${domain}/orders/status-1001`;
    const order = shopify.addOrder(domain, {
      name: '#1001',
      amount: '73.0',
      currencyCode: 'GTQ',
      statusPageUrl: statusPage,
    });
    const { phone, page: payer } = await phonePage(browser);
    await payer.route(statusPage, (route) =>
      route.fulfill({ contentType: 'text/html', body: '<h1>Order #1001 status</h1>' }),
    );
    await payer.goto(`${entry}${order}`);
    await expect(payer).toHaveURL(/\/ecommerce\/checkout\/[0-9a-f-]{36}$/);
    await expect(payer.getByTestId('checkout-amount')).toContainText(/73[.,]00/);
    await expect(payer.getByTestId('order-summary')).toContainText('#1001');
    await payCheckoutOnScreen(request, payer);

    // Shopify hears of it once, from the job; the shopper goes back to the order status page.
    await expect.poll(() => shopify.order(order)?.financialStatus, { timeout: 30_000 }).toBe('PAID');
    expect(shopify.marks.filter((mark) => mark.id.endsWith(`/${order}`))).toHaveLength(1);
    await payer.getByRole('link', { name: 'Return to the store' }).click();
    await expect(payer.getByRole('heading', { name: 'Order #1001 status' })).toBeVisible();

    // The link again: the same, paid checkout.
    await payer.goto(`${entry}${order}`);
    await expect(payer.getByRole('heading', { name: 'Payment completed' })).toBeVisible({ timeout: 15_000 });
    await phone.close();
  } finally {
    await shopify.stop();
  }
});

test('Ecwid: the app page inside Ecwid saves the store, Ecwid posts the order, and the order is PAID before the shopper returns', async ({
  page,
  browser,
  request,
}, testInfo) => {
  const ecwid = await startEcwidStandIn(E2E_ECWID_PORT);
  try {
    const merchant = await openMerchant(request, 'en');
    const storeId = String(Date.now() % 1_000_000_000);
    const secret = `Ecwid${merchant.suffix}Secret-0123456789`.slice(0, 30);
    const storeToken = `secret_${merchant.suffix}`;
    ecwid.addStore(storeId, storeToken, 'Tienda Ecwid');

    await serveEcwidCdn(page);
    await page.goto('/ecommerce/ecwid');
    await expect(page).toHaveURL(`/login?redirect=${encodeURIComponent('/ecommerce/ecwid')}`);
    await signInViaUi(page, merchant.email, { password: PASSWORD });
    await expect(page).toHaveURL('/ecommerce/ecwid');
    await expect(
      page.getByRole('heading', { name: 'The easiest and fastest way to receive bitcoin payments' }),
    ).toBeVisible();
    await expect(page.getByRole('link', { name: 'Open App' })).toBeVisible();
    await expect(page.getByRole('listitem')).toHaveCount(4);
    await expect
      .poll(() => page.evaluate(() => (window as { ecwidInit?: { app_id: string } }).ecwidInit?.app_id))
      .toBe('rayo-e2e');

    await page.getByRole('textbox', { name: 'Store ID' }).fill(storeId);
    await page.getByLabel('Client secret').fill(secret);
    // A token Ecwid does not take for this store is refused before anything is saved.
    await page.getByLabel('Secret token').fill('secret_notthisstore1');
    await page.getByRole('combobox', { name: 'Virtual BPT' }).click();
    await page.getByRole('option', { name: /Web shop/ }).click();
    await page.getByRole('button', { name: 'Connect' }).click();
    await expect(page.getByRole('alert')).toContainText('The store did not accept these details');
    await page.getByLabel('Secret token').fill(storeToken);
    await page.getByRole('button', { name: 'Connect' }).click();
    const entry = (await page.getByTestId('shop-entry-url').textContent()) ?? '';
    expect(entry).toMatch(new RegExp(`/api/ecwid/payment\\?storeId=${storeId}$`));
    await screenshots(page, 'ecwid-connected-en', testInfo);

    // Ecwid sends the shopper's browser to the paymentUrl with the order encrypted.
    const reference = `transaction_${merchant.suffix}`;
    const returnUrl = `https://app.ecwid.com/custompaymentapps/${storeId}?orderId=${reference}&clientId=rayo-e2e`;
    const encData = ecwidEncryptGcm(
      JSON.stringify({
        storeId: Number(storeId),
        returnUrl,
        token: storeToken,
        lang: 'en',
        merchantAppSettings: {},
        cart: {
          currency: 'GTQ',
          order: {
            id: 'XJ1',
            orderNumber: 77,
            referenceTransactionId: reference,
            total: 36.5,
            paymentStatus: 'INCOMPLETE',
          },
        },
      }),
      secret,
    );
    const { phone, page: payer } = await phonePage(browser);
    await payer.route('https://app.ecwid.com/**', (route) =>
      route.fulfill({ contentType: 'text/html', body: '<h1>Thank you for your order</h1>' }),
    );
    await payer.goto('/api/health');
    await payer.setContent(
      `<form method="post" action="${entry}"><input type="hidden" name="enc_data" value="${encData}"><button>Go to payment</button></form>`,
    );
    await payer.getByRole('button', { name: 'Go to payment' }).click();
    await expect(payer).toHaveURL(/\/ecommerce\/checkout\/[0-9a-f-]{36}$/);
    await expect(payer.getByTestId('checkout-amount')).toContainText(/36[.,]50/);
    await payCheckoutOnScreen(request, payer);

    await expect.poll(() => ecwid.updates.length, { timeout: 30_000 }).toBe(1);
    expect(ecwid.updates[0]).toEqual({ storeId, orderId: reference, body: { paymentStatus: 'PAID' } });
    const back = payer.getByRole('link', { name: 'Return to the store' });
    await expect(back).toHaveAttribute('href', returnUrl);
    await back.click();
    await expect(payer.getByRole('heading', { name: 'Thank you for your order' })).toBeVisible();
    await phone.close();
  } finally {
    await ecwid.stop();
  }
});

test('the Shopify and Ecwid screens in Spanish, connected, and the Ecwid page without its SDK', async ({
  page,
  request,
}, testInfo) => {
  const shopify = await startShopifyStandIn(E2E_SHOPIFY_PORT);
  const ecwid = await startEcwidStandIn(E2E_ECWID_PORT);
  try {
    const merchant = await openMerchant(request, 'es');
    // No route for Ecwid's CDN: the SDK does not load, and the page works the same.
    await page.route(`${E2E_ECWID_CDN}/**`, (route) => route.abort());
    await page.goto('/login');
    await page.evaluate(() => localStorage.setItem('language', 'es'));
    await page.goto('/ecommerce/shopify');
    await page.getByRole('textbox', { name: /Correo/ }).fill(merchant.email);
    await page.getByRole('textbox', { name: /Contraseña/ }).fill(PASSWORD);
    await page.getByRole('button', { name: /Iniciar sesión/ }).click();
    await afterNavigation(page.getByRole('heading', { name: 'Conectar Shopify' })).toBeVisible();
    await expect(page.getByRole('heading', { name: 'Configura Shopify' })).toBeVisible();
    await screenshots(page, 'shopify-es', testInfo);
    const domain = `tienda-es-${merchant.suffix}.myshopify.com`;
    const app = {
      clientId: `es${merchant.suffix}0123456789abcdef`.slice(0, 32),
      clientSecret: `shpss_es_${merchant.suffix}_0123`,
    };
    shopify.addShop(domain, app, 'Tienda en línea');
    await page.getByRole('textbox', { name: 'Dominio de la tienda' }).fill(domain);
    await page.getByRole('textbox', { name: 'Client ID' }).fill(app.clientId);
    await page.getByLabel('Secreto de cliente').fill(app.clientSecret);
    await page.getByRole('combobox', { name: 'BPT virtual' }).click();
    await page.getByRole('option', { name: /Web shop/ }).click();
    await page.getByRole('button', { name: 'Conectar', exact: true }).click();
    await expect(page.getByTestId('shop-connected-name')).toHaveText(`Tienda en línea (${domain})`);
    await expect(page.getByText('En el editor de checkout, pon esta dirección de Rayo')).toBeVisible();
    await screenshots(page, 'shopify-connected-es', testInfo);

    await page.goto('/ecommerce/ecwid');
    await afterNavigation(
      page.getByRole('heading', { name: 'La forma más fácil y rápida de recibir pagos en bitcoin' }),
    ).toBeVisible();
    await expect(page.getByRole('link', { name: 'Abrir app' })).toBeVisible();
    await expect(page.getByRole('textbox', { name: 'ID de la tienda' })).toBeVisible();
    await screenshots(page, 'ecwid-es', testInfo);
    const storeId = String((Date.now() + 7) % 1_000_000_000);
    ecwid.addStore(storeId, `secret_es${merchant.suffix}`, 'Tienda Ecwid');
    await page.getByRole('textbox', { name: 'ID de la tienda' }).fill(storeId);
    await page.getByLabel('Secreto de cliente').fill(`EcwidEs${merchant.suffix}Secret-0123`);
    await page.getByLabel('Token secreto').fill(`secret_es${merchant.suffix}`);
    await page.getByRole('combobox', { name: 'BPT virtual' }).click();
    await page.getByRole('option', { name: /Web shop/ }).click();
    await page.getByRole('button', { name: 'Conectar', exact: true }).click();
    await expect(page.getByTestId('shop-connected-name')).toHaveText(`Tienda Ecwid (${storeId})`);
    await screenshots(page, 'ecwid-connected-es', testInfo);
    // The Integrations page links to both.
    await page.goto('/integrations');
    await expect(page.getByRole('link', { name: 'Shopify' })).toHaveAttribute('href', '/ecommerce/shopify');
    await expect(page.getByRole('link', { name: 'Ecwid' })).toHaveAttribute('href', '/ecommerce/ecwid');
  } finally {
    await shopify.stop();
    await ecwid.stop();
  }
});
