import { type APIRequestContext, type Browser, expect, type Page, test } from '@playwright/test';
import { openSignedIn, payFromDevnetWallet, sendJson, signUpShop } from './support.ts';

const PASSWORD = 'Enlace-2026!';
/** For the first look after a navigation: each screen's code loads lazily, slowly on a busy machine. */
const afterNavigation = expect.configure({ timeout: 30_000 });
const PHONE = { width: 390, height: 844 };

type Shop = { email: string; token: string; bptName: string };

/** A fresh organization of its own with a GTQ terminal and an accent colour, never the shared demo one. */
async function openShop(request: APIRequestContext, language: 'en' | 'es'): Promise<Shop> {
  const { email, token } = await signUpShop(request, {
    emailPrefix: 'links',
    emailDomain: 'enlace.example',
    name: 'Pastelería',
    password: PASSWORD,
  });
  const account = await sendJson<{ id: string }>(request, '/api/accounts', { name: 'Online' }, token);
  const bptName = 'Front till';
  await sendJson(request, '/api/bpts', { name: bptName, accountId: account.id, currency: 'GTQ' }, token);
  await sendJson(request, '/api/settings/branding', { accentColor: '#0a7d5a' }, token, 'PUT');
  // Signing in takes the user's language, so the admin's screens follow it.
  await sendJson(request, '/api/settings/language', { language }, token, 'PUT');
  return { email, token, bptName };
}

const texts = {
  en: {
    virtualBpts: 'Virtual BPTs',
    name: 'Name',
    linkedBpt: 'Linked BPT',
    addVirtualBpt: 'Add virtual BPT',
    paymentLinks: 'Payment links',
    description: 'Description',
    amount: 'Amount',
    createLink: 'Create link',
    awaiting: 'Awaiting payment',
    completed: 'Payment completed',
    copy: 'Copy link',
    copied: 'Link copied to clipboard.',
    qr: 'QR',
    qrAlt: 'QR code of the payment link',
    open: 'Open',
    invoiceQr: 'QR code of the Lightning invoice',
    returnToStore: 'Return to the store',
    openWallet: 'Open wallet',
    notFound: "This checkout doesn't exist.",
    linkExists: 'Link already exists',
  },
  es: {
    virtualBpts: 'BPT virtuales',
    name: 'Nombre',
    linkedBpt: 'BPT vinculado',
    addVirtualBpt: 'Agregar BPT virtual',
    paymentLinks: 'Enlaces de pago',
    description: 'Descripción',
    amount: 'Monto',
    createLink: 'Crear enlace',
    awaiting: 'Esperando pago',
    completed: 'Pago completado',
    copy: 'Copiar enlace',
    copied: 'Enlace copiado al portapapeles.',
    qr: 'QR',
    qrAlt: 'Código QR del enlace de pago',
    open: 'Abrir',
    invoiceQr: 'Código QR de la factura Lightning',
    returnToStore: 'Volver a la tienda',
    openWallet: 'Abrir billetera',
    notFound: 'Este cobro no existe.',
    linkExists: 'El enlace ya existe',
  },
} as const;

/** A phone without a session, in `language`, on the public checkout page. */
async function openOnPhone(browser: Browser, url: string, language: 'en' | 'es') {
  const phone = await browser.newContext({ viewport: PHONE });
  await phone.addInitScript((lang) => localStorage.setItem('language', lang), language);
  const page = await phone.newPage();
  const read = page.waitForResponse((r) => r.url().includes('/api/public/checkouts/') && !r.url().endsWith('/events'));
  await page.goto(url);
  const checkout = await (await read).json();
  return { phone, page, checkout };
}

async function expectWithinPhone(page: Page, name: string) {
  const box = await page.getByRole('img', { name }).boundingBox();
  expect(box && box.x >= 0 && box.x + box.width <= PHONE.width).toBe(true);
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(PHONE.width);
}

for (const language of ['en', 'es'] as const) {
  const words = texts[language];

  test(`an admin sells through a payment link, paid on a phone by Lightning (${language})`, async ({
    page,
    browser,
    request,
    context,
  }, testInfo) => {
    test.setTimeout(240_000);
    const shop = await openShop(request, language);
    await context.grantPermissions(['clipboard-read', 'clipboard-write']);
    await openSignedIn(page, shop.email, '/integrations', { password: PASSWORD });
    const section = page.getByRole('region', { name: words.virtualBpts });
    await afterNavigation(section).toBeVisible();
    await section.getByRole('textbox', { name: words.name }).fill('Web shop');
    await section.getByRole('combobox', { name: words.linkedBpt }).click();
    await page.getByRole('option', { name: new RegExp(`^${shop.bptName}`) }).click();
    await section.getByRole('button', { name: words.addVirtualBpt }).click();
    const row = section.getByRole('row').filter({ hasText: 'Web shop' });
    await expect(row).toBeVisible();
    await page.screenshot({ path: testInfo.outputPath(`integrations-1280-${language}.png`), fullPage: true });

    await row.getByRole('link', { name: words.paymentLinks }).click();
    await expect(page).toHaveURL(/\/integrations\/payment-links\/[0-9a-f-]{36}$/);
    await afterNavigation(page.getByRole('heading', { name: `${words.paymentLinks} · Web shop` })).toBeVisible();
    await page.getByRole('textbox', { name: words.description }).fill('Birthday cake');
    await page.getByRole('textbox', { name: words.amount }).fill('73');
    await page.getByRole('button', { name: words.createLink }).click();
    const card = page.getByTestId('payment-link').filter({ hasText: 'Birthday cake' });
    await expect(card).toContainText(words.awaiting);
    await expect(card).toContainText('73.00');

    // The same description and amount again is refused.
    await page.getByRole('textbox', { name: words.description }).fill('Birthday cake');
    await page.getByRole('textbox', { name: words.amount }).fill('73');
    await page.getByRole('button', { name: words.createLink }).click();
    await expect(page.getByRole('alert').filter({ hasText: words.linkExists })).toBeVisible();

    await card.getByRole('button', { name: words.copy }).click();
    await expect(page.getByText(words.copied)).toBeVisible();
    const url = await card.getByRole('link', { name: new RegExp(`^${words.open} `) }).getAttribute('href');
    expect(url).toMatch(/\/ecommerce\/checkout\/[0-9a-f-]{36}$/);
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(url);
    await card.getByRole('button', { name: words.qr }).click();
    await expect(page.getByRole('img', { name: words.qrAlt })).toBeVisible();
    await page.keyboard.press('Escape');
    await page.screenshot({ path: testInfo.outputPath(`payment-links-1280-${language}.png`), fullPage: true });
    await page.setViewportSize(PHONE);
    await page.screenshot({ path: testInfo.outputPath(`payment-links-390-${language}.png`), fullPage: true });
    await page.setViewportSize({ width: 1280, height: 720 });

    const { phone, page: payer, checkout } = await openOnPhone(browser, url ?? '', language);
    expect(await payer.evaluate(() => localStorage.getItem('accessToken'))).toBeNull();
    await afterNavigation(payer.getByRole('img', { name: words.invoiceQr })).toBeVisible();
    await expect(payer.getByRole('heading', { name: /Pastelería/ })).toBeVisible();
    await expect(payer.getByTestId('order-summary')).toContainText('Birthday cake');
    // Signed out, numbers follow the page's language: 73.00 or 73,00.
    await expect(payer.getByTestId('checkout-amount')).toContainText(/73[.,]00/);
    await expect(payer.getByTestId('checkout-amount-secondary')).toContainText(/10[,.\s\u00a0]?000/);
    await expect(payer.getByTestId('checkout-status')).toContainText(words.awaiting);
    await expectWithinPhone(payer, words.invoiceQr);
    await payer.screenshot({ path: testInfo.outputPath(`checkout-awaiting-390-${language}.png`), fullPage: true });

    await payFromDevnetWallet(browser, checkout.invoice.paymentRequest);
    // Live: the page turns paid as soon as the settlement is recorded.
    await expect(payer.getByRole('heading', { name: words.completed })).toBeVisible({ timeout: 10_000 });
    await payer.screenshot({ path: testInfo.outputPath(`checkout-paid-390-${language}.png`), fullPage: true });
    await phone.close();

    await page.reload();
    await afterNavigation(page.getByTestId('payment-link').filter({ hasText: 'Birthday cake' })).toContainText(
      words.completed,
    );
    // It says when and how it was paid.
    await expect(
      page.getByTestId('payment-link').filter({ hasText: 'Birthday cake' }).getByTestId('payment-link-paid'),
    ).toHaveText(language === 'en' ? /^Paid .*2026.* by Lightning$/ : /^Pagado el .*2026.* por Lightning$/);

    // The account's page lists the link too.
    await page.goto('/accounts');
    await afterNavigation(page.getByRole('row').filter({ hasText: 'Online' })).toBeVisible();
    await page.getByRole('row').filter({ hasText: 'Online' }).getByRole('link', { name: words.paymentLinks }).click();
    await expect(page).toHaveURL(/\/accounts\/[0-9a-f-]{36}\/links$/);
    await afterNavigation(page.getByTestId('payment-link').filter({ hasText: 'Birthday cake' })).toContainText(
      words.completed,
    );
    await page.screenshot({ path: testInfo.outputPath(`account-links-1280-${language}.png`), fullPage: true });
    await page.setViewportSize(PHONE);
    await page.screenshot({ path: testInfo.outputPath(`account-links-390-${language}.png`), fullPage: true });
    await page.goto('/integrations');
    await afterNavigation(page.getByRole('region', { name: words.virtualBpts })).toBeVisible();
    await page.screenshot({ path: testInfo.outputPath(`integrations-390-${language}.png`), fullPage: true });
    await page.setViewportSize({ width: 1280, height: 720 });

    // The paid page at desktop width, and an id nobody made.
    await page.goto(url ?? '');
    await afterNavigation(page.getByRole('heading', { name: words.completed })).toBeVisible();
    await page.screenshot({ path: testInfo.outputPath(`checkout-paid-1280-${language}.png`), fullPage: true });
    await page.goto('/ecommerce/checkout/00000000-0000-4000-8000-000000000000');
    await afterNavigation(page.getByRole('alert')).toContainText(words.notFound);
  });

  test(`a store's checkout is paid by Lightning and returns to the store (${language})`, async ({
    page,
    browser,
    request,
  }, testInfo) => {
    test.setTimeout(240_000);
    const shop = await openShop(request, language);
    const bpts = await (await request.get('/api/bpts', { headers: { authorization: `Bearer ${shop.token}` } })).json();
    const virtualBpt = await sendJson<{ id: string }>(
      request,
      '/api/virtual-bpts',
      { name: 'Store', bptId: bpts[0].id },
      shop.token,
    );
    const redirectUrl = `${testInfo.project.use.baseURL}/thanks`;
    const orderId = `A-${Date.now().toString(36)}`;
    const created = await sendJson<{ url: string }>(
      request,
      '/api/checkouts',
      {
        amount: '36.50',
        currency: 'GTQ',
        orderId,
        redirectUrl,
        virtualBptId: virtualBpt.id,
        description: 'Two pies',
        // Ten minutes to pay: this server's invoices live 60 s, and each renews until the checkout ends.
        expiresInSeconds: 600,
      },
      shop.token,
    );

    await page.goto('/login');
    await page.evaluate((lang) => localStorage.setItem('language', lang), language);
    await page.goto(new URL(created.url).pathname);
    await afterNavigation(page.getByRole('img', { name: words.invoiceQr })).toBeVisible();
    await expect(page.getByTestId('checkout-countdown')).toBeVisible();
    await page.screenshot({ path: testInfo.outputPath(`checkout-awaiting-1280-${language}.png`), fullPage: true });

    const { phone, page: payer } = await openOnPhone(browser, new URL(created.url).pathname, language);
    await afterNavigation(payer.getByRole('img', { name: words.invoiceQr })).toBeVisible();
    await expect(payer.getByTestId('order-summary')).toContainText(orderId);
    await expect(payer.getByTestId('checkout-amount')).toContainText(/36[.,]50/);
    await expectWithinPhone(payer, words.invoiceQr);

    // This server's invoices live 60 s and the page renews them: pay the one on screen, and the
    // next one if that ran out on the way.
    const walletLink = payer.getByRole('link', { name: words.openWallet });
    let paid = false;
    for (let attempt = 0; attempt < 3 && !paid; attempt += 1) {
      const onScreen = (await walletLink.getAttribute('href'))?.replace(/^lightning:/, '') ?? '';
      const response = await request.post('/api/devnet/pay', { data: { paymentRequest: onScreen } });
      paid = response.ok();
      if (!paid) {
        expect(await response.text()).toContain('expired');
        await expect(walletLink).not.toHaveAttribute('href', `lightning:${onScreen}`, { timeout: 45_000 });
      }
    }
    expect(paid).toBe(true);
    await expect(payer.getByRole('heading', { name: words.completed })).toBeVisible({ timeout: 10_000 });
    const back = payer.getByRole('link', { name: words.returnToStore });
    await expect(back).toHaveAttribute('href', redirectUrl);
    await phone.close();
    await expect(page.getByRole('heading', { name: words.completed })).toBeVisible({ timeout: 10_000 });
  });
}
