import { type APIRequestContext, type Browser, expect, type Page, test } from '@playwright/test';
import { demo, openSignedIn, sendJson, signUpShop, writeOrganization } from './support.ts';

const PASSWORD = 'Orilla-2026!';
const DESKTOP = { width: 1280, height: 900 };
const PHONE = { width: 390, height: 844 };
/** For the first look after a navigation: each screen's code loads lazily, slowly on a busy machine. */
const afterNavigation = expect.configure({ timeout: 30_000 });
/** Where the shop is paid: an address of someone else's regtest wallet. */
const SHOP_ADDRESS = 'bcrt1qnjg0jd8228aq7egyzacy8cys3knf9xvr3v5hfj';

// Back office runs the payouts of every organization: one journey at a time.
test.describe.configure({ mode: 'serial', timeout: 240_000 });

type Shop = { email: string; name: string; organizationId: string; token: string; bptId: string };

/**
 * A fresh organization of its own paid out all on-chain. Its address and split are written where
 * Settings and back office's verification would write them (as settings-split.spec does), since
 * the split waits for back office's checks, which other journeys cover.
 */
async function openShop(request: APIRequestContext, language: 'en' | 'es'): Promise<Shop> {
  const { email, name, organizationId, token } = await signUpShop(request, {
    emailPrefix: 'orilla',
    emailDomain: 'orilla.example',
    name: 'Orilla',
    password: PASSWORD,
    language,
  });
  const account = await sendJson<{ id: string }>(request, '/api/accounts', { name: 'Counter' }, token);
  const bpt = await sendJson<{ id: string }>(
    request,
    '/api/bpts',
    { name: 'Till', accountId: account.id, currency: 'GTQ' },
    token,
  );
  await writeOrganization(organizationId, {
    onchain_address: SHOP_ADDRESS,
    crypto_verified: true,
    payout_fiat_bps: 0,
    payout_onchain_bps: 10_000,
    payout_lightning_bps: 0,
  });
  return { email, name, organizationId, token, bptId: bpt.id };
}

/**
 * A Q5,000.00 sale paid by Lightning from the devnet wallet: about 680,000 sats owed on-chain, far
 * more than the other journeys' checkout payments put in the platform wallet.
 */
async function sell(request: APIRequestContext, shop: Shop): Promise<void> {
  const invoice = await sendJson<{ paymentRequest: string }>(
    request,
    `/api/bpts/${shop.bptId}/invoices`,
    { amount: '5000.00' },
    shop.token,
  );
  await sendJson(request, '/api/devnet/pay', { paymentRequest: invoice.paymentRequest });
  await expect
    .poll(async () => {
      const response = await request.get('/api/settings/payouts', {
        headers: { authorization: `Bearer ${shop.token}` },
      });
      return ((await response.json()) as { onchainWaiting: { owedSats: number } | null }).onchainWaiting?.owedSats;
    })
    .toBeGreaterThan(600_000);
}

const texts = {
  en: {
    tab: 'On-chain payouts',
    run: 'Run the payouts now',
    waitsForFunds: 'The wallet cannot cover it',
    short: 'The wallet cannot cover every payout',
    firstAddress: 'Get a deposit address',
    newAddress: 'New address',
    notifications: 'Notifications',
    notice: 'On-chain payout waits for funds',
    payouts: 'Payouts',
    waitingTitle: /wait to be paid on-chain/,
    waitingReason: "The platform's wallet cannot cover this payout yet.",
    walletAddress: 'Bitcoin address',
    walletSats: 'Amount in sats',
    send: 'Send',
    mine: 'Mine block',
    broadcast: 'Broadcast',
    sent: 'Sent',
    raiseFee: 'Raise fee',
    raiseTitle: 'Raise the network fee',
    newRate: /New fee rate/,
    replace: 'Replace the transaction',
    replaces: 'Replaces 1 earlier transaction',
  },
  es: {
    tab: 'Pagos on-chain',
    run: 'Ejecutar los pagos ahora',
    waitsForFunds: 'La billetera no lo cubre',
    short: 'La billetera no cubre todos los pagos',
    firstAddress: 'Obtener una dirección de depósito',
    newAddress: 'Nueva dirección',
    notifications: 'Notificaciones',
    notice: 'Pago on-chain a la espera de fondos',
    payouts: 'Pagos al comercio',
    waitingTitle: /esperan pagarse on-chain/,
    waitingReason: 'La billetera de la plataforma aún no cubre este pago.',
    walletAddress: 'Dirección de Bitcoin',
    walletSats: 'Monto en sats',
    send: 'Enviar',
    mine: 'Minar bloque',
    broadcast: 'Transmitido',
    sent: 'Enviado',
    raiseFee: 'Subir comisión',
    raiseTitle: 'Subir la comisión de red',
    newRate: /Nueva tasa de comisión/,
    replace: 'Reemplazar la transacción',
    replaces: 'Reemplaza 1 transacción anterior',
  },
} as const;

type Words = (typeof texts)[keyof typeof texts];

/** A page at `path` in `language`, signed in as `email`. */
async function signedIn(
  browser: Browser,
  email: string,
  path: string,
  options: { language: 'en' | 'es'; password?: string },
): Promise<Page> {
  const context = await browser.newContext({ viewport: DESKTOP });
  const page = await context.newPage();
  await openSignedIn(page, email, path, options);
  return page;
}

async function onchainTabShown(page: Page, words: Words) {
  await afterNavigation(page.getByRole('tab', { name: words.tab, selected: true })).toBeVisible();
  await afterNavigation(page.getByTestId('wallet-owed')).toBeVisible();
}

async function runPayouts(page: Page, words: Words) {
  const ran = page.waitForResponse('**/api/back-office/onchain-wallet/run');
  await page.getByRole('button', { name: words.run }).click();
  expect((await ran).status()).toBe(200);
}

async function shoot(page: Page, name: string) {
  for (const viewport of [DESKTOP, PHONE]) {
    await page.setViewportSize(viewport);
    // The layout changes with the width (the sidebar becomes a top menu) a render later.
    await expect
      .soft(async () =>
        expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(viewport.width),
      )
      .toPass();
    await page.screenshot({ path: test.info().outputPath(`${name}-${viewport.width}.png`), fullPage: true });
  }
  await page.setViewportSize(DESKTOP);
}

for (const language of ['en', 'es'] as const) {
  const words = texts[language];

  test(`back office sees what waits for the platform wallet, funds it at a deposit address and pays the shop (${language})`, async ({
    browser,
    request,
  }) => {
    const shop = await openShop(request, language);
    await sell(request, shop);

    // The wallet cannot cover the shop: it waits, back office is told, and the merchant reads why.
    const office = await signedIn(browser, demo.backOffice, '/back-office/onchain', { language });
    await onchainTabShown(office, words);
    await runPayouts(office, words);
    const row = office.getByTestId('onchain-waiting').getByRole('row').filter({ hasText: shop.name });
    await expect(row).toContainText(words.waitsForFunds);
    await expect(office.getByText(words.short)).toBeVisible();
    await shoot(office, `onchain-wallet-waiting-${language}`);

    await office.getByRole('tab', { name: words.notifications }).click();
    const notice = office
      .getByTestId('back-office-notifications')
      .getByRole('row')
      .filter({ hasText: shop.name })
      .filter({ hasText: words.notice });
    await afterNavigation(notice).toBeVisible();

    const merchant = await signedIn(browser, shop.email, '/settings/payouts', { language, password: PASSWORD });
    const waiting = merchant.getByTestId('onchain-waiting');
    await afterNavigation(waiting).toBeVisible();
    await expect(waiting).toContainText(words.waitingTitle);
    await expect(waiting).toContainText(words.waitingReason);
    await waiting.scrollIntoViewIfNeeded();
    for (const viewport of [DESKTOP, PHONE]) {
      await merchant.setViewportSize(viewport);
      const section = merchant.getByRole('region', { name: words.payouts, exact: true });
      await section.screenshot({ path: test.info().outputPath(`payouts-waiting-${language}-${viewport.width}.png`) });
    }

    // Back office funds the wallet from the devnet wallet, as a deposit from outside, and it is mined.
    await office.getByRole('tab', { name: words.tab }).click();
    const addressButton = office.getByRole('button', { name: new RegExp(`${words.firstAddress}|${words.newAddress}`) });
    await afterNavigation(addressButton).toBeVisible();
    await addressButton.click();
    const depositAddress = office.getByTestId('deposit-address-value');
    await expect(depositAddress).toHaveText(/^bcrt1q[0-9a-z]+$/);
    const address = ((await depositAddress.textContent()) ?? '').trim();
    const walletPage = await browser.newContext({ viewport: DESKTOP }).then((context) => context.newPage());
    await walletPage.addInitScript((lang) => localStorage.setItem('language', lang), language);
    await walletPage.goto('/devnet/wallet');
    await afterNavigation(walletPage.getByTestId('devnet-chain-height')).toBeVisible();
    await walletPage.getByRole('textbox', { name: words.walletAddress }).fill(address);
    await walletPage.getByRole('textbox', { name: words.walletSats }).fill('1000000');
    const sent = walletPage.waitForResponse('**/api/devnet/send-onchain');
    await walletPage.getByRole('button', { name: words.send, exact: true }).click();
    expect((await sent).status()).toBe(200);
    const mined = walletPage.waitForResponse('**/api/devnet/mine');
    await walletPage.getByRole('button', { name: words.mine }).click();
    expect((await mined).status()).toBe(200);

    // The next run pays the shop; the batch is on the chain and the merchant sees the payout sent.
    await runPayouts(office, words);
    await expect(office.getByTestId('onchain-waiting').getByRole('row').filter({ hasText: shop.name })).toHaveCount(0);
    await expect(office.getByTestId('onchain-batches').getByText(words.broadcast).first()).toBeVisible();
    await shoot(office, `onchain-wallet-paid-${language}`);

    // No block has the batch yet: back office raises its fee, and a replacement takes its place.
    const batchRow = office.getByTestId('onchain-batches').getByRole('row').nth(1);
    await batchRow.getByRole('button', { name: words.raiseFee }).click();
    const dialog = office.getByRole('dialog', { name: words.raiseTitle });
    await dialog.getByRole('textbox', { name: words.newRate }).fill('20');
    for (const viewport of [DESKTOP, PHONE]) {
      await office.setViewportSize(viewport);
      await dialog.screenshot({ path: test.info().outputPath(`raise-fee-${language}-${viewport.width}.png`) });
    }
    await office.setViewportSize(DESKTOP);
    const bumped = office.waitForResponse((r) => r.url().endsWith('/bump'));
    await dialog.getByRole('button', { name: words.replace }).click();
    expect((await bumped).status()).toBe(200);
    // The other language's journey left its own replaced batch further down the list.
    await expect(batchRow).toContainText(words.replaces);
    await shoot(office, `onchain-batch-replaced-${language}`);
    await merchant.reload();
    await afterNavigation(merchant.getByTestId('payouts-table')).toContainText(words.sent);
    await expect(merchant.getByTestId('onchain-waiting')).toHaveCount(0);
  });
}
