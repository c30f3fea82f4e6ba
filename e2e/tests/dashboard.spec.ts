import { readFile } from 'node:fs/promises';
import { expect, type Page, test } from '@playwright/test';
import { apiAs, demo, paidSale, signInViaUi } from './support.ts';

type Sums = { msatsToDisburse: number; receiveMsat: number; fiatToDisburse: string; receiveFiat: string };
type TransactionPage = { transactions: { transactionId: string; billAmount: string }[]; total: number };

const DAY = 86_400;
/** Demo Café is in Guatemala: UTC−6 all year, so its midnights are easy to compute independently. */
const GUATEMALA_OFFSET = 6 * 3600;

function guatemalaToday(): { start: number; end: number } {
  const now = Math.floor(Date.now() / 1000);
  const start = Math.floor((now - GUATEMALA_OFFSET) / DAY) * DAY + GUATEMALA_OFFSET;
  return { start, end: start + DAY };
}

/** A dedicated account with its own BPT and two paid sales, so its figures are known exactly. */
async function accountWithSales(page: Page) {
  const name = `Dashboard ${Date.now().toString(36)}`;
  const account = await apiAs<{ id: string }>(page, 'POST', '/api/accounts', { name });
  const bpt = await apiAs<{ id: string }>(page, 'POST', '/api/bpts', {
    name: `${name} till`,
    accountId: account.id,
    currency: 'GTQ',
    tipEnabled: true,
    taxPercentage: 12,
  });
  // Q10.00 + Q1.20 tax, then Q20.00 + Q1.00 tip + Q2.40 tax: Q34.60 received.
  const first = await paidSale(page, bpt.id, { amount: '10.00' });
  const second = await paidSale(page, bpt.id, { amount: '20.00', tip: '1.00' });
  return { id: account.id, name, sales: [second, first] };
}

function sumsWaiter(page: Page, account: string) {
  return page.waitForResponse(
    (r) =>
      r.url().includes('/api/dashboard/transactions/sum?') && new URL(r.url()).searchParams.get('account') === account,
  );
}

function satsText(msat: number, locale: string) {
  return `${new Intl.NumberFormat(locale, { maximumFractionDigits: 3 }).format(msat / 1000)} sats`;
}

async function chooseAccount(page: Page, name: string) {
  await page.getByRole('combobox', { name: 'Account' }).click();
  await page.getByRole('option', { name, exact: true }).click();
}

test('periods and accounts change the metrics and the table to the API’s figures', async ({ page }) => {
  await signInViaUi(page, demo.admin);
  const mine = await accountWithSales(page);
  const allToday = sumsWaiter(page, 'all');
  await page.reload();

  // Today, every account: the period sent is Guatemala's day, and the cards show what the API answered.
  const response = await allToday;
  const today = guatemalaToday();
  const sent = new URL(response.url()).searchParams;
  expect({ start: Number(sent.get('start')), end: Number(sent.get('end')) }).toEqual(today);
  const sums = (await response.json()) as Sums;
  await expect(page.getByTestId('metric-receiveMsat')).toHaveText(satsText(sums.receiveMsat, 'en'));
  await expect(page.getByTestId('metric-msatsToDisburse')).toHaveText(satsText(sums.msatsToDisburse, 'en'));

  // One account: exactly its two sales, newest first.
  const mineToday = sumsWaiter(page, mine.id);
  await chooseAccount(page, mine.name);
  await mineToday;
  const received = mine.sales.reduce((total, sale) => total + sale.amountMsat, 0);
  await expect(page.getByTestId('metric-receiveFiat')).toHaveText('GTQ\u00a034.60');
  await expect(page.getByTestId('metric-receiveMsat')).toHaveText(satsText(received, 'en'));
  const table = page.getByRole('table');
  await expect(table).toHaveAttribute('data-total', '2');
  const rows = table.locator('tbody tr');
  await expect(rows).toHaveCount(2);
  await expect(rows.nth(0)).toContainText('GTQ\u00a020.00');
  await expect(rows.nth(1)).toContainText('GTQ\u00a010.00');
  const page1 = await apiAs<TransactionPage>(page, 'GET', `/api/dashboard/transactions?account=${mine.id}`);
  expect(page1.transactions.map((t) => t.transactionId)).toEqual(mine.sales.map((sale) => sale.paymentHash));

  // Yesterday: nothing for the new account, so zero sums and the empty state.
  const yesterday = sumsWaiter(page, mine.id);
  await page.getByText('Yesterday', { exact: true }).click();
  const yesterdaySent = new URL((await yesterday).url()).searchParams;
  expect(Number(yesterdaySent.get('start'))).toBe(today.start - DAY);
  expect(Number(yesterdaySent.get('end'))).toBe(today.start);
  await expect(page.getByTestId('metric-receiveFiat')).toHaveText('GTQ\u00a00.00');
  await expect(page.getByTestId('metric-receiveMsat')).toHaveText('0 sats');
  await expect(page.getByText('No transactions in this period')).toBeVisible();

  // Last 30 days and this year include today's sales again.
  for (const period of ['Last 30 days', 'This Year']) {
    const waited = sumsWaiter(page, mine.id);
    await page.getByText(period, { exact: true }).click();
    const body = (await (await waited).json()) as Sums;
    expect(body.receiveFiat).toBe('34.60');
    await expect(page.getByTestId('metric-receiveFiat')).toHaveText('GTQ\u00a034.60');
    await expect(rows).toHaveCount(2);
  }
});

test('the CSV of the filtered period has the table’s rows', async ({ page }) => {
  await signInViaUi(page, demo.admin);
  const mine = await accountWithSales(page);
  await page.reload();
  await chooseAccount(page, mine.name);
  await page.getByText('This Month', { exact: true }).click();
  const rows = page.getByRole('table').locator('tbody tr');
  await expect(rows).toHaveCount(2);

  const downloading = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Download CSV' }).click();
  const download = await downloading;
  expect(download.suggestedFilename()).toMatch(/^transactions_.*\.csv$/);
  const text = await readFile((await download.path()) as string, 'utf8');
  const [header = '', ...lines] = text.trim().split('\n');
  const columns = header.split(',');
  const cell = (line: string, name: string) => line.split(',')[columns.indexOf(name)];
  expect(lines).toHaveLength(2);
  expect(lines.map((line) => cell(line, 'Transaction id'))).toEqual(mine.sales.map((sale) => sale.paymentHash));
  expect(lines.map((line) => cell(line, 'Bill amount'))).toEqual(['20.00', '10.00']);
  expect(lines.map((line) => cell(line, 'Total msats charged'))).toEqual(mine.sales.map((s) => String(s.amountMsat)));
  // The table lists the same sales in the same order: its id cells show the ends of each hash.
  for (const [index, sale] of mine.sales.entries()) {
    await expect(rows.nth(index)).toContainText(sale.paymentHash.slice(-6));
  }
  await expect(page.getByTestId('csv-done')).toHaveText(/^2 rows saved to transactions_/);
});

test('the dashboard reads in Spanish, with Spanish numbers', async ({ page }) => {
  await signInViaUi(page, demo.admin);
  const mine = await accountWithSales(page);
  await page.evaluate(() => localStorage.setItem('language', 'es'));
  await page.reload();
  await expect(page.getByRole('heading', { name: 'Inicio' })).toBeVisible();
  await expect(page.getByText('Últimos 30 días', { exact: true })).toBeVisible();
  await expect(page.getByText('Recibido en GTQ')).toBeVisible();
  await page.getByRole('combobox', { name: 'Cuenta' }).click();
  await page.getByRole('option', { name: mine.name, exact: true }).click();
  await expect(page.getByTestId('metric-receiveFiat')).toHaveText('34,60\u00a0GTQ');
  const rows = page.getByRole('table').locator('tbody tr');
  await expect(rows.nth(0)).toContainText('20,00\u00a0GTQ');
  await expect(page.getByRole('columnheader', { name: 'Fecha de creación' })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Descargar CSV' })).toBeVisible();
});
