import { type APIRequestContext, expect, test } from '@playwright/test';
import { openSignedIn, sendJson, signUpShop } from './support.ts';

const PASSWORD = 'Vigilado-2026!';
const IBAN = 'GT82TRAJ01020000001210029690';
/** For the first look after a navigation: each screen's code loads lazily, slowly on a busy machine. */
const afterNavigation = expect.configure({ timeout: 20_000 });

/** A charge on a new terminal of the organization, as its admin; the answer's status. */
async function chargeStatus(request: APIRequestContext, token: string, bptId: string): Promise<number> {
  const response = await request.post(`/api/bpts/${bptId}/invoices`, {
    data: { amount: '10' },
    headers: { authorization: `Bearer ${token}` },
  });
  return response.status();
}

test('back office finds a new organization, verifies its bank account, blocks and unblocks it, and clears its notice', async ({
  page,
  request,
}) => {
  const shop = await signUpShop(request, {
    emailPrefix: 'vigilado',
    emailDomain: 'vigilado.example',
    name: 'Vigilado',
    password: PASSWORD,
  });
  await sendJson(
    request,
    '/api/settings/banking-info',
    {
      bankingInfoMetadata: {
        bank: 'Banco Industrial',
        accountName: 'Vigilado',
        accountNumber: IBAN,
        accountType: 'checking',
        currency: 'GTQ',
      },
    },
    shop.token,
  );
  const account = await sendJson<{ id: string }>(request, '/api/accounts', { name: 'Counter' }, shop.token);
  const bpt = await sendJson<{ id: string }>(
    request,
    '/api/bpts',
    { name: 'Till', accountId: account.id, channel: 'store', currency: 'GTQ' },
    shop.token,
  );

  await openSignedIn(page, 'backoffice@rayo.local', '/back-office');
  await page.getByRole('textbox', { name: 'Search' }).fill(shop.suffix);
  const table = page.getByTestId('back-office-organizations');
  // The search applies once typing pauses: then the new organization is the only row.
  await afterNavigation(table.getByRole('row')).toHaveCount(2);
  const row = table.getByRole('row').filter({ hasText: shop.name });
  // The bank account (and so the conversion address) waits for review; nothing else was entered.
  await expect(row.getByText('2 to review')).toBeVisible();
  await expect(row.getByText('3 not entered')).toBeVisible();

  await table.getByRole('link', { name: shop.name }).click();
  await afterNavigation(page.getByRole('heading', { level: 1, name: shop.name })).toBeVisible();
  await expect(page.getByRole('tab', { name: 'Information', selected: true })).toBeVisible();
  await expect(page.getByRole('link', { name: 'Back Office' })).toHaveAttribute('aria-current', 'page');
  await expect(page.getByText(IBAN)).toBeVisible();

  const verifications = page.getByTestId('verifications');
  const bankRow = verifications.locator('[data-field="bank"]');
  await expect(bankRow.getByText('To review')).toBeVisible();
  await bankRow.getByRole('button', { name: 'Validate: Bank info' }).click();
  await page.getByRole('dialog').getByRole('button', { name: 'Confirm' }).click();
  await expect(bankRow.getByText('Verified', { exact: true })).toBeVisible();

  // Nothing uploaded: KYB is not offered for validation, and the row says why.
  const kybRow = verifications.locator('[data-field="kyb"]');
  await expect(kybRow.getByText('Not entered')).toBeVisible();
  await expect(kybRow.getByText('Nothing to verify yet')).toBeVisible();
  await expect(kybRow.getByRole('button')).toHaveCount(0);
  await page.screenshot({ path: test.info().outputPath('back-office-verifications-1280-en.png'), fullPage: true });

  expect(await chargeStatus(request, shop.token, bpt.id)).toBe(201);
  await page.getByRole('button', { name: 'Block organization' }).click();
  // Back office says what the merchant is told; nothing is blocked until it does.
  await expect(page.getByRole('dialog').getByRole('button', { name: 'Confirm' })).toBeDisabled();
  await page.getByRole('dialog').getByRole('radio', { name: 'Another reason: write to support' }).check();
  await page.getByRole('dialog').getByRole('button', { name: 'Confirm' }).click();
  await expect(page.getByTestId('blocked-banner')).toBeVisible();
  expect(await chargeStatus(request, shop.token, bpt.id)).toBe(403);
  await page.getByRole('button', { name: 'Unblock organization' }).click();
  await page.getByRole('dialog').getByRole('button', { name: 'Confirm' }).click();
  await expect(page.getByTestId('blocked-banner')).toBeHidden();
  expect(await chargeStatus(request, shop.token, bpt.id)).toBe(201);

  await page.goto('/back-office');
  await page.getByRole('tab', { name: 'Notifications' }).click();
  const notices = page.getByTestId('back-office-notifications');
  const created = notices.getByRole('row').filter({ hasText: shop.name }).filter({ hasText: 'New organization' });
  await afterNavigation(created).toHaveCount(1);
  // A deleted notice leaves at once, a message names it, and undo brings it back.
  await created.getByRole('button', { name: 'Delete' }).click();
  await expect(created).toHaveCount(0);
  const deleted = page.getByRole('alert').filter({ hasText: `Deleted the notice “New organization” of ${shop.name}.` });
  await expect(deleted).toBeVisible();
  await page.screenshot({ path: test.info().outputPath('notification-deleted-1280-en.png') });
  // The message leaves the page's title readable: its words, not the heading's full-width box.
  const title = await page.getByRole('heading', { level: 1 }).evaluate((heading) => {
    const words = document.createRange();
    words.selectNodeContents(heading);
    const { x, y, width, height } = words.getBoundingClientRect();
    return { x, y, width, height };
  });
  const message = await deleted.boundingBox();
  if (!message) throw new Error('the message is not shown');
  expect(message.x >= title.x + title.width || message.y >= title.y + title.height).toBe(true);
  await deleted.getByRole('button', { name: 'Undo' }).click();
  await expect(deleted).toBeHidden();
  await expect(created).toHaveCount(1);
  const deletedOnServer = page.waitForResponse(
    (response) => response.request().method() === 'DELETE' && response.url().includes('/api/back-office/notification/'),
  );
  await created.getByRole('button', { name: 'Delete' }).click();
  await expect(created).toHaveCount(0);
  // Once the message goes, the server deletes it: a reload does not bring it back.
  expect((await deletedOnServer).ok()).toBe(true);
  await expect(deleted).toBeHidden();
  await page.reload();
  await expect(
    notices.getByRole('row').filter({ hasText: shop.name }).filter({ hasText: 'Bank account changed' }),
  ).toHaveCount(1);
});
