import { readFile } from 'node:fs/promises';
import { expect, type Page, test } from '@playwright/test';
import { apiAs, demo, openSignedIn, paidSale } from './support.ts';

type Bpt = { id: string; name: string; accountName: string };

async function shot(page: Page, name: string): Promise<void> {
  await page.screenshot({ path: `test-results/close-${name}.png`, fullPage: true });
}

// Issue 30: the end-of-day close of one terminal, on screen, as CSV and PDF, with a mailed schedule.
test('an admin reads the close of a terminal for today, downloads it and schedules it', async ({ page }) => {
  await page.setViewportSize({ width: 1280, height: 900 });
  await openSignedIn(page, demo.admin);
  const bpts = await apiAs<Bpt[]>(page, 'GET', '/api/bpts');
  const bpt = bpts.find((row) => row.accountName === 'Main counter') ?? bpts[0];
  if (!bpt) throw new Error('The demo has no terminal');
  const sale = await paidSale(page, bpt.id, { amount: '12.50' });
  await expect
    .poll(async () => (await page.request.get(`/api/invoices/${sale.id}`)).json().then((body) => body.status))
    .toBe('settled');

  await page.goto('/');
  await page.getByRole('link', { name: 'End-of-day close' }).click();
  await expect(page).toHaveURL(/\/close$/);
  await expect(page.getByRole('heading', { name: 'End-of-day close', level: 1 })).toBeVisible();
  await page.getByLabel('Terminal').selectOption({ label: bpt.name });
  await expect(page.getByRole('cell', { name: bpt.name })).toBeVisible();
  await expect(page.getByRole('heading', { name: 'By payment method' })).toBeVisible();
  await expect(page.getByRole('heading', { name: 'By hour' })).toBeVisible();
  await shot(page, '1280-en');

  const csv = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Download CSV' }).click();
  const csvText = await readFile((await (await csv).path()) ?? '', 'utf8');
  expect(csvText).toContain(bpt.name);
  const pdf = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Download PDF' }).click();
  const pdfBytes = await readFile((await (await pdf).path()) ?? '');
  expect(pdfBytes.subarray(0, 5).toString()).toBe('%PDF-');

  await page.getByLabel('Closing time').fill('18:30');
  await page.getByRole('button', { name: 'Create' }).click();
  await expect(page.getByText(/at 18:30, to admin@rayo\.local/)).toBeVisible();

  await page.setViewportSize({ width: 390, height: 844 });
  await shot(page, '390-en');

  await page.evaluate(() => localStorage.setItem('language', 'es'));
  await page.reload();
  await expect(page.getByRole('heading', { name: 'Corte de caja', level: 1 })).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Por hora' })).toBeVisible();
  await shot(page, '390-es');
  await page.setViewportSize({ width: 1280, height: 900 });
  await shot(page, '1280-es');
});
