import { type APIRequestContext, expect, type Page, test } from '@playwright/test';
import { tinyPdf, tinyPng } from '../../apps/server/test/upload-files.ts';
import { openSignedIn, sendJson, signUpShop } from './support.ts';

const PASSWORD = 'Marca-2026!';
/** For the first look after a navigation: each screen's code loads lazily, slowly on a busy machine. */
const afterNavigation = expect.configure({ timeout: 20_000 });

type Shop = { email: string; token: string; shareToken: string };

/** A fresh organization of its own (never the demo one other specs share), with a shareable terminal. */
async function openShop(request: APIRequestContext): Promise<Shop> {
  const { email, token } = await signUpShop(request, {
    emailPrefix: 'brand',
    emailDomain: 'marca.example',
    name: 'Marca',
    password: PASSWORD,
  });
  const account = await sendJson<{ id: string }>(request, '/api/accounts', { name: 'Counter' }, token);
  const bpt = await sendJson<{ shareToken: string }>(
    request,
    '/api/bpts',
    { name: 'Front till', accountId: account.id, currency: 'GTQ', shareable: true },
    token,
  );
  return { email, token, shareToken: bpt.shareToken };
}

const texts = {
  en: {
    branding: 'Logo and colour',
    upload: 'Upload logo',
    logo: 'Your logo',
    color: 'Accent colour',
    saveColor: 'Save colour',
    colorSaved: 'Colour saved.',
    kyb: 'KYB documents',
    uploaded: 'uploaded',
    download: 'Download',
    checkout: 'Checkout protection',
    protect: 'Protect e-commerce checkouts',
    on: 'Checkout protection is on.',
  },
  es: {
    branding: 'Logo y color',
    upload: 'Subir logo',
    logo: 'Tu logo',
    color: 'Color de acento',
    saveColor: 'Guardar color',
    colorSaved: 'Color guardado.',
    kyb: 'Documentos KYB',
    uploaded: 'subido',
    download: 'Descargar',
    checkout: 'Protección del checkout',
    protect: 'Proteger los checkouts de comercio electrónico',
    on: 'La protección del checkout está activada.',
  },
} as const;

/** Each Settings section has its own address. */
async function openSection(page: Page, section: 'branding' | 'verification' | 'developers', title: string) {
  await page.goto(`/settings/${section}`);
  await afterNavigation(page.getByRole('region', { name: title })).toBeVisible();
}

for (const language of ['en', 'es'] as const) {
  test(`an admin brands the shareable terminal, uploads a KYB document and turns on checkout protection (${language})`, async ({
    page,
    request,
  }) => {
    test.slow();
    const t = texts[language];
    const shop = await openShop(request);
    await openSignedIn(page, shop.email, '/settings/branding', { password: PASSWORD, language });
    await afterNavigation(page.getByRole('region', { name: t.branding })).toBeVisible();

    const branding = page.getByRole('region', { name: t.branding });
    await branding
      .locator('input[type=file]')
      .setInputFiles({ name: 'logo.png', mimeType: 'image/png', buffer: tinyPng([10, 125, 90], 32) });
    await expect(branding.getByRole('img', { name: t.logo })).toBeVisible();
    await branding.getByRole('textbox', { name: t.color }).fill('#0a7d5a');
    await branding.getByRole('textbox', { name: t.color }).press('Escape');
    // The picker opens below the field, over the button, and closes when one clicks away.
    await branding.getByRole('heading', { name: t.branding }).click();
    await branding.getByRole('button', { name: t.saveColor }).click();
    await expect(page.getByText(t.colorSaved)).toBeVisible();

    await openSection(page, 'verification', t.kyb);
    const kyb = page.getByRole('region', { name: t.kyb });
    await kyb
      .locator('input[type=file]')
      .setInputFiles({ name: 'escritura.pdf', mimeType: 'application/pdf', buffer: tinyPdf() });
    await expect(kyb.getByText(`escritura.pdf — ${t.uploaded}`)).toBeVisible();
    await expect(kyb.getByRole('row').filter({ hasText: 'escritura.pdf' })).toContainText(t.download);

    await openSection(page, 'developers', t.checkout);
    const checkout = page.getByRole('region', { name: t.checkout });
    await checkout.getByRole('switch', { name: t.protect }).click();
    await expect(page.getByText(t.on)).toBeVisible();
    await expect(checkout.getByRole('switch', { name: t.protect })).toBeChecked();
    await page.reload();
    await afterNavigation(page.getByRole('switch', { name: t.protect })).toBeChecked();
    await openSection(page, 'verification', t.kyb);
    await expect(page.getByRole('region', { name: t.kyb }).getByRole('row', { name: /escritura\.pdf/ })).toBeVisible();

    await page.goto(`/bpts/${shop.shareToken}`);
    const logo = page.getByTestId('terminal-logo');
    await afterNavigation(logo).toBeVisible();
    // The image really loaded from its public address, past the page's Content-Security-Policy.
    await expect.poll(() => logo.evaluate((img: HTMLImageElement) => img.naturalWidth)).toBe(32);
    await expect(page.getByTestId('terminal-panel')).toHaveCSS('border-top-color', 'rgb(10, 125, 90)');
  });
}

test('a manager sees the logo, colour and checkout protection read-only, and no KYB documents', async ({
  page,
  request,
}) => {
  const shop = await openShop(request);
  const colour = await request.put('/api/settings/branding', {
    data: { accentColor: '#0a7d5a' },
    headers: { authorization: `Bearer ${shop.token}` },
  });
  expect(colour.ok()).toBe(true);
  const manager = `manager-${Date.now().toString(36)}@marca.example`;
  await sendJson(
    request,
    '/api/managers',
    { name: 'Marta Manager', email: manager, password: PASSWORD, accountIds: [] },
    shop.token,
  );
  await openSignedIn(page, manager, '/settings/branding', { password: PASSWORD, language: 'en' });
  const branding = page.getByRole('region', { name: 'Logo and colour' });
  await afterNavigation(branding).toBeVisible();
  await expect(branding.getByText('Only an administrator can change the logo and colour.')).toBeVisible();
  await expect(branding.getByText('#0a7d5a')).toBeVisible();
  await expect(branding.getByRole('button', { name: 'Upload logo' })).toHaveCount(0);
  await expect(branding.getByRole('button', { name: 'Save colour' })).toHaveCount(0);
  await openSection(page, 'verification', 'KYB documents');
  const kyb = page.getByRole('region', { name: 'KYB documents' });
  await expect(kyb.getByText('Only an administrator can see and upload KYB documents.')).toBeVisible();
  await expect(kyb.getByRole('button')).toHaveCount(0);
  await openSection(page, 'developers', 'Checkout protection');
  const checkout = page.getByRole('region', { name: 'Checkout protection' });
  await expect(checkout.getByRole('switch', { name: 'Protect e-commerce checkouts' })).toBeDisabled();
  await expect(checkout.getByText('Only an administrator can change checkout protection.')).toBeVisible();
});
