import { readFile } from 'node:fs/promises';
import { type APIRequestContext, expect, type Page, test } from '@playwright/test';
import type { Country } from '@rayo/shared';
import { DEMO_PASSWORD, demo, openSignedIn, sendJson, signUpShop, writeOrganization } from './support.ts';

/** For the first look after a navigation: each screen's code loads lazily, slowly on a busy machine. */
const afterNavigation = expect.configure({ timeout: 30_000 });
type Sums = { msatsToDisburse: number; receiveMsat: number; fiatToDisburse: string; receiveFiat: string };
type ErrorBody = { code: string; message: string };
type Shop = { name: string; admin: string; organizationId: string; token: string; bptId: string; currency: string };

/** Where the bookshops are: Mexico as the demo's, and Ecuador, where no other journey signs up, for its report. */
const MEXICO = { code: 'MX', currency: 'MXN' } as const;
const ECUADOR = { code: 'EC', currency: 'USD' } as const;
/** The articles of incorporation a bookshop uploads for KYB: a one-page PDF. */
const KYB_PDF =
  '%PDF-1.4\n1 0 obj<</Type/Catalog/Pages 2 0 R>>endobj\n2 0 obj<</Type/Pages/Kids[3 0 R]/Count 1>>endobj\n' +
  '3 0 obj<</Type/Page/Parent 2 0 R/MediaBox[0 0 200 200]>>endobj\ntrailer<</Root 1 0 R>>\n%%EOF\n';

// Each journey works on bookshops of its own, so all run side by side and the figures they read
// are only theirs.
test.describe.configure({ timeout: 180_000 });

async function signInApi(request: APIRequestContext, email: string): Promise<string> {
  const session = await sendJson<{ accessToken: string }>(request, '/api/auth/signin', {
    email,
    password: DEMO_PASSWORD,
  });
  return session.accessToken;
}

/**
 * A bookshop of the journey's own, as the demo's Librería Aurora is seeded (README "Demo users"):
 * in Spanish, a till, half of each sale to the bank and half on-chain, its addresses entered and
 * no bank account yet. The split and addresses are written where Settings would write them, as the
 * seed does, since Settings' split waits for back office's checks, which a journey here walks.
 */
async function ownBookshop(request: APIRequestContext, country: { code: string; currency: string }): Promise<Shop> {
  const shop = await signUpShop(request, {
    emailPrefix: 'aurora',
    emailDomain: 'libreria-aurora.example',
    name: 'Librería Aurora',
    password: DEMO_PASSWORD,
    language: 'es',
    country,
  });
  const account = await sendJson<{ id: string }>(request, '/api/accounts', { name: 'Tienda' }, shop.token);
  const bpt = await sendJson<{ id: string }>(
    request,
    '/api/bpts',
    { name: 'Caja', accountId: account.id, currency: country.currency },
    shop.token,
  );
  await writeOrganization(shop.organizationId, {
    payout_fiat_bps: 5000,
    payout_onchain_bps: 5000,
    payout_lightning_bps: 0,
    // A regtest address, since the devnet node's wallet is on regtest.
    onchain_address: 'bcrt1qw508d6qejxtdg4y5r3zarvary0c5xw7kygt080',
    lightning_address: `pagos-${shop.suffix}@libreria-aurora.example`,
  });
  return {
    name: shop.name,
    admin: shop.email,
    organizationId: shop.organizationId,
    token: shop.token,
    bptId: bpt.id,
    currency: country.currency,
  };
}

/** The bookshop's sales still to be paid to its bank, as back office lists them. */
async function unpaidOf(request: APIRequestContext, shop: Shop, backOffice: string) {
  const response = await request.get(`/api/back-office/organization/${shop.organizationId}/unpaid-transactions`, {
    headers: { authorization: `Bearer ${backOffice}` },
  });
  return (await response.json()) as { id: string; transactionId: string }[];
}

/** `count` sales of 120.00 at the bookshop's till, paid from the devnet wallet and settled. */
async function sell(request: APIRequestContext, shop: Shop, count: number) {
  for (let sale = 0; sale < count; sale += 1) {
    const invoice = await sendJson<{ paymentRequest: string }>(
      request,
      `/api/bpts/${shop.bptId}/invoices`,
      { amount: '120.00' },
      shop.token,
    );
    await sendJson(request, '/api/devnet/pay', { paymentRequest: invoice.paymentRequest });
  }
  const backOffice = await signInApi(request, demo.backOffice);
  await expect.poll(async () => (await unpaidOf(request, shop, backOffice)).length).toBe(count);
}

/** The bank account the merchant enters in Settings, which back office pays the fiat to. */
async function enterBankAccount(request: APIRequestContext, shop: Shop) {
  await sendJson(
    request,
    '/api/settings/banking-info',
    {
      bankingInfoMetadata: {
        bank: 'Banco Azteca',
        accountName: shop.name,
        accountNumber: '032180000118359719',
        accountType: 'checking',
        currency: shop.currency,
      },
    },
    shop.token,
  );
}

async function openBookshop(page: Page, shop: Shop, tab: 'Information' | 'Transactions') {
  await openSignedIn(page, demo.backOffice);
  await afterNavigation(page.getByRole('textbox', { name: 'Search' })).toBeVisible();
  await page.getByRole('textbox', { name: 'Search' }).fill(shop.name);
  await afterNavigation(page.getByRole('link', { name: shop.name })).toBeVisible();
  await page.getByRole('link', { name: shop.name }).click();
  await afterNavigation(page.getByRole('heading', { name: shop.name, level: 1 })).toBeVisible();
  if (tab === 'Transactions') await page.getByRole('tab', { name: 'Transactions' }).click();
}

async function setVerification(page: Page, field: string, action: 'Validate' | 'Invalidate') {
  const changed = page.waitForResponse(
    (r) => r.url().includes('/verification') && r.request().method() === 'PUT' && r.ok(),
  );
  await page.getByRole('button', { name: `${action}: ${field}` }).click();
  await page.getByRole('dialog').getByRole('button', { name: 'Confirm' }).click();
  await changed;
  const row = page.getByTestId('verifications').getByRole('row').filter({ hasText: field });
  await expect(row).toContainText(action === 'Validate' ? /(?<!Not )Verified/ : 'Not verified');
}

async function chargeOnce(request: APIRequestContext, token: string, bptId: string) {
  return request.post(`/api/bpts/${bptId}/invoices`, {
    data: { amount: '120.00' },
    headers: { authorization: `Bearer ${token}` },
  });
}

// Issue 26: Librería Aurora had no bank account yet, and its fiat was marked paid without a word.
test('marking fiat paid to an organization without a bank account names it and asks for a confirmation', async ({
  page,
  request,
}) => {
  const shop = await ownBookshop(request, MEXICO);
  await sell(request, shop, 2);
  await openBookshop(page, shop, 'Transactions');
  const boxes = page.getByRole('checkbox', { name: /^Select transaction / });
  await afterNavigation(boxes.first()).toBeVisible();
  await boxes.first().check();
  await page.getByRole('button', { name: 'Mark as paid' }).click();
  const dialog = page.getByRole('dialog', { name: 'Mark as paid?' });
  await expect(dialog.getByText(`${shop.name} has not entered a bank account`)).toBeVisible();
  const confirm = dialog.getByRole('button', { name: 'Mark as paid' });
  await expect(confirm).toBeDisabled();
  await page.screenshot({ path: test.info().outputPath('mark-paid-no-bank-1280-en.png') });
  await dialog.getByRole('checkbox', { name: `I paid ${shop.name} another way` }).check();
  const paid = page.waitForResponse((r) => r.url().endsWith('/api/back-office/pay-transactions'));
  await confirm.click();
  expect((await paid).status()).toBe(200);
  await expect(page.getByText('1 transaction marked as paid.')).toBeVisible();

  // A sale paid by someone else while the dialog is open: SPEC's refusal, and nothing left to press.
  const box = boxes.first();
  const id = ((await box.getAttribute('aria-label')) ?? '').replace('Select transaction ', '');
  await box.check();
  await page.getByRole('button', { name: 'Mark as paid' }).click();
  await dialog.getByRole('checkbox', { name: `I paid ${shop.name} another way` }).check();
  const token = await signInApi(request, demo.backOffice);
  const sale = (await unpaidOf(request, shop, token)).find((transaction) => transaction.transactionId.startsWith(id));
  if (!sale) throw new Error(`no unpaid sale ${id}`);
  await sendJson(
    request,
    '/api/back-office/pay-transactions',
    { transactionsIds: [sale.id], withoutBankAccount: [shop.organizationId] },
    token,
  );
  await confirm.click();
  await expect(dialog.getByRole('alert')).toHaveText("Transaction doesn't exists");
  await expect(dialog.getByText('None of the checked transactions is still unpaid')).toBeVisible();
  await expect(confirm).toBeDisabled();
  await page.setViewportSize({ width: 390, height: 844 });
  await page.screenshot({ path: test.info().outputPath('mark-paid-nothing-left-390-en.png') });
});

test('back office verifies what the merchant entered, which unlocks the split, and blocks then unblocks the shop', async ({
  page,
  request,
}) => {
  const shop = await ownBookshop(request, MEXICO);
  const merchant = shop.token;
  // The articles of incorporation, as the merchant uploads them in Settings.
  const uploaded = await request.post('/api/settings/kyb-documents', {
    headers: { authorization: `Bearer ${merchant}` },
    multipart: {
      file: { name: 'acta-constitutiva.pdf', mimeType: 'application/pdf', buffer: Buffer.from(KYB_PDF) },
    },
  });
  expect(uploaded.status(), await uploaded.text()).toBe(201);
  const split = { fiatPercent: 40, onchainPercent: 60, lightningPercent: 0 };
  const refused = await request.put('/api/settings/payout-split', {
    data: split,
    headers: { authorization: `Bearer ${merchant}` },
  });
  expect(refused.status()).toBe(409);

  // The merchant enters the bank details back office has been waiting for.
  await enterBankAccount(request, shop);

  await openBookshop(page, shop, 'Information');
  await expect(page.getByText('Banco Azteca')).toBeVisible();
  await expect(page.getByTestId('kyb-documents')).toContainText('acta-constitutiva.pdf');
  for (const field of ['Bank info', 'Bitcoin info', 'Disbursement address', 'Conversion address', 'KYB']) {
    await setVerification(page, field, 'Validate');
  }
  await page.screenshot({ path: test.info().outputPath('back-office-infos-1280.png'), fullPage: true });

  // Every field verified: the merchant may now change the split (SPEC §4).
  await sendJson(request, '/api/settings/payout-split', split, merchant, 'PUT');

  // Blocked: the shop's terminal cannot charge, with SPEC's message; unblocked, it charges again.
  const bptId = shop.bptId;
  await page.getByRole('button', { name: 'Block organization' }).click();
  await page.getByRole('dialog').getByRole('radio', { name: 'Information is missing in Settings' }).check();
  await page.getByRole('dialog').getByRole('button', { name: 'Confirm' }).click();
  await expect(page.getByTestId('blocked-banner')).toBeVisible();
  const whileBlocked = await chargeOnce(request, merchant, bptId);
  expect(whileBlocked.status()).toBe(403);
  expect((await whileBlocked.json()) as ErrorBody).toMatchObject({
    code: 'OrganizationDisabled',
    message: 'Your organization is disabled, missing info in Settings',
  });

  // The merchant's terminal, in her language, says so too.
  const merchantPage = await page.context().browser()?.newPage();
  if (!merchantPage) throw new Error('no browser');
  await openSignedIn(merchantPage, shop.admin, `/bpts/${bptId}/terminal`);
  await afterNavigation(merchantPage.getByRole('group', { name: 'Teclado' })).toBeVisible();
  await merchantPage.getByRole('group', { name: 'Teclado' }).getByRole('button', { name: '5', exact: true }).click();
  await merchantPage.getByRole('button', { name: /^Cobrar / }).click();
  // The refused charge and the banner above every screen both say so.
  await expect(
    merchantPage
      .getByTestId('terminal-panel')
      .getByText('Tu organización está deshabilitada, falta información en Configuración'),
  ).toBeVisible();
  await expect(merchantPage.getByTestId('organization-blocked')).toContainText('Ir a Configuración');

  await page.getByRole('button', { name: 'Unblock organization' }).click();
  await page.getByRole('dialog').getByRole('button', { name: 'Confirm' }).click();
  await expect(page.getByTestId('blocked-banner')).toBeHidden();
  const created = merchantPage.waitForResponse((r) => r.url().endsWith('/invoices') && r.request().method() === 'POST');
  await merchantPage.getByRole('button', { name: /^Cobrar / }).click();
  expect((await created).status()).toBe(201);
  await expect(merchantPage.getByRole('img', { name: /QR/ })).toBeVisible();
  await merchantPage.close();
});

test("back office marks selected sales paid and the merchant's dashboard falls by them", async ({ page, request }) => {
  const shop = await ownBookshop(request, MEXICO);
  // A bank account entered and verified: a new one is held from payment until back office checks it.
  await enterBankAccount(request, shop);
  await sendJson(
    request,
    `/api/back-office/organization/${shop.organizationId}/verification`,
    { field: 'bank', verified: true },
    await signInApi(request, demo.backOffice),
    'PUT',
  );
  await sell(request, shop, 4);
  const merchant = shop.token;
  const sumsOf = async () =>
    (await (
      await request.get('/api/dashboard/transactions/sum', { headers: { authorization: `Bearer ${merchant}` } })
    ).json()) as Sums;
  const before = await sumsOf();

  // The merchant's home, every period: the fiat still to be paid to her bank.
  const merchantPage = await page.context().browser()?.newPage();
  if (!merchantPage) throw new Error('no browser');
  await openSignedIn(merchantPage, shop.admin);
  await afterNavigation(merchantPage.getByTestId('metric-fiatToDisburse')).toBeVisible();
  await merchantPage.getByText('Todo', { exact: true }).click();
  const metric = merchantPage.getByTestId('metric-fiatToDisburse');
  await expect(metric).not.toHaveText('');
  const shownBefore = await metric.textContent();

  await openBookshop(page, shop, 'Transactions');
  const table = page.getByRole('table');
  await afterNavigation(table.getByRole('checkbox').nth(1)).toBeVisible();
  const picked: { id: string }[] = [];
  const rows = await page.getByRole('checkbox', { name: /^Select transaction / }).all();
  for (const box of rows.slice(0, 3)) {
    const label = (await box.getAttribute('aria-label')) ?? '';
    await box.check();
    picked.push({ id: label.replace('Select transaction ', '') });
  }
  await expect(page.getByTestId('selection-summary')).toContainText('3 of');
  const paid = page.waitForResponse((r) => r.url().endsWith('/api/back-office/pay-transactions'));
  await page.getByRole('button', { name: 'Mark as paid' }).click();
  await page.getByRole('dialog').getByRole('button', { name: 'Mark as paid' }).click();
  const payment = await paid;
  expect(payment.status()).toBeLessThan(300);
  // The list names each sale by the start of its transaction id; the request carries the ledger ids.
  const { transactionsIds } = JSON.parse(payment.request().postData() ?? '{}') as { transactionsIds: string[] };
  expect(new Set(transactionsIds).size).toBe(3);
  await expect(page.getByText('3 transactions marked as paid.')).toBeVisible();
  for (const { id } of picked)
    await expect(page.getByRole('checkbox', { name: `Select transaction ${id}` })).toBeHidden();
  await page.screenshot({ path: test.info().outputPath('back-office-transactions-1280.png'), fullPage: true });

  // Paying the same sales again is refused as a whole, with SPEC's message.
  const backOffice = await signInApi(request, demo.backOffice);
  const again = await request.post('/api/back-office/pay-transactions', {
    data: { transactionsIds },
    headers: { authorization: `Bearer ${backOffice}` },
  });
  expect(again.status()).toBeGreaterThanOrEqual(400);
  expect(((await again.json()) as ErrorBody).message).toBe("Transaction doesn't exists");

  // The merchant's figures fall at once: the API's, and the card on her home after a reload.
  const after = await sumsOf();
  expect(Number(after.fiatToDisburse)).toBeLessThan(Number(before.fiatToDisburse));
  expect(after.receiveFiat).toBe(before.receiveFiat);
  await merchantPage.reload();
  await afterNavigation(merchantPage.getByTestId('metric-fiatToDisburse')).toBeVisible();
  await merchantPage.getByText('Todo', { exact: true }).click();
  await expect(merchantPage.getByTestId('metric-fiatToDisburse')).not.toHaveText(shownBefore ?? '');
  await merchantPage.close();
});

test('a country report CSV has the totals the screen shows, and the audit export holds the actions', async ({
  page,
  request,
}) => {
  // Two bookshops of Ecuador's report, with sales charged fees, one of them paid to its bank, one
  // field verified, and one shop blocked then unblocked: back office's actions the audit must hold.
  const [first, second] = await Promise.all([ownBookshop(request, ECUADOR), ownBookshop(request, ECUADOR)]);
  await Promise.all([sell(request, first, 2), sell(request, second, 1)]);
  const backOffice = await signInApi(request, demo.backOffice);
  const [paidSale] = await unpaidOf(request, first, backOffice);
  await sendJson(
    request,
    '/api/back-office/pay-transactions',
    { transactionsIds: [paidSale?.id], withoutBankAccount: [first.organizationId] },
    backOffice,
  );
  const admin = `/api/back-office/organization/${second.organizationId}`;
  await sendJson(request, `${admin}/verification`, { field: 'crypto', verified: true }, backOffice, 'PUT');
  await sendJson(request, `${admin}/blocked`, { blocked: true }, backOffice, 'PUT');
  await sendJson(request, `${admin}/blocked`, { blocked: false }, backOffice, 'PUT');

  const countries = (await (await request.get('/api/countries')).json()) as Country[];
  const ecuador = countries.find((country) => country.code === ECUADOR.code);
  await openSignedIn(page, demo.backOffice, `/back-office/reports?country=${ecuador?.id}`);
  await afterNavigation(page.getByRole('tab', { name: 'Country reports' })).toHaveAttribute('aria-selected', 'true');
  const totals = page.getByTestId('country-report-totals');
  await afterNavigation(totals).toBeVisible();
  for (const shop of [first, second])
    await expect(page.getByRole('checkbox', { name: `Check ${shop.name}` })).toBeVisible();
  await page.screenshot({ path: test.info().outputPath('back-office-report-1280.png'), fullPage: true });

  // Each figure is a box of its label, then its value.
  const shown = async (label: string) =>
    (await totals
      .locator('> *')
      .filter({ has: page.getByText(label, { exact: true }) })
      .locator('p')
      .nth(1)
      .textContent()) ?? '';
  const digits = (text: string) => text.replace(/[^\d]/g, '');
  // Only this journey's bookshops are in Ecuador's report, so the screen and the file agree at once.
  const downloaded = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Download CSV' }).click();
  const csv = await readFile((await (await downloaded).path()) as string, 'utf8');
  const figures = new Map(
    csv
      .slice(csv.indexOf('Total,Value'))
      .trim()
      .split(/\r?\n/)
      .slice(1)
      .map((line) => {
        const comma = line.indexOf(',');
        return [line.slice(0, comma), line.slice(comma + 1).replace(/^"|"$/g, '')] as const;
      }),
  );
  for (const [screenLabel, csvLabel] of [
    ['Pending transactions', 'Pending transactions'],
    ['Paid transactions', 'Paid transactions'],
    ['Organizations', 'Organizations'],
    ['Active organizations', 'Active organizations'],
    ['Paid sats', 'Paid sats'],
    ['Fee in USD', 'Fee USD'],
  ] as const) {
    expect(digits(await shown(screenLabel)), screenLabel).toBe(digits(figures.get(csvLabel) ?? 'missing'));
  }
  const paidFiat = (await shown('Paid fiat')).replace(/,/g, '');
  for (const amount of (figures.get('Paid fiat') ?? '').split('; ')) {
    const [value, currency] = amount.split(' ');
    expect(paidFiat, currency).toContain(value);
  }
  // The figures are the journey's own: two bookshops, three sales, one of them paid.
  expect(figures.get('Organizations')).toBe('2');
  expect(figures.get('Pending transactions')).toBe('2');
  expect(figures.get('Paid transactions')).toBe('1');
  // The sales were charged fees, fixed in dollars as they settled.
  expect(digits(figures.get('Fee USD') ?? '')).not.toMatch(/^0*$/);

  // The journey's own actions are in the audit log back office exports.
  const now = Math.floor(Date.now() / 1000);
  const audit = await request.get(`/api/back-office/audit/csv?start=${now - 3600}&end=${now + 60}`, {
    headers: { authorization: `Bearer ${backOffice}` },
  });
  expect(audit.ok()).toBe(true);
  const log = (await audit.text())
    .split(/\r?\n/)
    .filter((line) => [first, second].some((shop) => line.includes(`organization:${shop.organizationId}`)))
    .join('\n');
  for (const action of [
    'back_office.verification_changed',
    'back_office.organization_blocked',
    'back_office.organization_unblocked',
    'back_office.transactions_paid',
  ]) {
    expect(log).toContain(action);
  }
});
