import { expect, type Page, test } from '@playwright/test';
import { apiAs, demo, latestMailTo, payFromDevnetWallet, signInViaUi } from './support.ts';

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
  await signInViaUi(page, demo.admin);
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
