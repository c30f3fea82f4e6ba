import { type APIRequestContext, type Browser, expect, type Page, test } from '@playwright/test';
import { expectAccessible } from './axe.ts';
import { openSignedIn, payOnDevnetWallet, sendJson, signUpShop } from './support.ts';

const PASSWORD = 'Cadena-2026!';
const PHONE = { width: 390, height: 844 };
const DESKTOP = { width: 1280, height: 900 };
/** The chain watch looks every 2 s on devnet; a loaded machine adds its own delay. */
const onChain = expect.configure({ timeout: 30_000 });

// Both languages mine the one devnet chain: side by side, each would see the other's blocks.
test.describe.configure({ mode: 'serial' });
// Sign-up, a wallet page and four blocks, each awaited on the page, on a machine shared by others.
test.setTimeout(300_000);

type StoreCheckout = { id: string; url: string; status: string };

type Store = { email: string; admin: string; server: string; virtualBptId: string };

/**
 * A fresh shop selling through a virtual BPT: its admin, and its store server's access token,
 * exchanged from a developer token, as a store's backend does.
 */
async function openStore(request: APIRequestContext, language: 'en' | 'es'): Promise<Store> {
  const { email, token: admin } = await signUpShop(request, {
    emailPrefix: 'chain',
    emailDomain: 'cadena.example',
    name: 'Tienda',
    password: PASSWORD,
    language,
  });
  const account = await sendJson<{ id: string }>(request, '/api/accounts', { name: 'Online' }, admin);
  const bpt = await sendJson<{ id: string }>(
    request,
    '/api/bpts',
    { name: 'Till', accountId: account.id, currency: 'GTQ' },
    admin,
  );
  const vbpt = await sendJson<{ id: string }>(request, '/api/virtual-bpts', { name: 'Web shop', bptId: bpt.id }, admin);
  // Signing in takes the user's language, so the merchant's screens follow it.
  await sendJson(request, '/api/settings/language', { language }, admin, 'PUT');
  const { token } = await sendJson<{ token: string }>(
    request,
    '/api/settings/developer-tokens',
    { name: 'Store' },
    admin,
  );
  const exchanged = await sendJson<{ accessToken: string }>(request, '/api/auth/refresh-access-token', {
    refreshToken: token,
  });
  return { email, admin, server: exchanged.accessToken, virtualBptId: vbpt.id };
}

/** Q73.00 at the devnet's fixed Q730,000 per bitcoin: 10,000 sats. */
async function storeCheckout(request: APIRequestContext, server: string, orderId: string): Promise<StoreCheckout> {
  return sendJson<StoreCheckout>(
    request,
    '/api/checkouts',
    // Ten minutes to pay: this server's own default is 60 s, for the expiry journeys.
    { amount: '73.00', currency: 'GTQ', orderId, redirectUrl: 'https://shop.example/thanks', expiresInSeconds: 600 },
    server,
  );
}

/** Quetzales as the pages write them for Guatemala: 'Q', or the code, before the amount. */
const Q = '(?:Q|GTQ)\\s?';

/** An amount in quetzales as the pages write it. */
function quetzales(amount: string): RegExp {
  return new RegExp(`^${Q}${amount.replace('.', '\\.')}$`);
}

const texts = {
  en: {
    tab: 'On-chain',
    lightningTab: 'Lightning',
    awaiting: 'Awaiting payment',
    confirming: (n: number) => `Confirming (${n}/4)`,
    confirmed: 'Payment confirmed',
    underpaid: 'Underpaid: 2,000 sats missing',
    underpaidTitle: 'Part of the payment arrived',
    received: quetzales('45.39'),
    missing: quetzales('14.61'),
    address: 'Bitcoin address',
    sats: 'Amount in sats',
    send: 'Send',
    mine: 'Mine block',
    sent: /Sent 10,000 sats/,
    wallet: { invoice: 'Lightning invoice', pay: 'Pay' },
    paid: 'Payment completed',
    listUnderpaid: 'Underpaid',
    listAmounts: new RegExp(`^${Q}45\\.39 of ${Q}60\\.00 received · ${Q}14\\.61 missing$`),
  },
  es: {
    tab: 'On-chain',
    lightningTab: 'Lightning',
    awaiting: 'Esperando pago',
    confirming: (n: number) => `Confirmando (${n}/4)`,
    confirmed: 'Pago confirmado',
    // The checkout writes numbers as its merchant's country does: Guatemala, 2,000.
    underpaid: 'Pago incompleto: faltan 2,000 sats',
    underpaidTitle: 'Llegó parte del pago',
    received: quetzales('45.39'),
    missing: quetzales('14.61'),
    address: 'Dirección de Bitcoin',
    sats: 'Monto en sats',
    send: 'Enviar',
    mine: 'Minar bloque',
    // The devnet wallet belongs to no organization: Latin American Spanish, 10,000.
    sent: /Enviados 10,000 sats/,
    wallet: { invoice: 'Factura Lightning', pay: 'Pagar' },
    paid: 'Pago completado',
    listUnderpaid: 'Pago incompleto',
    listAmounts: new RegExp(`^${Q}45\\.39 de ${Q}60\\.00 recibidos · faltan ${Q}14\\.61$`),
  },
} as const;

type Words = (typeof texts)[keyof typeof texts];

/** The checkout on a phone without a session, on its On-chain tab; answers the address shown. */
async function openOnchainTab(browser: Browser, url: string, language: 'en' | 'es', words: Words) {
  const phone = await browser.newContext({ viewport: PHONE });
  await phone.addInitScript((lang) => localStorage.setItem('language', lang), language);
  const page = await phone.newPage();
  await page.goto(url);
  await page.getByRole('tab', { name: words.tab }).click();
  const address = (await page.getByTestId('onchain-address').textContent())?.trim() ?? '';
  expect(address).toMatch(/^bcrt1q[0-9a-z]+$/);
  await expect(page.getByTestId('onchain-status')).toHaveText(words.awaiting);
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(PHONE.width);
  return { phone, page, address };
}

/** The devnet wallet page, where the payer's on-chain coins come from and blocks are mined. */
async function openWallet(browser: Browser, language: 'en' | 'es') {
  const context = await browser.newContext({ viewport: DESKTOP });
  await context.addInitScript((lang) => localStorage.setItem('language', lang), language);
  const wallet = await context.newPage();
  await wallet.goto('/devnet/wallet');
  await expect(wallet.getByTestId('devnet-chain-height')).toBeVisible({ timeout: 20_000 });
  return { context, wallet };
}

async function send(wallet: Page, words: Words, address: string, sats: number) {
  await wallet.getByRole('textbox', { name: words.address }).fill(address);
  await wallet.getByRole('textbox', { name: words.sats }).fill(String(sats));
  const sent = wallet.waitForResponse('**/api/devnet/send-onchain');
  await wallet.getByRole('button', { name: words.send, exact: true }).click();
  expect((await sent).status()).toBe(200);
}

async function mine(wallet: Page, words: Words) {
  const mined = wallet.waitForResponse('**/api/devnet/mine');
  await wallet.getByRole('button', { name: words.mine }).click();
  expect((await mined).status()).toBe(200);
}

for (const language of ['en', 'es'] as const) {
  const words = texts[language];

  test(`a store checkout is paid on-chain on a phone, confirming block by block (${language})`, async ({
    browser,
    request,
  }, testInfo) => {
    const { server } = await openStore(request, language);
    const checkout = await storeCheckout(request, server, `onchain-${language}-${Date.now()}`);
    expect(checkout.url).toMatch(/\/ecommerce\/checkout\/[0-9a-f-]{36}$/);

    const { phone, page, address } = await openOnchainTab(browser, checkout.url, language, words);
    await expect(page.getByTestId('onchain-amount-sats')).toContainText('sats');
    await page.screenshot({ path: testInfo.outputPath(`onchain-awaiting-390-${language}.png`), fullPage: true });

    const { context, wallet } = await openWallet(browser, language);
    await send(wallet, words, address, 10_000);
    await expect(wallet.getByText(words.sent)).toBeVisible();
    await wallet.screenshot({ path: testInfo.outputPath(`devnet-chain-1280-${language}.png`), fullPage: true });
    await wallet.setViewportSize(PHONE);
    await wallet.screenshot({ path: testInfo.outputPath(`devnet-chain-390-${language}.png`), fullPage: true });
    expect(await wallet.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(PHONE.width);

    await onChain(page.getByTestId('onchain-status')).toHaveText(words.confirming(0));
    for (const n of [1, 2, 3]) {
      await mine(wallet, words);
      // The server first (a loaded machine can run the chain watch late), then the page.
      await expect
        .poll(
          async () => {
            const answer = await (await request.get(`/api/public/checkouts/${checkout.id}`)).json();
            return `${answer.status} ${answer.onchain?.confirmations}`;
          },
          { timeout: 60_000, intervals: [2_000] },
        )
        .toBe(`processing ${n}`);
      await onChain(page.getByTestId('onchain-status')).toHaveText(words.confirming(n));
      if (n === 2) {
        await page.screenshot({ path: testInfo.outputPath(`onchain-confirming-390-${language}.png`), fullPage: true });
        await page.setViewportSize(DESKTOP);
        await page.screenshot({ path: testInfo.outputPath(`onchain-confirming-1280-${language}.png`), fullPage: true });
        await page.setViewportSize(PHONE);
      }
    }
    await mine(wallet, words);
    await onChain(page.getByTestId('onchain-status')).toHaveText(words.confirmed);
    await expect(page.getByTestId('checkout-paid')).toContainText(words.paid);
    await page.screenshot({ path: testInfo.outputPath(`onchain-confirmed-390-${language}.png`), fullPage: true });

    const polled = await request.get(`/api/checkouts/${checkout.id}`, {
      headers: { authorization: `Bearer ${server}` },
    });
    expect(await polled.json()).toMatchObject({ status: 'paid', paidVia: 'onchain', latePayment: false });
    await context.close();
    await phone.close();
  });

  test(`an underpaid link asks only for the rest, by either method, and its merchant sees Underpaid (${language})`, async ({
    browser,
    request,
  }, testInfo) => {
    const store = await openStore(request, language);
    // Q60.00 at the devnet's Q730,000 per bitcoin is 8,219 sats; 6,219 of them arrive on-chain.
    const link = await sendJson<{ id: string }>(
      request,
      `/api/virtual-bpts/${store.virtualBptId}/payment-links`,
      { description: 'Torta de cumpleaños', amount: '60.00', currency: 'GTQ' },
      store.admin,
    );
    const { phone, page, address } = await openOnchainTab(browser, `/ecommerce/checkout/${link.id}`, language, words);
    await expect(page.getByTestId('onchain-amount-sats')).toHaveText('8,219 sats');
    const { context, wallet } = await openWallet(browser, language);
    await send(wallet, words, address, 6_219);

    // The page asks for the 2,000 sats missing, on-chain at the same address and by Lightning.
    await onChain(page.getByTestId('onchain-status')).toHaveText(words.underpaid);
    await expect(page.getByTestId('onchain-amount-sats')).toHaveText('2,000 sats');
    await expect(page.getByTestId('onchain-address')).toHaveText(address);
    const underpaid = page.getByTestId('checkout-underpaid');
    await expect(underpaid).toContainText(words.underpaidTitle);
    await expect(page.getByTestId('checkout-received')).toHaveText(words.received);
    await expect(page.getByTestId('checkout-missing')).toHaveText(words.missing);
    await expect(page.getByTestId('checkout-received-sats')).toHaveText('6,219 sats');
    await expect(page.getByTestId('checkout-missing-sats')).toHaveText('2,000 sats');
    await expect(page.getByTestId('checkout-amount')).toContainText('60.00');
    await page.screenshot({ path: testInfo.outputPath(`link-underpaid-onchain-390-${language}.png`), fullPage: true });
    await expectAccessible(page, `${language} underpaid link on-chain @390`);
    await page.getByRole('tab', { name: words.lightningTab }).click();
    const answer = await (await request.get(`/api/public/checkouts/${link.id}`)).json();
    expect(answer.invoice.amountMsat).toBe(2_000_000);
    const openWalletLink = page.locator('a[href^="lightning:"]');
    await expect(openWalletLink).toHaveAttribute('href', `lightning:${answer.invoice.paymentRequest}`);
    await page.screenshot({
      path: testInfo.outputPath(`link-underpaid-lightning-390-${language}.png`),
      fullPage: true,
    });
    await page.setViewportSize(DESKTOP);
    await page.screenshot({
      path: testInfo.outputPath(`link-underpaid-lightning-1280-${language}.png`),
      fullPage: true,
    });
    await expectAccessible(page, `${language} underpaid link Lightning @1280`);
    await page.setViewportSize(PHONE);

    // The merchant's list says Underpaid, with the amounts.
    const merchant = await browser.newContext({ viewport: DESKTOP });
    const screen = await merchant.newPage();
    await openSignedIn(screen, store.email, `/integrations/payment-links/${store.virtualBptId}`, {
      password: PASSWORD,
    });
    const card = screen.getByTestId('payment-link').filter({ hasText: 'Torta de cumpleaños' });
    await onChain(card.getByText(words.listUnderpaid, { exact: true })).toBeVisible();
    await expect(card.getByTestId('payment-link-underpaid')).toHaveText(words.listAmounts);
    await screen.screenshot({ path: testInfo.outputPath(`link-list-underpaid-1280-${language}.png`), fullPage: true });
    await expectAccessible(screen, `${language} payment links with an underpaid one @1280`);
    await screen.setViewportSize(PHONE);
    await screen.screenshot({ path: testInfo.outputPath(`link-list-underpaid-390-${language}.png`), fullPage: true });
    await expectAccessible(screen, `${language} payment links with an underpaid one @390`);
    expect(await screen.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(PHONE.width);

    // The rest by Lightning: all of it arrived, and the checkout waits for the on-chain part's blocks.
    await payOnDevnetWallet(wallet, answer.invoice.paymentRequest, words.wallet);
    await onChain(page.getByTestId('checkout-underpaid')).toBeHidden();
    await page.getByRole('tab', { name: words.tab }).click();
    await onChain(page.getByTestId('onchain-status')).toHaveText(words.confirming(0));
    for (let block = 0; block < 4; block++) await mine(wallet, words);
    await onChain(page.getByTestId('checkout-paid')).toContainText(words.paid);
    await page.screenshot({ path: testInfo.outputPath(`link-paid-in-parts-390-${language}.png`), fullPage: true });

    // Booked once, in two parts that add up to the price.
    const sales = await (
      await request.get('/api/dashboard/transactions?page=1&limit=10', {
        headers: { authorization: `Bearer ${store.admin}` },
      })
    ).json();
    expect(sales.transactions).toHaveLength(2);
    expect(sales.transactions.map((sale: { billAmount: string }) => sale.billAmount).sort()).toEqual([
      '14.61',
      '45.39',
    ]);
    expect(
      sales.transactions.reduce((sum: number, sale: { totalMsatCharged: number }) => sum + sale.totalMsatCharged, 0),
    ).toBe(8_219_000);
    await screen.reload();
    await onChain(card.getByText(words.paid, { exact: true })).toBeVisible();
    await merchant.close();
    await context.close();
    await phone.close();
  });
}
