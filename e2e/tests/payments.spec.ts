import { expect, type Page, test } from '@playwright/test';
import { demo, openSignedIn, payFromDevnetWallet, sendJson } from './support.ts';

/** Keys pressed on the terminal's keypad, one button each. */
async function typeOnKeypad(page: Page, amount: string) {
  const keypad = page.getByRole('group', { name: 'Keypad' });
  for (const key of amount) {
    if (key === '.') await keypad.getByRole('button', { name: 'Decimal point' }).click();
    else await keypad.getByRole('button', { name: key, exact: true }).click();
  }
}

/** Charges the amount typed so far and returns the invoice the server issued. */
async function charge(page: Page): Promise<{ id: string; paymentRequest: string; amountMsat: number }> {
  const created = page.waitForResponse((r) => r.url().endsWith('/invoices') && r.request().method() === 'POST');
  await page.getByRole('button', { name: /^Charge / }).click();
  const response = await created;
  expect(response.status()).toBe(201);
  await expect(page.getByRole('img', { name: 'QR code of the Lightning invoice' })).toBeVisible();
  return response.json();
}

test('an admin sets up a terminal, charges 12.50 with a 10% tip and 12% tax, and sees it paid', async ({
  page,
  browser,
}) => {
  const suffix = Date.now().toString(36);
  const accountName = `Patio ${suffix}`;
  const bptName = `Patio till ${suffix}`;
  await openSignedIn(page, demo.admin);

  await page.getByRole('link', { name: 'Accounts' }).click();
  await page.getByRole('button', { name: 'New account' }).click();
  await page.getByRole('textbox', { name: 'Name' }).fill(accountName);
  await page.getByRole('button', { name: 'Create' }).click();
  await expect(page.getByRole('cell', { name: accountName, exact: true })).toBeVisible();

  await page.getByRole('link', { name: 'BPTs' }).click();
  await page.getByRole('button', { name: 'New BPT' }).click();
  const form = page.getByRole('dialog');
  await form.getByRole('textbox', { name: 'Name' }).fill(bptName);
  await form.getByRole('combobox', { name: 'Account' }).click();
  await page.getByRole('option', { name: accountName }).click();
  await form.getByRole('combobox', { name: 'Currency' }).fill('GTQ');
  await page.getByRole('option', { name: 'GTQ' }).click();
  await form.getByRole('textbox', { name: 'Tax percentage' }).fill('12');
  await form.getByRole('switch', { name: 'Tip' }).check();
  await form.getByRole('switch', { name: 'Shareable' }).check();
  await form.getByRole('button', { name: 'Create' }).click();
  await expect(form).toBeHidden();

  const row = page.getByRole('row').filter({ hasText: bptName });
  await row
    .getByRole('link', { name: 'Open terminal' })
    .or(row.getByRole('button', { name: 'Open terminal' }))
    .click();
  await expect(page).toHaveURL(/\/bpts\/[0-9a-f-]{36}\/terminal$/);

  await typeOnKeypad(page, '12.50');
  await page.getByRole('radiogroup', { name: 'Tip' }).getByText('10%', { exact: true }).click();
  const summary = page.getByRole('main');
  await expect(summary.getByText('GTQ 12.50').first()).toBeVisible();
  await expect(summary.getByText('GTQ 1.25').first()).toBeVisible();
  await expect(summary.getByText('GTQ 1.50').first()).toBeVisible();
  await expect(page.getByRole('button', { name: 'Charge GTQ 15.25' })).toBeVisible();

  const invoice = await charge(page);
  // Q15.25 at the devnet's Q730,000 per bitcoin is 2,089 sats.
  expect(invoice.amountMsat).toBe(2_089_000);
  expect(invoice.paymentRequest.startsWith('lnbcrt')).toBe(true);

  await payFromDevnetWallet(browser, invoice.paymentRequest);
  // Live status: the terminal turns to its paid screen as soon as the settlement is recorded.
  await expect(page.getByRole('heading', { name: 'Paid' })).toBeVisible({ timeout: 1000 });

  await page.getByRole('button', { name: 'New sale' }).click();
  const latest = page
    .getByRole('region', { name: 'Latest transactions' })
    .or(page.locator('section[aria-labelledby="latest-transactions"]'));
  const sale = latest.getByRole('row').nth(1);
  await expect(sale).toContainText('GTQ 12.50');
  await expect(sale).toContainText('GTQ 1.25');
  await expect(sale).toContainText('GTQ 1.50');
  await expect(sale).toContainText('GTQ 15.25');
  await expect(sale).toContainText('2,089');
  // Days are written as on every other screen ("Nov 27, 2026"), not in the short numeric form.
  const day = sale.getByRole('cell').first();
  await expect(day).toHaveText(/\b20\d\d\b/);
  await expect(day).not.toHaveText(/\d{1,2}\/\d{1,2}\/\d{2}\b/);

  // On a phone the date takes its own line, and tax, total and sats fit the screen's width.
  await page.setViewportSize({ width: 390, height: 844 });
  const header = latest.getByRole('row').first();
  await header.scrollIntoViewIfNeeded();
  for (const column of ['Bill', 'Tip', 'Tax', 'Total', 'Sats']) {
    await expect(latest.getByRole('columnheader', { name: column, exact: true })).toBeInViewport({ ratio: 1 });
  }
  const amounts = latest.getByRole('row').filter({ hasText: 'GTQ 15.25' }).first();
  await amounts.scrollIntoViewIfNeeded();
  await expect(amounts.getByRole('cell', { name: 'GTQ 15.25' })).toBeInViewport({ ratio: 1 });
  await expect(amounts.getByRole('cell', { name: '2,089 sats' })).toBeInViewport({ ratio: 1 });
  await page.screenshot({ path: test.info().outputPath('terminal-latest-390-en.png') });
});

test.describe('the shareable terminal on a phone, signed out', () => {
  test.use({ viewport: { width: 390, height: 844 } });

  test('charges and shows paid; a pasted LNURL-withdraw link pays too', async ({ browser, request }) => {
    // The demo admin makes a shareable terminal through the API.
    const signIn = await request.post('/api/auth/signin', {
      data: { email: demo.admin, password: 'Rayo-demo-2026!' },
    });
    const { accessToken } = await signIn.json();
    const auth = { authorization: `Bearer ${accessToken}` };
    const accounts = await (await request.get('/api/account/all', { headers: auth })).json();
    const bpt = await (
      await request.post('/api/bpts', {
        headers: auth,
        data: { name: `Market stall ${Date.now()}`, accountId: accounts[0].id, currency: 'USD', shareable: true },
      })
    ).json();
    expect(bpt.shareToken).toBeTruthy();

    const phone = await browser.newContext({ viewport: { width: 390, height: 844 } });
    const cashier = await phone.newPage();
    await cashier.goto(`/bpts/${bpt.shareToken}`);
    expect(await cashier.evaluate(() => localStorage.getItem('accessToken'))).toBeNull();
    await expect(cashier.getByText(bpt.name)).toBeVisible();

    await typeOnKeypad(cashier, '5');
    const first = await charge(cashier);
    const box = await cashier.getByRole('img', { name: 'QR code of the Lightning invoice' }).boundingBox();
    expect(box && box.x >= 0 && box.x + box.width <= 390).toBe(true);
    await payFromDevnetWallet(browser, first.paymentRequest);
    await expect(cashier.getByRole('heading', { name: 'Paid' })).toBeVisible({ timeout: 1000 });
    await cashier.getByRole('button', { name: 'New sale' }).click();

    // A card tap, pasted: the devnet wallet issues a one-time LNURL-withdraw link.
    const wallet = await browser.newPage();
    await wallet.goto('/devnet/wallet');
    await wallet.getByRole('button', { name: 'Create test card link' }).click();
    const link =
      (
        await wallet
          .locator('section[aria-labelledby="devnet-card"] pre, section[aria-labelledby="devnet-card"] code')
          .first()
          .textContent()
      )?.trim() ?? '';
    expect(link).toMatch(/^lnurlw:\/\//);
    await wallet.close();

    await typeOnKeypad(cashier, '2');
    await charge(cashier);
    await cashier.getByRole('textbox', { name: 'Paste LNURL-withdraw' }).fill(link);
    await cashier.getByRole('button', { name: 'Pay', exact: true }).click();
    await expect(cashier.getByRole('heading', { name: 'Paid' })).toBeVisible({ timeout: 5000 });

    await cashier.getByRole('button', { name: 'New sale' }).click();
    await typeOnKeypad(cashier, '1');
    await charge(cashier);
    await cashier.getByRole('textbox', { name: 'Paste LNURL-withdraw' }).fill('lnurlw://nowhere.invalid/x');
    await cashier.getByRole('button', { name: 'Pay', exact: true }).click();
    await expect(cashier.getByText('Invalid Lnurl-withdraw code')).toBeVisible();
    await phone.close();
  });
});

test('an unpaid invoice expires on screen and is charged again in one tap', async ({ page, request }) => {
  await openSignedIn(page, demo.admin);
  await page.getByRole('link', { name: 'BPTs' }).click();
  await page.getByRole('row').filter({ hasText: 'Web orders' }).getByRole('link', { name: 'Open terminal' }).click();
  await typeOnKeypad(page, '8');
  const first = await charge(page);
  await expect(page.getByText(/Expires in (00:[0-5]\d|01:00)/)).toBeVisible();

  // The devnet node lets it run out now and the server records it expired: the terminal, its own
  // countdown still far from zero, can only hear so over SSE.
  await sendJson(request, '/api/devnet/expire', { paymentRequest: first.paymentRequest });
  await expect(page.getByRole('heading', { name: 'Invoice expired' })).toBeVisible();
  const again = page.waitForResponse((r) => r.url().endsWith('/invoices') && r.request().method() === 'POST');
  await page.getByRole('button', { name: 'Charge again' }).click();
  const second = await (await again).json();
  expect(second.id).not.toBe(first.id);
  expect(second.fiatTotal).toBe('8.96');
  await expect(page.getByRole('img', { name: 'QR code of the Lightning invoice' })).toBeVisible();
});
