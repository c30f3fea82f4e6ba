import { type APIRequestContext, expect, type Page, test } from '@playwright/test';
import { openSignedIn, paidSale, sendJson, signUpShop, writeOrganization } from './support.ts';

const PASSWORD = 'Reparto-2026!';
/** The fields back office verifies, as the columns of their verdicts are named. */
const VERIFIED_COLUMNS = ['bank', 'crypto', 'disbursement_address', 'conversion_address', 'kyb'];
/** For the first look after a navigation: each screen's code loads lazily, slowly on a busy machine. */
const afterNavigation = expect.configure({ timeout: 20_000 });

type Shop = { email: string; organizationId: string; bptId: string; token: string };

/** A fresh organization of its own (never the demo one other specs share), with a GTQ terminal. */
async function openShop(request: APIRequestContext): Promise<Shop> {
  const { email, organizationId, token } = await signUpShop(request, {
    emailPrefix: 'split',
    emailDomain: 'reparto.example',
    name: 'Reparto',
    password: PASSWORD,
  });
  const account = await sendJson<{ id: string }>(request, '/api/accounts', { name: 'Counter' }, token);
  const bpt = await sendJson<{ id: string }>(
    request,
    '/api/bpts',
    { name: 'Till', accountId: account.id, currency: 'GTQ' },
    token,
  );
  return { email, organizationId, bptId: bpt.id, token };
}

/**
 * Back office's verdict on every field of the organization, written where back office will write
 * it: the screens that verify fields come later, so the test sets the flags in the database.
 */
async function verifyEverything(organizationId: string): Promise<void> {
  await verifyOnly(organizationId, VERIFIED_COLUMNS);
}

const texts = {
  en: {
    section: 'Payment split',
    conversion: 'Fiat conversion',
    fiat: 'Fiat (GTQ, bank)',
    lightning: 'Lightning',
    save: 'Save split',
    refusal: 'Your information needs to be validated by our team before you can change the payment split',
    notEntered: 'not entered yet: fill it in above',
    allVerified: 'Our team has verified what this split relies on.',
    saved: 'Payment split saved. It applies to the sales paid from now on.',
    home: 'Home',
    fiatIncome: 'GTQ\u00a049.00',
    conversionFee: '67 sats',
  },
  es: {
    section: 'División de pagos',
    conversion: 'Conversión a moneda fiat',
    fiat: 'Fiat (GTQ, banco)',
    lightning: 'Lightning',
    save: 'Guardar división',
    refusal: 'Nuestro equipo debe validar tu información antes de que puedas cambiar la división de pagos',
    notEntered: 'aún no ingresado: complétalo arriba',
    allVerified: 'Nuestro equipo verificó lo que necesita esta división.',
    saved: 'División de pagos guardada. Se aplica a las ventas pagadas desde ahora.',
    home: 'Inicio',
    // Numbers follow the organization's country: Spanish in Guatemala writes GTQ 49.00.
    fiatIncome: 'GTQ\u00a049.00',
    conversionFee: '67 sats',
  },
} as const;

async function openSettings(page: Page, language: 'en' | 'es') {
  await page.evaluate((lang) => {
    localStorage.setItem('language', lang);
    // The dashboard's table shows the fiat income and conversion fee columns too.
    localStorage.setItem(
      'dashboard.columns',
      JSON.stringify(['createdAt', 'transactionId', 'billAmount', 'fiatIncome', 'conversionFeeMsat']),
    );
  }, language);
  await page.goto('/settings/payouts');
  const section = page.getByRole('region', { name: texts[language].section });
  await afterNavigation(section.getByRole('textbox').first()).toBeVisible();
  return section;
}

for (const language of ['en', 'es'] as const) {
  test(`an admin is refused a split until verified, then a 50 % fiat sale shows its conversion fee and fiat income (${language})`, async ({
    page,
    request,
  }) => {
    // Sign-up by mail, onboarding, two visits to Settings, a sale and the dashboard: well over
    // a minute when the machine is busy.
    test.setTimeout(180_000);
    const t = texts[language];
    const shop = await openShop(request);
    await openSignedIn(page, shop.email, '/', { password: PASSWORD });
    let section = await openSettings(page, language);

    // All Lightning, as every organization starts: the Lightning address and KYB, neither entered.
    await expect(section.getByText(t.notEntered)).toHaveCount(2);
    await section.getByRole('switch', { name: t.conversion }).check();
    await section.getByRole('textbox', { name: t.fiat }).fill('50');
    await section.getByRole('textbox', { name: t.lightning }).fill('50');
    await section.getByRole('button', { name: t.save }).click();
    await expect(section.getByRole('alert')).toHaveText(t.refusal);

    await verifyEverything(shop.organizationId);
    await page.reload();
    section = page.getByRole('region', { name: t.section });
    await afterNavigation(section.getByText(t.allVerified)).toBeVisible();
    await section.getByRole('switch', { name: t.conversion }).check();
    await section.getByRole('textbox', { name: t.fiat }).fill('50');
    await section.getByRole('textbox', { name: t.lightning }).fill('50');
    await section.getByRole('button', { name: t.save }).click();
    await expect(page.getByText(t.saved)).toBeVisible();
    await expect(section.getByRole('textbox', { name: t.fiat })).toHaveValue('50 %');

    // Q100.00 at the devnet's Q730,000 per bitcoin: 13,699 sats; 1 % fee, then half converted at 1 %.
    const sale = await paidSale(page, shop.bptId, { amount: '100.00' });
    await page.goto('/');
    await afterNavigation(page.getByRole('heading', { name: t.home })).toBeVisible();
    await afterNavigation(page.getByTestId('metric-fiatToDisburse')).toHaveText(t.fiatIncome);
    const row = page
      .getByRole('table')
      .locator('tbody tr')
      .filter({ hasText: sale.paymentHash.slice(-6) });
    await expect(row).toContainText(t.fiatIncome);
    await expect(row).toContainText(t.conversionFee);
  });
}

/** Sets back office's verdict on the named fields only, the rest not verified. */
async function verifyOnly(organizationId: string, columns: readonly string[]): Promise<void> {
  await writeOrganization(
    organizationId,
    Object.fromEntries(VERIFIED_COLUMNS.map((name) => [`${name}_verified`, columns.includes(name)])),
  );
}

// Issue 26: a fiat-only merchant needed the on-chain and Lightning addresses verified too.
test('a split all in fiat needs only the bank account and KYB verified', async ({ page, request }, testInfo) => {
  test.setTimeout(180_000);
  const shop = await openShop(request);
  await sendJson(
    request,
    '/api/settings/banking-info',
    {
      bankingInfoMetadata: {
        bank: 'Banco Industrial',
        accountName: 'Reparto',
        accountNumber: 'GT82TRAJ01020000001210029690',
        accountType: 'checking',
        currency: 'GTQ',
      },
    },
    shop.token,
  );
  await openSignedIn(page, shop.email, '/', { password: PASSWORD });
  let section = await openSettings(page, 'en');
  const list = section.getByTestId('split-verifications');
  await section.getByRole('switch', { name: 'Fiat conversion' }).check();
  await section.getByRole('textbox', { name: 'Fiat (GTQ, bank)' }).fill('100');
  await section.getByRole('textbox', { name: 'Lightning' }).fill('0');
  // Entered and waiting for the team, apart from what is not entered at all.
  await expect(list).toContainText("Bank account — entered, waiting for our team's review");
  await expect(list).toContainText('KYB documents — not entered yet: fill it in above');
  await expect(list).not.toContainText('Lightning');
  for (const width of [1280, 390]) {
    await page.setViewportSize({ width, height: 900 });
    await list.screenshot({ path: testInfo.outputPath(`split-fiat-only-${width}-en.png`) });
  }

  await verifyOnly(shop.organizationId, ['bank', 'conversion_address', 'kyb']);
  await page.reload();
  section = page.getByRole('region', { name: 'Payment split' });
  await afterNavigation(section.getByRole('switch', { name: 'Fiat conversion' })).toBeVisible();
  await section.getByRole('switch', { name: 'Fiat conversion' }).check();
  await section.getByRole('textbox', { name: 'Fiat (GTQ, bank)' }).fill('100');
  await section.getByRole('textbox', { name: 'Lightning' }).fill('0');
  await expect(section.getByText('Our team has verified what this split relies on.')).toBeVisible();
  await section.getByRole('button', { name: 'Save split' }).click();
  await expect(page.getByText('Payment split saved. It applies to the sales paid from now on.')).toBeVisible();
  await expect(section.getByRole('textbox', { name: 'Fiat (GTQ, bank)' })).toHaveValue('100 %');
  await page.evaluate(() => localStorage.setItem('language', 'es'));
  await page.reload();
  const seccion = page.getByRole('region', { name: 'División de pagos' });
  await afterNavigation(seccion.getByText('Nuestro equipo verificó lo que necesita esta división.')).toBeVisible();
  for (const width of [390, 1280]) {
    await page.setViewportSize({ width, height: 900 });
    await seccion.screenshot({ path: testInfo.outputPath(`split-fiat-only-${width}-es.png`) });
  }
});

test('a manager sees the split read-only', async ({ page, request }) => {
  const shop = await openShop(request);
  await verifyEverything(shop.organizationId);
  const manager = `manager-${Date.now().toString(36)}@reparto.example`;
  await sendJson(
    request,
    '/api/managers',
    { name: 'Mora Manager', email: manager, password: PASSWORD, accountIds: [] },
    shop.token,
  );
  await openSignedIn(page, manager, '/', { password: PASSWORD });
  const section = await openSettings(page, 'en');
  await expect(section.getByText('Only an administrator can change the payment split.')).toBeVisible();
  await expect(section.getByRole('button', { name: 'Save split' })).toHaveCount(0);
  await expect(section.getByRole('switch', { name: 'Fiat conversion' })).toBeDisabled();
  await expect(section.getByRole('textbox', { name: 'Lightning' })).toHaveValue('100 %');
  await expect(section.getByRole('textbox', { name: 'Lightning' })).toHaveAttribute('readonly');
});
