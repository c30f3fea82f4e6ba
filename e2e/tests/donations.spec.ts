import { type APIRequestContext, type Browser, expect, type Page, test } from '@playwright/test';
import { tinyPng } from '../../apps/server/test/upload-files.ts';
import { openSignedIn, payOnDevnetWallet, sendJson, signUpShop } from './support.ts';

const PASSWORD = 'Donar-2026!';
/** For the first look after a navigation: each screen's code loads lazily, slowly on a busy machine, where 20 s has not always been enough. */
const afterNavigation = expect.configure({ timeout: 60_000 });
const PHONE = { width: 390, height: 844 };
const DESKTOP = { width: 1280, height: 900 };

/**
 * A fresh organization of its own, branded with a logo and a colour, whose terminal sells online
 * through a virtual BPT: everything a donation link needs but the link itself.
 */
async function openShop(request: APIRequestContext) {
  const { email, name, suffix, token } = await signUpShop(request, {
    emailPrefix: 'donate',
    emailDomain: 'donar.example',
    name: 'Bosque',
    password: PASSWORD,
  });
  const account = await sendJson<{ id: string }>(request, '/api/accounts', { name: 'Online' }, token);
  const bpt = await sendJson<{ id: string }>(
    request,
    '/api/bpts',
    { name: 'Web till', accountId: account.id, currency: 'GTQ' },
    token,
  );
  const virtualBpt = await sendJson<{ id: string; name: string }>(
    request,
    '/api/virtual-bpts',
    { name: `Website ${suffix}`, bptId: bpt.id },
    token,
  );
  const logo = await request.put('/api/settings/branding/logo', {
    headers: { authorization: `Bearer ${token}` },
    multipart: { file: { name: 'logo.png', mimeType: 'image/png', buffer: tinyPng([20, 110, 60], 48) } },
  });
  expect(logo.ok(), await logo.text()).toBe(true);
  await sendJson(request, '/api/settings/branding', { accentColor: '#146e3c' }, token, 'PUT');
  return { email, name, suffix, virtualBpt };
}

const texts = {
  en: {
    section: 'Donations via LNURL-Pay',
    virtualBpt: 'Virtual BPT',
    title: 'Title',
    create: 'Create donation link',
    anyAmount: 'Any amount',
    openPage: 'Open donation page',
    amount: 'Amount (sats)',
    comment: 'Comment (optional)',
    donate: 'Donate',
    lnurlQr: 'QR code of the LNURL-pay link',
    invoiceQr: 'QR code of the Lightning invoice',
    openWallet: 'Open wallet',
    thanks: 'Thank you!',
    again: 'Donate again',
    history: 'Donation history',
    walletInvoice: 'Lightning invoice',
    addressName: 'Name',
    saveAddress: 'Save address',
    walletPay: 'Pay',
  },
  es: {
    section: 'Donaciones vía LNURL-Pay',
    virtualBpt: 'BPT virtual',
    title: 'Título',
    create: 'Crear enlace de donación',
    anyAmount: 'Cualquier monto',
    openPage: 'Abrir página de donación',
    amount: 'Monto (sats)',
    comment: 'Comentario (opcional)',
    donate: 'Donar',
    lnurlQr: 'Código QR del enlace LNURL-pay',
    invoiceQr: 'Código QR de la factura Lightning',
    openWallet: 'Abrir billetera',
    thanks: '¡Gracias!',
    again: 'Donar de nuevo',
    history: 'Historial de donaciones',
    walletInvoice: 'Factura Lightning',
    addressName: 'Nombre',
    saveAddress: 'Guardar dirección',
    walletPay: 'Pagar',
  },
} as const;

/** Both widths of one moment of the donation page, back at the phone's width afterwards. */
async function shoot(page: Page, name: string) {
  await page.screenshot({ path: test.info().outputPath(`donation-${name}-390.png`), fullPage: true });
  await page.setViewportSize(DESKTOP);
  await page.screenshot({ path: test.info().outputPath(`donation-${name}-1280.png`), fullPage: true });
  await page.setViewportSize(PHONE);
}

async function donate(browser: Browser, language: 'en' | 'es', linkId: string, shopName: string, comment: string) {
  const t = texts[language];
  const donor = await browser.newContext({ viewport: PHONE });
  await donor.addInitScript((lang) => localStorage.setItem('language', lang), language);
  const page = await donor.newPage();
  await page.goto(`/donation/${linkId}`);
  await afterNavigation(page.getByRole('heading', { name: shopName })).toBeVisible();
  await expect(page.getByTestId('donation-logo')).toBeVisible();
  await expect(page.getByRole('img', { name: t.lnurlQr })).toBeVisible();
  // The page fits a phone: nothing scrolls sideways.
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(PHONE.width);
  await shoot(page, `${language}-entry`);

  // The wallet is open before the invoice exists, so that paying it is quick.
  const wallet = await donor.newPage();
  await wallet.goto('/devnet/wallet');
  await afterNavigation(wallet.getByRole('textbox', { name: t.walletInvoice })).toBeVisible();

  await page.getByRole('textbox', { name: t.amount }).fill('1234');
  await page.getByRole('textbox', { name: t.comment }).fill(comment);
  const created = page.waitForResponse((r) => r.url().endsWith('/invoices') && r.request().method() === 'POST');
  await page.getByRole('button', { name: t.donate, exact: true }).click();
  const response = await created;
  expect(response.status()).toBe(201);
  const invoice = (await response.json()) as { paymentRequest: string; amountMsat: number };
  expect(invoice.amountMsat).toBe(1_234_000);
  await expect(page.getByRole('img', { name: t.invoiceQr })).toBeVisible();
  // Spanish without a country writes 1234; English 1,234.
  await expect(page.getByTestId('donation-invoice-amount')).toContainText(/1,?234 sats/);
  // A wallet on the same phone opens with the invoice.
  await expect(page.getByRole('link', { name: t.openWallet })).toHaveAttribute(
    'href',
    `lightning:${invoice.paymentRequest}`,
  );

  // Paid at once: the journey's server issues invoices that last 60 s.
  await payOnDevnetWallet(wallet, invoice.paymentRequest, { invoice: t.walletInvoice, pay: t.walletPay });
  await expect(page.getByRole('heading', { name: t.thanks })).toBeVisible();
  await expect(page.getByText(shopName, { exact: false }).last()).toBeVisible();
  await shoot(page, `${language}-paid`);

  // A second invoice, left unpaid, for the pictures of the invoice as the donor sees it.
  await page.getByRole('button', { name: t.again }).click();
  await page.getByRole('textbox', { name: t.amount }).fill('500');
  await page.getByRole('button', { name: t.donate, exact: true }).click();
  await expect(page.getByRole('img', { name: t.invoiceQr })).toBeVisible();
  await shoot(page, `${language}-invoice`);
  await donor.close();
}

for (const language of ['en', 'es'] as const) {
  test(`an admin creates a donation link for any amount and a signed-out donor gives 1,234 sats with a comment (${language})`, async ({
    page,
    browser,
    request,
  }) => {
    test.slow();
    const t = texts[language];
    const shop = await openShop(request);
    await openSignedIn(page, shop.email, '/integrations', { password: PASSWORD, language });
    const section = page.getByRole('region', { name: t.section });
    await afterNavigation(section).toBeVisible();

    // The organization's one virtual BPT is chosen already.
    await expect(section.getByRole('combobox', { name: t.virtualBpt })).toHaveValue(new RegExp(shop.virtualBpt.name));
    const title = `Plant trees ${shop.suffix}`;
    await section.getByRole('textbox', { name: t.title }).fill(title);
    await section.getByRole('button', { name: t.create }).click();
    const card = section.getByTestId('donation-link').filter({ hasText: title });
    await expect(card).toBeVisible();
    await expect(card.getByText(t.anyAmount)).toBeVisible();
    const href = await card.getByRole('link', { name: t.openPage }).getAttribute('href');
    const linkId = /\/donation\/([0-9a-f-]{36})$/.exec(href ?? '')?.[1];
    expect(linkId, href ?? '').toBeTruthy();

    // The organization's Lightning address pays this link: name@host, shown with a copy button.
    await section.getByRole('textbox', { name: t.addressName, exact: true }).fill(`Shop-${shop.suffix}`);
    await section.getByRole('button', { name: t.saveAddress }).click();
    const host = new URL(page.url()).host;
    await expect(section.getByTestId('donation-address')).toHaveText(`shop-${shop.suffix}@${host}`);

    const comment = language === 'en' ? 'For the cloud forest 🌳' : 'Para el bosque nuboso 🌳';
    await donate(browser, language, linkId as string, shop.name, comment);

    await page.reload();
    const history = page.getByRole('region', { name: t.history });
    await afterNavigation(history.getByRole('row').filter({ hasText: comment })).toBeVisible();
    await expect(history.getByRole('row').filter({ hasText: comment })).toContainText(/1[,.\s]?234 sats/);
    await page.getByRole('region', { name: t.section }).screenshot({
      path: test.info().outputPath(`donation-integrations-${language}-1280.png`),
    });
    await page.setViewportSize(PHONE);
    // The donations section fits a phone, once the layout has followed the new width: nothing in
    // it is wider than the screen or scrolls sideways.
    const section390 = page.getByRole('region', { name: t.section });
    await expect
      .poll(() =>
        section390.evaluate((element) => {
          const wide = Array.from(element.querySelectorAll('*')).find(
            (child) => child.getBoundingClientRect().right > window.innerWidth,
          );
          return wide ? `${wide.tagName}.${wide.className}: ${wide.textContent?.slice(0, 60)}` : 'fits';
        }),
      )
      .toBe('fits');
    await page.getByRole('region', { name: t.section }).screenshot({
      path: test.info().outputPath(`donation-integrations-${language}-390.png`),
    });
  });
}
