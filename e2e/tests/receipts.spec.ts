import { type APIRequestContext, expect, type Page, test } from '@playwright/test';
import { readPdf } from '../../apps/server/test/pdf-text.ts';
import { apiAs, demo, latestMailTo, openSignedIn, payFromDevnetWallet, sendJson, signUpShop } from './support.ts';

const PASSWORD = 'Recibo-2026!';
const PHONE = { width: 390, height: 844 };
const DESKTOP = { width: 1280, height: 900 };
/** 80 mm in PDF points (1/72 inch). */
const ROLL_WIDTH_PT = (80 / 25.4) * 72;

async function typeOnKeypad(page: Page, amount: string) {
  const keypad = page.getByRole('group', { name: 'Keypad' });
  for (const key of amount) {
    if (key === '.') await keypad.getByRole('button', { name: 'Decimal point' }).click();
    else await keypad.getByRole('button', { name: key, exact: true }).click();
  }
}

async function shot(page: Page, name: string) {
  await page.screenshot({ path: test.info().outputPath(`${name}.png`), fullPage: true });
}

test('a paid terminal sale hands over its receipt: QR and link, mail, the page in EN and ES, print', async ({
  page,
  browser,
}) => {
  await page.setViewportSize({ width: 1280, height: 900 });
  await openSignedIn(page, demo.admin);
  const [account] = await apiAs<{ id: string }[]>(page, 'GET', '/api/account/all');
  const bpt = await apiAs<{ id: string }>(page, 'POST', '/api/bpts', {
    name: `Receipts ${Date.now().toString(36)}`,
    accountId: account?.id,
    currency: 'GTQ',
    tipEnabled: true,
    taxPercentage: 12,
  });
  await page.goto(`/bpts/${bpt.id}/terminal`);
  await typeOnKeypad(page, '12.50');
  await page.getByRole('radiogroup', { name: 'Tip' }).getByText('10%', { exact: true }).click();
  const created = page.waitForResponse((r) => r.url().endsWith('/invoices') && r.request().method() === 'POST');
  await page.getByRole('button', { name: 'Charge GTQ 15.25' }).click();
  const invoice = (await (await created).json()) as { paymentRequest: string; paymentHash: string };
  await payFromDevnetWallet(browser, invoice.paymentRequest);
  await expect(page.getByRole('heading', { name: 'Paid' })).toBeVisible();

  // The paid screen: a QR to the receipt, its link, and an address to mail it to.
  const share = page.getByTestId('receipt-share');
  await expect(share.getByRole('img', { name: 'QR code of the receipt' })).toBeVisible();
  const link = share.getByTestId('receipt-link');
  const href = (await link.getAttribute('href')) ?? '';
  expect(href).toMatch(/\/receipts\/[A-Za-z0-9_-]{32}$/);
  await shot(page, 'terminal-paid-receipt-1280-en');
  await page.setViewportSize({ width: 390, height: 844 });
  await expect(link).toBeVisible();
  await shot(page, 'terminal-paid-receipt-390-en');

  const address = `customer-${Date.now().toString(36)}@receipts.example`;
  const sentAt = Date.now();
  await share.getByRole('textbox', { name: 'Email the receipt to' }).fill(address);
  await share.getByRole('button', { name: 'Send' }).click();
  await expect(share.getByText(`Sent to ${address}.`)).toBeVisible();
  const mail = await latestMailTo(address, { after: sentAt });
  expect(mail.subject).toBe('Your receipt from Demo Café');
  expect(mail.text).toContain(href);
  expect(mail.text.replace(/\u00A0/g, ' ')).toContain('GTQ 15.25');

  // The receipt page, as the customer's phone opens it from the QR.
  await page.goto(href);
  const receipt = page.getByTestId('receipt');
  await expect(receipt.getByRole('heading', { name: 'Receipt' })).toBeVisible();
  await expect(receipt.getByRole('heading', { name: 'Demo Café' })).toBeVisible();
  for (const figure of ['GTQ 12.50', 'GTQ 1.25', 'GTQ 1.50', 'GTQ 15.25', '2,089 sats']) {
    await expect(receipt.getByText(figure, { exact: true })).toBeVisible();
  }
  await expect(receipt.getByTestId('receipt-payment-hash')).toHaveText(invoice.paymentHash);
  await shot(page, 'receipt-390-en');
  await page.setViewportSize({ width: 1280, height: 900 });
  await shot(page, 'receipt-1280-en');
  await page.emulateMedia({ media: 'print' });
  await expect(page.getByRole('button', { name: 'Print' })).toBeHidden();
  await expect(receipt.getByText('GTQ 15.25', { exact: true })).toBeVisible();
  await shot(page, 'receipt-print-en');
  await page.emulateMedia({ media: 'screen' });

  await page.getByText('Español').click();
  await expect(receipt.getByRole('heading', { name: 'Recibo' })).toBeVisible();
  for (const label of ['Subtotal', 'Propina', 'Impuesto', 'Hash del pago']) {
    await expect(receipt.getByText(label, { exact: true })).toBeVisible();
  }
  // Guatemala writes Spanish figures with a decimal point.
  await expect(receipt.getByText('GTQ 15.25', { exact: true })).toBeVisible();
  await shot(page, 'receipt-1280-es');
  await page.setViewportSize({ width: 390, height: 844 });
  await shot(page, 'receipt-390-es');
  await page.emulateMedia({ media: 'print' });
  await expect(page.getByRole('button', { name: 'Imprimir' })).toBeHidden();
  await shot(page, 'receipt-print-es');
  await page.emulateMedia({ media: 'screen' });

  // The PDF the Download button links to, in the language on screen.
  const pdfHref = (await page.getByRole('link', { name: 'Descargar PDF' }).getAttribute('href')) ?? '';
  expect(pdfHref).toContain('language=es');
  const pdf = await page.request.get(pdfHref);
  expect(pdf.headers()['content-type']).toBe('application/pdf');
  expect((await pdf.body()).subarray(0, 5).toString()).toBe('%PDF-');
});

test('a receipt link nobody was given says so', async ({ page }) => {
  await page.goto('/receipts/AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA');
  await expect(page.getByRole('alert')).toHaveText("This receipt doesn't exist. Check the link you were given.");
});

/** A fresh shop of this spec's own in Guatemala, so the demo's sales stay as other journeys expect them. */
async function openShop(request: APIRequestContext) {
  const shop = await signUpShop(request, {
    emailPrefix: 'receipts',
    emailDomain: 'recibo.example',
    name: 'Panadería',
    password: PASSWORD,
  });
  const account = await sendJson<{ id: string }>(request, '/api/accounts', { name: 'Counter' }, shop.token);
  const bpt = await sendJson<{ id: string }>(
    request,
    '/api/bpts',
    { name: 'Front till', accountId: account.id, currency: 'GTQ' },
    shop.token,
  );
  return { ...shop, bptId: bpt.id };
}

type Shop = Awaited<ReturnType<typeof openShop>>;

/** Pays a checkout's current invoice from the devnet wallet, as the payer's wallet would. */
async function payCheckout(request: APIRequestContext, checkoutId: string) {
  const checkout = await (await request.get(`/api/public/checkouts/${checkoutId}`)).json();
  await sendJson(request, '/api/devnet/pay', { paymentRequest: checkout.invoice.paymentRequest });
}

/** Nothing on the page reaches past the viewport's right edge (no sideways scrolling). */
async function expectNoSidewaysScroll(page: Page) {
  const width = page.viewportSize()?.width ?? 0;
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);
}

/** Shows `path` in `language` without saving a language for anyone: the choice this browser remembers. */
async function openIn(page: Page, path: string, language: 'en' | 'es') {
  await page.goto(path);
  await page.evaluate((lang) => localStorage.setItem('language', lang), language);
  await page.reload();
  await expect(page.locator('html')).toHaveAttribute('lang', language);
}

const paidWords = {
  en: { paid: 'Payment completed', qr: 'QR code of the receipt', link: 'Receipt', email: 'Email the receipt to' },
  es: { paid: 'Pago completado', qr: 'Código QR del recibo', link: 'Recibo', email: 'Enviar el recibo a' },
} as const;

/** The checkout's paid page hands over the receipt: its QR and a link that opens it, within a phone's width. */
async function expectCheckoutReceipt(page: Page, request: APIRequestContext, checkoutId: string, name: string) {
  for (const language of ['en', 'es'] as const) {
    const words = paidWords[language];
    for (const viewport of [DESKTOP, PHONE]) {
      await page.setViewportSize(viewport);
      await openIn(page, `/ecommerce/checkout/${checkoutId}`, language);
      const paid = page.getByTestId('checkout-paid');
      await expect(paid.getByRole('heading', { name: words.paid })).toBeVisible();
      const share = paid.getByTestId('receipt-share');
      await expect(share.getByRole('img', { name: words.qr })).toBeVisible();
      await expect(share.getByRole('textbox', { name: words.email })).toBeVisible();
      await expect(share.getByTestId('receipt-link')).toHaveText(words.link);
      await expectNoSidewaysScroll(page);
      await shot(page, `${name}-paid-${viewport.width}-${language}`);
    }
  }
  const href = (await page.getByTestId('receipt-link').getAttribute('href')) ?? '';
  const token = /\/receipts\/([A-Za-z0-9_-]{32})$/.exec(href)?.[1] ?? '';
  const receipt = await (await request.get(`/api/public/receipts/${token}`)).json();
  expect(receipt.source).toBe(name === 'payment-link' ? 'payment_link' : 'checkout');
}

test('a paid store checkout and a paid payment link hand over the receipt, in EN and ES, at 1280 and 390 px', async ({
  page,
  request,
}, testInfo) => {
  test.setTimeout(240_000);
  const shop = await openShop(request);
  const virtualBpt = await sendJson<{ id: string }>(
    request,
    '/api/virtual-bpts',
    { name: 'Web', bptId: shop.bptId },
    shop.token,
  );

  const checkout = await sendJson<{ id: string }>(
    request,
    '/api/checkouts',
    {
      amount: '36.50',
      currency: 'GTQ',
      orderId: `R-${shop.suffix}`,
      redirectUrl: `${testInfo.project.use.baseURL}/thanks`,
      virtualBptId: virtualBpt.id,
      description: 'Two pies',
      expiresInSeconds: 600,
    },
    shop.token,
  );
  await payCheckout(request, checkout.id);
  await expectCheckoutReceipt(page, request, checkout.id, 'store-checkout');

  const link = await sendJson<{ id: string }>(
    request,
    `/api/virtual-bpts/${virtualBpt.id}/payment-links`,
    { description: 'Birthday cake', amount: '120.00', currency: 'GTQ' },
    shop.token,
  );
  await payCheckout(request, link.id);
  await expectCheckoutReceipt(page, request, link.id, 'payment-link');
});

test("the terminal's paid screen hands over the receipt in Spanish, at 390 and 1280 px", async ({ page, browser }) => {
  await page.setViewportSize(PHONE);
  await openSignedIn(page, demo.admin);
  const [account] = await apiAs<{ id: string }[]>(page, 'GET', '/api/account/all');
  const bpt = await apiAs<{ id: string }>(page, 'POST', '/api/bpts', {
    name: `Recibos ${Date.now().toString(36)}`,
    accountId: account?.id,
    currency: 'GTQ',
  });
  // Spanish in this browser only: a language saved as the demo admin would change other journeys.
  await openIn(page, `/bpts/${bpt.id}/terminal`, 'es');
  const keypad = page.getByRole('group', { name: 'Teclado' });
  for (const key of '25') await keypad.getByRole('button', { name: key, exact: true }).click();
  const created = page.waitForResponse((r) => r.url().endsWith('/invoices') && r.request().method() === 'POST');
  await page.getByRole('button', { name: /^Cobrar/ }).click();
  const invoice = (await (await created).json()) as { paymentRequest: string };
  await payFromDevnetWallet(browser, invoice.paymentRequest);
  await expect(page.getByRole('heading', { name: 'Pagado' })).toBeVisible();

  const share = page.getByTestId('receipt-share');
  await expect(share.getByRole('img', { name: 'Código QR del recibo' })).toBeVisible();
  await expect(share.getByTestId('receipt-link')).toHaveText('Recibo');
  await expect(share.getByRole('textbox', { name: 'Enviar el recibo a' })).toBeVisible();
  await expect(share.getByRole('button', { name: 'Enviar' })).toBeVisible();
  await expectNoSidewaysScroll(page);
  await shot(page, 'terminal-paid-receipt-390-es');
  await page.setViewportSize(DESKTOP);
  await expect(share.getByRole('img', { name: 'Código QR del recibo' })).toBeInViewport();
  await expectNoSidewaysScroll(page);
  await shot(page, 'terminal-paid-receipt-1280-es');
});

/** A terminal sale of GTQ 50.00 on the shop's BPT, paid from the devnet wallet; its receipt's token. */
async function paidReceipt(request: APIRequestContext, shop: Shop) {
  const invoice = await sendJson<{ id: string; paymentRequest: string; amountMsat: number }>(
    request,
    `/api/bpts/${shop.bptId}/invoices`,
    { amount: '50.00' },
    shop.token,
  );
  await sendJson(request, '/api/devnet/pay', { paymentRequest: invoice.paymentRequest });
  let token = '';
  await expect
    .poll(async () => {
      const response = await request.get(`/api/invoices/${invoice.id}/receipt`);
      if (response.ok()) token = (await response.json()).token;
      return response.status();
    })
    .toBe(200);
  return { invoice, token };
}

test('a refunded sale shows its refund on the receipt: on screen in EN and ES, in print, and on the 80 mm PDF', async ({
  page,
  request,
}) => {
  test.setTimeout(180_000);
  const shop = await openShop(request);
  const { invoice, token } = await paidReceipt(request, shop);
  // A fifth back, withdrawn by the devnet wallet from the refund link.
  const refund = await sendJson<{ lnurl: string; amountMsat: number; fiatAmount: string }>(
    request,
    `/api/transactions/${invoice.id}/refunds`,
    { amountMsat: Math.floor(invoice.amountMsat / 5000) * 1000, idempotencyKey: `receipt-${shop.suffix}` },
    shop.token,
  );
  await sendJson(request, '/api/devnet/withdraw', { lnurl: refund.lnurl, amountMsat: refund.amountMsat });
  await expect
    .poll(async () => (await (await request.get(`/api/public/receipts/${token}`)).json()).refunds.length)
    .toBe(1);
  const refundLineValue = `−GTQ ${refund.fiatAmount} (${new Intl.NumberFormat('en-US').format(refund.amountMsat / 1000)} sats)`;

  const receipt = page.getByTestId('receipt');
  const refundLine = receipt.getByText(/^Refunded |^Reembolsado el /);
  for (const [language, label] of [
    ['en', 'Refunded '],
    ['es', 'Reembolsado el '],
  ] as const) {
    for (const viewport of [DESKTOP, PHONE]) {
      await page.setViewportSize(viewport);
      await openIn(page, `/receipts/${token}`, language);
      await expect(refundLine).toContainText(label);
      await expect(receipt.getByText(refundLineValue, { exact: true })).toBeVisible();
      await expectNoSidewaysScroll(page);
      await shot(page, `receipt-refund-${viewport.width}-${language}`);
    }
    await page.emulateMedia({ media: 'print' });
    await expect(receipt.getByText(refundLineValue, { exact: true })).toBeVisible();
    await shot(page, `receipt-refund-print-${language}`);
    await page.emulateMedia({ media: 'screen' });
  }

  // Printed from the browser, as a customer's or a counter's printer would get it: one 80 mm
  // wide page, read back by pdf.js, with every figure on it and none past the roll's edge.
  await openIn(page, `/receipts/${token}`, 'en');
  await expect(refundLine).toBeVisible();
  // Printing uses print media unless screen is emulated, as it was above.
  await page.emulateMedia({ media: null });
  const printed = await readPdf(
    await page.pdf({
      preferCSSPageSize: true,
      printBackground: true,
      path: test.info().outputPath('receipt-roll.pdf'),
    }),
  );
  expect(printed.pages).toBe(1);
  expect(printed.sizes[0]?.width).toBeCloseTo(ROLL_WIDTH_PT, 0);
  // Lines wrap on the narrow roll: words are compared, not line breaks.
  const words = (value: string) => value.replace(/[\s\u00A0]+/g, ' ');
  const text = words(printed.text[0] ?? '');
  for (const figure of [shop.name, 'Receipt', 'GTQ 50.00', 'Refunded', refundLineValue]) {
    expect(text).toContain(words(figure));
  }
  expect(text).not.toContain('Print');
  for (const span of printed.spans[0] ?? []) {
    expect(span.left, span.str).toBeGreaterThanOrEqual(0);
    expect(span.right, span.str).toBeLessThanOrEqual(ROLL_WIDTH_PT);
  }
});
