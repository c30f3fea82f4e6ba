import { type APIRequestContext, type Browser, expect, type Page, test } from '@playwright/test';
import { sendJson, signUpShop } from './support.ts';

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

/**
 * A fresh shop selling through a virtual BPT, and its store server's access token: exchanged from
 * a developer token, as a store's backend does.
 */
async function openStore(request: APIRequestContext, language: 'en' | 'es'): Promise<string> {
  const { token: admin } = await signUpShop(request, {
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
  await sendJson(request, '/api/virtual-bpts', { name: 'Web shop', bptId: bpt.id }, admin);
  const { token } = await sendJson<{ token: string }>(
    request,
    '/api/settings/developer-tokens',
    { name: 'Store' },
    admin,
  );
  const exchanged = await sendJson<{ accessToken: string }>(request, '/api/auth/refresh-access-token', {
    refreshToken: token,
  });
  return exchanged.accessToken;
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

const texts = {
  en: {
    tab: 'On-chain',
    awaiting: 'Awaiting payment',
    confirming: (n: number) => `Confirming (${n}/4)`,
    confirmed: 'Payment confirmed',
    underpaid: 'Underpaid: 6,000 sats missing',
    address: 'Bitcoin address',
    sats: 'Amount in sats',
    send: 'Send',
    mine: 'Mine block',
    sent: /Sent 10,000 sats/,
    paid: 'Payment completed',
  },
  es: {
    tab: 'On-chain',
    awaiting: 'Esperando pago',
    confirming: (n: number) => `Confirmando (${n}/4)`,
    confirmed: 'Pago confirmado',
    // The checkout writes numbers as its merchant's country does: Guatemala, 6,000.
    underpaid: 'Pago incompleto: faltan 6,000 sats',
    address: 'Dirección de Bitcoin',
    sats: 'Monto en sats',
    send: 'Enviar',
    mine: 'Minar bloque',
    sent: /Enviados 10[.\s]?000 sats/,
    paid: 'Pago completado',
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
    const server = await openStore(request, language);
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

  test(`an underpaid on-chain checkout shows what is missing (${language})`, async ({ browser, request }, testInfo) => {
    const server = await openStore(request, language);
    const checkout = await storeCheckout(request, server, `short-${language}-${Date.now()}`);
    const { phone, page, address } = await openOnchainTab(browser, checkout.url, language, words);
    const { context, wallet } = await openWallet(browser, language);
    await send(wallet, words, address, 4_000);
    await mine(wallet, words);
    await onChain(page.getByTestId('onchain-status')).toHaveText(words.underpaid);
    await expect(page.getByTestId('onchain-amount-sats')).toHaveText('6,000 sats');
    await page.screenshot({ path: testInfo.outputPath(`onchain-underpaid-390-${language}.png`), fullPage: true });
    await page.setViewportSize(DESKTOP);
    await page.screenshot({ path: testInfo.outputPath(`onchain-underpaid-1280-${language}.png`), fullPage: true });
    await context.close();
    await phone.close();
  });
}
