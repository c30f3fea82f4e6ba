import { readFile } from 'node:fs/promises';
import { expect, type Page, test } from '@playwright/test';
import { apiAs, demo, openSignedIn, paidSale } from './support.ts';

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

/** Whole sats, rounded down, as every sats figure is shown. */
function satsText(msat: number, locale: string) {
  return `${new Intl.NumberFormat(locale).format(Math.floor(msat / 1000))} sats`;
}

async function chooseAccount(page: Page, name: string) {
  await page.getByRole('combobox', { name: 'Account' }).selectOption({ label: name });
}

test('periods and accounts change the metrics and the table to the API’s figures', async ({ page }) => {
  await openSignedIn(page, demo.admin);
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
  await openSignedIn(page, demo.admin);
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

test('the dashboard reads in Spanish, with numbers as Guatemala writes them', async ({ page }) => {
  await openSignedIn(page, demo.admin);
  const mine = await accountWithSales(page);
  await page.evaluate(() => localStorage.setItem('language', 'es'));
  await page.reload();
  await expect(page.getByRole('heading', { name: 'Inicio' })).toBeVisible();
  await expect(page.getByText('Últimos 30 días', { exact: true })).toBeVisible();
  await expect(page.getByText('Recibido en GTQ')).toBeVisible();
  await page.getByRole('combobox', { name: 'Cuenta' }).selectOption({ label: mine.name });
  // The demo organization is in Guatemala, which writes Spanish numbers like English ones (es-GT),
  // and money names its currency by code in both languages.
  await expect(page.getByTestId('metric-receiveFiat')).toHaveText('GTQ\u00a034.60');
  const rows = page.getByRole('table').locator('tbody tr');
  await expect(rows.nth(0)).toContainText('GTQ\u00a020.00');
  await expect(page.getByRole('columnheader', { name: 'Fecha de liquidación' })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Descargar CSV' })).toBeVisible();
});

/** An amount in quetzales as the English screen writes it: "GTQ 1,234.50", never rounding a decimal away. */
function gtqText(decimal: string) {
  const decimals = Math.max(2, decimal.split('.')[1]?.length ?? 0);
  const format = new Intl.NumberFormat('en', {
    style: 'currency',
    currency: 'GTQ',
    minimumFractionDigits: decimals,
    maximumFractionDigits: decimals,
  });
  return format.format(decimal as Intl.StringNumericLiteral);
}

/**
 * Days `first` to `last` of the month before Guatemala's current one: always past, always in the
 * demo's year of sales. `start` and `end` are Guatemala's midnights before the first day and after
 * the last one; the labels are the ones the date picker gives its month and its days in English.
 */
function daysOfLastMonth(first: number, last: number) {
  const today = new Date((guatemalaToday().start - GUATEMALA_OFFSET) * 1000);
  const month = new Date(Date.UTC(today.getUTCFullYear(), today.getUTCMonth() - 1, 1));
  const midnight = (day: number) =>
    Date.UTC(month.getUTCFullYear(), month.getUTCMonth(), day) / 1000 + GUATEMALA_OFFSET;
  const monthName = month.toLocaleString('en', { month: 'long', timeZone: 'UTC' });
  return {
    index: month.getUTCFullYear() * 12 + month.getUTCMonth(),
    heading: `${monthName} ${month.getUTCFullYear()}`,
    dayLabel: (day: number) => `${day} ${monthName} ${month.getUTCFullYear()}`,
    start: midnight(first),
    end: midnight(last + 1),
  };
}

function periodRequest(page: Page, pathname: string) {
  return page.waitForRequest((request) => {
    const url = new URL(request.url());
    return url.pathname === pathname && url.searchParams.has('start');
  });
}

function periodSent(url: string) {
  const params = new URL(url).searchParams;
  return { start: Number(params.get('start')), end: Number(params.get('end')) };
}

test.describe('from a browser in Tokyo', () => {
  // Far from Guatemala, so the range can only be right if its days are Guatemala's days.
  test.use({ timezoneId: 'Asia/Tokyo' });

  test('a custom range of past days shows the API’s figures for those days in Guatemala', async ({ page }) => {
    // Today's figures are asked for first, so that the requests awaited below can only be the range's.
    const todaySums = periodRequest(page, '/api/dashboard/transactions/sum');
    const todayPage = periodRequest(page, '/api/dashboard/transactions');
    await openSignedIn(page, demo.admin);
    await Promise.all([todaySums, todayPage]);
    const days = daysOfLastMonth(10, 12);

    await page.getByText('Custom range', { exact: true }).click();
    await page.getByRole('button', { name: 'Dates' }).click();
    const calendar = page.getByRole('dialog');
    // The picker opens on the browser's month; step back to the chosen one as a user would.
    const shown = await page.evaluate(() => new Date().getFullYear() * 12 + new Date().getMonth());
    const previous = calendar.getByRole('button', { name: 'Previous month' });
    for (let step = shown; step > days.index; step -= 1) await previous.click();
    await expect(calendar.getByRole('button', { name: days.heading, exact: true })).toBeVisible();

    await calendar.getByRole('button', { name: days.dayLabel(10), exact: true }).click();
    const sumsSent = periodRequest(page, '/api/dashboard/transactions/sum');
    const pageSent = periodRequest(page, '/api/dashboard/transactions');
    await calendar.getByRole('button', { name: days.dayLabel(12), exact: true }).click();

    // The page asks for Guatemala's midnight before the 10th up to its midnight after the 12th.
    const period = { start: days.start, end: days.end };
    expect(periodSent((await sumsSent).url())).toEqual(period);
    expect(periodSent((await pageSent).url())).toEqual(period);

    // The same period asked of the API directly: demo sales, more than one page of them.
    const query = `start=${days.start}&end=${days.end}`;
    const sums = await apiAs<Sums>(page, 'GET', `/api/dashboard/transactions/sum?${query}`);
    const first = await apiAs<TransactionPage>(page, 'GET', `/api/dashboard/transactions?${query}&page=1&limit=10`);
    expect(sums.receiveMsat).toBeGreaterThan(0);
    expect(first.total).toBeGreaterThan(10);

    await expect(page.getByTestId('metric-receiveMsat')).toHaveText(satsText(sums.receiveMsat, 'en'));
    await expect(page.getByTestId('metric-msatsToDisburse')).toHaveText(satsText(sums.msatsToDisburse, 'en'));
    await expect(page.getByTestId('metric-receiveFiat')).toHaveText(gtqText(sums.receiveFiat));
    await expect(page.getByTestId('metric-fiatToDisburse')).toHaveText(gtqText(sums.fiatToDisburse));

    const table = page.getByRole('table');
    await expect(table).toHaveAttribute('data-total', String(first.total));
    await expect(page.getByText(`1–10 of ${first.total.toLocaleString('en')}`, { exact: true })).toBeVisible();
    const rows = table.locator('tbody tr');
    await expect(rows).toHaveCount(first.transactions.length);
    for (const [index, transaction] of first.transactions.entries()) {
      const id = transaction.transactionId;
      await expect(rows.nth(index)).toContainText(`${id.slice(0, 6)}…${id.slice(-6)}`);
      await expect(rows.nth(index)).toContainText(gtqText(transaction.billAmount));
    }
  });
});

test('opening home signed in asks for each thing once, the organization from the page’s head', async ({ page }) => {
  await openSignedIn(page, demo.admin);
  await expect(page.getByTestId('metric-receiveMsat')).toBeVisible();
  // Only the reloaded page's calls count, not the late ones of the page before it.
  let reloaded = false;
  page.on('framenavigated', (frame) => {
    if (frame === page.mainFrame()) reloaded = true;
  });
  const calls: string[] = [];
  page.on('request', (request) => {
    if (!reloaded) return;
    const { pathname } = new URL(request.url());
    if (pathname.startsWith('/api/organization/') || pathname.startsWith('/api/dashboard/')) calls.push(pathname);
  });
  const series = page.waitForResponse((response) => reloaded && new URL(response.url()).pathname.endsWith('/series'));
  await page.reload();
  await expect(page.getByTestId('metric-receiveMsat')).toBeVisible();
  // The table and the charts load after the cards; the table wants the first page the CSV button asked for.
  await expect(page.getByRole('table')).toHaveAttribute('data-total', /^\d+$/);
  await series;
  // The head's script left its request for the app, which took it instead of asking again.
  expect(await page.evaluate(() => Object.keys(Reflect.get(window, 'rayoEarlyRequests') ?? { missing: true }))).toEqual(
    [],
  );
  expect(calls.sort()).toEqual([
    '/api/dashboard/transactions',
    '/api/dashboard/transactions/series',
    '/api/dashboard/transactions/sum',
    '/api/organization/current',
  ]);
});

test('back office exports an organization with the merchant CSV’s columns and rows, times on its clock', async ({
  page,
}) => {
  test.slow();
  // The super admin belongs to Demo Café and also sees the back office.
  await openSignedIn(page, demo.superAdmin);
  const mine = await accountWithSales(page);
  const organization = await apiAs<{ id: string }>(page, 'GET', '/api/organization/current');
  const read = async (click: () => Promise<void>) => {
    const downloading = page.waitForEvent('download');
    await click();
    const download = await downloading;
    const lines = (await readFile((await download.path()) as string, 'utf8')).trim().split('\r\n');
    return { name: download.suggestedFilename(), header: lines[0], lines };
  };
  const ofMine = (lines: string[]) =>
    mine.sales.map((sale) => lines.find((line) => line.includes(`,${sale.paymentHash},`)));

  await page.reload();
  await chooseAccount(page, mine.name);
  await page.getByText('This Month', { exact: true }).click();
  await expect(page.getByRole('table').locator('tbody tr')).toHaveCount(2);
  const merchant = await read(() => page.getByRole('button', { name: 'Download CSV' }).click());

  await page.goto(`/back-office/${organization.id}/transactions`);
  const backOffice = await read(() => page.getByRole('button', { name: 'Export' }).click());

  // One column list, the dates on Guatemala's clock, which the header names.
  expect(backOffice.header).toBe(merchant.header);
  expect(merchant.header?.split(',').slice(0, 4)).toEqual([
    'Date created (America/Guatemala)',
    'Date settled (America/Guatemala)',
    'Account id',
    'Account name',
  ]);
  expect(ofMine(backOffice.lines)).toEqual(ofMine(merchant.lines));
  for (const line of ofMine(merchant.lines)) {
    expect(line).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}-06:00,/);
    expect(line).toContain(`,${mine.name},`);
  }
  expect(backOffice.name).toMatch(/^transactions_demo-cafe_all_\d{4}-\d\d-\d\d\.csv$/);
});
