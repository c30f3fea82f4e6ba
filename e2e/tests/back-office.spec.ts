import { readFile } from 'node:fs/promises';
import { type APIRequestContext, expect, type Page, test } from '@playwright/test';
import { DEMO_PASSWORD, demo, openSignedIn, sendJson } from './support.ts';

/** The demo's second merchant, seeded for back office to work on (README "Demo users"). */
const bookshop = { name: 'Librería Aurora', admin: 'aurora@rayo.local' } as const;
/** For the first look after a navigation: each screen's code loads lazily, slowly on a busy machine. */
const afterNavigation = expect.configure({ timeout: 30_000 });
type Sums = { msatsToDisburse: number; receiveMsat: number; fiatToDisburse: string; receiveFiat: string };
type ErrorBody = { code: string; message: string };

// One merchant, acted on in turn: verified, blocked and unblocked, then paid.
test.describe.configure({ mode: 'serial', timeout: 180_000 });

async function signInApi(request: APIRequestContext, email: string): Promise<string> {
  const session = await sendJson<{ accessToken: string }>(request, '/api/auth/signin', {
    email,
    password: DEMO_PASSWORD,
  });
  return session.accessToken;
}

async function openBookshop(page: Page, tab: 'Information' | 'Transactions') {
  await openSignedIn(page, demo.backOffice);
  await afterNavigation(page.getByRole('textbox', { name: 'Search' })).toBeVisible();
  await page.getByRole('textbox', { name: 'Search' }).fill('Aurora');
  await afterNavigation(page.getByRole('link', { name: bookshop.name })).toBeVisible();
  await page.getByRole('link', { name: bookshop.name }).click();
  await afterNavigation(page.getByRole('heading', { name: bookshop.name, level: 1 })).toBeVisible();
  if (tab === 'Transactions') await page.getByRole('tab', { name: 'Transactions' }).click();
}

async function bookshopId(request: APIRequestContext, token: string): Promise<string> {
  const page = (await (
    await request.get('/api/back-office/organizations?search=Aurora', { headers: { authorization: `Bearer ${token}` } })
  ).json()) as { organizations: { id: string; name: string }[] };
  const found = page.organizations.find((organization) => organization.name === bookshop.name);
  if (!found) throw new Error('Librería Aurora is not seeded');
  return found.id;
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

// Issue 26: Librería Aurora has no bank account yet, and its fiat was marked paid without a word.
test('marking fiat paid to an organization without a bank account names it and asks for a confirmation', async ({
  page,
  request,
}) => {
  await openBookshop(page, 'Transactions');
  const boxes = page.getByRole('checkbox', { name: /^Select transaction / });
  await afterNavigation(boxes.first()).toBeVisible();
  await boxes.first().check();
  await page.getByRole('button', { name: 'Mark as paid' }).click();
  const dialog = page.getByRole('dialog', { name: 'Mark as paid?' });
  await expect(dialog.getByText('Librería Aurora has not entered a bank account')).toBeVisible();
  const confirm = dialog.getByRole('button', { name: 'Mark as paid' });
  await expect(confirm).toBeDisabled();
  await page.screenshot({ path: test.info().outputPath('mark-paid-no-bank-1280-en.png') });
  await dialog.getByRole('checkbox', { name: 'I paid Librería Aurora another way' }).check();
  const paid = page.waitForResponse((r) => r.url().endsWith('/api/back-office/pay-transactions'));
  await confirm.click();
  expect((await paid).status()).toBe(200);
  await expect(page.getByText('1 transaction marked as paid.')).toBeVisible();

  // A sale paid by someone else while the dialog is open: SPEC's refusal, and nothing left to press.
  const box = boxes.first();
  const id = ((await box.getAttribute('aria-label')) ?? '').replace('Select transaction ', '');
  await box.check();
  await page.getByRole('button', { name: 'Mark as paid' }).click();
  await dialog.getByRole('checkbox', { name: 'I paid Librería Aurora another way' }).check();
  const token = await signInApi(request, demo.backOffice);
  const unpaid = (await (
    await request.get(`/api/back-office/organization/${await bookshopId(request, token)}/unpaid-transactions`, {
      headers: { authorization: `Bearer ${token}` },
    })
  ).json()) as { id: string; transactionId: string }[];
  const sale = unpaid.find((transaction) => transaction.transactionId.startsWith(id));
  if (!sale) throw new Error(`no unpaid sale ${id}`);
  await sendJson(
    request,
    '/api/back-office/pay-transactions',
    { transactionsIds: [sale.id], withoutBankAccount: [await bookshopId(request, token)] },
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
  const merchant = await signInApi(request, bookshop.admin);
  const split = { fiatPercent: 40, onchainPercent: 60, lightningPercent: 0 };
  const refused = await request.put('/api/settings/payout-split', {
    data: split,
    headers: { authorization: `Bearer ${merchant}` },
  });
  expect(refused.status()).toBe(409);

  // The merchant enters the bank details back office has been waiting for.
  await sendJson(
    request,
    '/api/settings/banking-info',
    {
      bankingInfoMetadata: {
        bank: 'Banco Azteca',
        accountName: 'Librería Aurora',
        accountNumber: '032180000118359719',
        accountType: 'checking',
        currency: 'MXN',
      },
    },
    merchant,
  );

  await openBookshop(page, 'Information');
  await expect(page.getByText('Banco Azteca')).toBeVisible();
  await expect(page.getByTestId('kyb-documents')).toContainText('acta-constitutiva.pdf');
  for (const field of ['Bank info', 'Bitcoin info', 'Disbursement address', 'Conversion address', 'KYB']) {
    await setVerification(page, field, 'Validate');
  }
  await page.screenshot({ path: test.info().outputPath('back-office-infos-1280.png'), fullPage: true });

  // Every field verified: the merchant may now change the split (SPEC §4).
  await sendJson(request, '/api/settings/payout-split', split, merchant, 'PUT');

  // Blocked: the shop's terminal cannot charge, with SPEC's message; unblocked, it charges again.
  const bpts = await (await request.get('/api/bpts', { headers: { authorization: `Bearer ${merchant}` } })).json();
  const bptId = (bpts as { id: string }[])[0]?.id as string;
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
  await openSignedIn(merchantPage, bookshop.admin, `/bpts/${bptId}/terminal`);
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
  const merchant = await signInApi(request, bookshop.admin);
  const sumsOf = async () =>
    (await (
      await request.get('/api/dashboard/transactions/sum', { headers: { authorization: `Bearer ${merchant}` } })
    ).json()) as Sums;
  const before = await sumsOf();

  // The merchant's home, every period: the fiat still to be paid to her bank.
  const merchantPage = await page.context().browser()?.newPage();
  if (!merchantPage) throw new Error('no browser');
  await openSignedIn(merchantPage, bookshop.admin);
  await afterNavigation(merchantPage.getByTestId('metric-fiatToDisburse')).toBeVisible();
  await merchantPage.getByText('Todo', { exact: true }).click();
  const metric = merchantPage.getByTestId('metric-fiatToDisburse');
  await expect(metric).not.toHaveText('');
  const shownBefore = await metric.textContent();

  await openBookshop(page, 'Transactions');
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
  await openSignedIn(page, demo.backOffice);
  await afterNavigation(page.getByRole('tab', { name: 'Country reports' })).toBeVisible();
  await page.getByRole('tab', { name: 'Country reports' }).click();
  const totals = page.getByTestId('country-report-totals');
  await afterNavigation(totals).toBeVisible();
  await expect(page.getByRole('checkbox', { name: `Check ${bookshop.name}` })).toBeVisible();
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
  // Journeys running beside this one sign organizations up, so the report can change between the
  // screen's read and the download: the two are compared again, from a fresh read, until they
  // agree.
  let figures = new Map<string, string>();
  await expect(async () => {
    if (figures.size > 0) {
      await page.reload();
      await page.getByRole('tab', { name: 'Country reports' }).click();
      await expect(totals).toBeVisible();
    }
    const downloaded = page.waitForEvent('download');
    await page.getByRole('button', { name: 'Download CSV' }).click();
    const csv = await readFile((await (await downloaded).path()) as string, 'utf8');
    figures = new Map(
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
  }).toPass({ timeout: 60_000 });
  expect(Number(figures.get('Organizations'))).toBeGreaterThanOrEqual(2);
  // The demo's sales were charged fees, fixed in dollars as they settled.
  expect(digits(figures.get('Fee USD') ?? '')).not.toMatch(/^0*$/);

  // The journey's own actions are in the audit log back office exports.
  const backOffice = await signInApi(request, demo.backOffice);
  const now = Math.floor(Date.now() / 1000);
  const audit = await request.get(`/api/back-office/audit/csv?start=${now - 3600}&end=${now + 60}`, {
    headers: { authorization: `Bearer ${backOffice}` },
  });
  expect(audit.ok()).toBe(true);
  const log = await audit.text();
  for (const action of [
    'back_office.verification_changed',
    'back_office.organization_blocked',
    'back_office.organization_unblocked',
    'back_office.transactions_paid',
  ]) {
    expect(log).toContain(action);
  }
});
