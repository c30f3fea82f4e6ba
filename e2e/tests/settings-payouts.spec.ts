import { once } from 'node:events';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { type APIRequestContext, expect, type Page, test } from '@playwright/test';
import { latestMailTo, linkIn, openSignedIn, sendJson, signUpShop } from './support.ts';

const PASSWORD = 'Destino-2026!';
/** For the first look after a navigation: each screen's code loads lazily, slowly on a busy machine. */
const afterNavigation = expect.configure({ timeout: 20_000 });

const IBAN = 'GT82TRAJ01020000001210029690';
const REGTEST_ADDRESS = 'bcrt1qcr8te4kr609gcawutmrza0j4xv80jy8zeqchgx';
const MAINNET_ADDRESS = 'bc1qcr8te4kr609gcawutmrza0j4xv80jy8z306fyu';

let lnurlServer: http.Server;
/** `host:port` of a LUD-16 service on 127.0.0.1 (the server runs with LNURL_ALLOW_PRIVATE_HOSTS). */
let lnurlHost: string;

test.beforeAll(async () => {
  lnurlServer = http.createServer((request, response) => {
    const name = (request.url ?? '').replace('/.well-known/lnurlp/', '');
    const payRequest = {
      tag: 'payRequest',
      callback: `http://${lnurlHost}/cb/${name}`,
      minSendable: 1_000,
      maxSendable: 100_000_000_000,
      metadata: JSON.stringify([['text/plain', `Pay ${name}`]]),
    };
    response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(payRequest));
  });
  lnurlServer.listen(0, '127.0.0.1');
  await once(lnurlServer, 'listening');
  lnurlHost = `127.0.0.1:${(lnurlServer.address() as AddressInfo).port}`;
});
test.afterAll(async () => {
  lnurlServer.close();
  await once(lnurlServer, 'close');
});

/** A fresh Guatemalan organization of its own (never the demo one other specs share), and its manager. */
async function openShop(request: APIRequestContext, language: 'en' | 'es') {
  const { email, suffix, token } = await signUpShop(request, {
    emailPrefix: 'payouts',
    emailDomain: 'destino.example',
    name: 'Destino',
    password: PASSWORD,
    language,
  });
  const account = await sendJson<{ id: string }>(request, '/api/accounts', { name: 'Counter' }, token);
  const manager = `manager-${suffix}@destino.example`;
  await sendJson(
    request,
    '/api/managers',
    { name: 'Manager', email: manager, password: PASSWORD, accountIds: [account.id] },
    token,
  );
  return { email, manager };
}

const texts = {
  en: {
    bankSection: 'Bank account',
    onchainSection: 'Bitcoin on-chain address',
    lightningSection: 'Disbursement Lightning address',
    bank: /^Bank/,
    accountName: /^Account name/,
    iban: /^IBAN/,
    saveBank: 'Save bank account',
    bankSaved: 'Bank account saved. Our team will verify it.',
    bitcoinAddress: 'Bitcoin address',
    saveAddress: 'Save address',
    wrongNetwork: 'This address is for another Bitcoin network.',
    onchainSaved: 'On-chain address saved. Our team will verify it.',
    lightningAddress: 'Lightning address',
    saveLightning: 'Save Lightning address',
    lightningSaved: 'Lightning address saved. Our team will verify it.',
    badIban: 'The account number is not valid. Check its digits.',
    pending: 'Pending verification',
    notSet: 'Not set',
    readOnly: 'Only an administrator can change where payouts go.',
    payoutsSection: 'Payouts',
    holds: ['Bank transfers are on hold', 'On-chain payouts are on hold', 'Lightning payouts are on hold'],
    lightningMail: /^The payout Lightning address of Destino .+ was changed$/,
    cancelTitle: 'Cancel the change of where you are paid?',
    cancelChange: 'Cancel the change',
    lightningBack: 'Change cancelled: the previous Lightning address is back.',
  },
  es: {
    bankSection: 'Cuenta bancaria',
    onchainSection: 'Dirección Bitcoin on-chain',
    lightningSection: 'Dirección Lightning de desembolso',
    bank: /^Banco/,
    accountName: /^Titular de la cuenta/,
    iban: /^IBAN/,
    saveBank: 'Guardar cuenta bancaria',
    bankSaved: 'Cuenta bancaria guardada. Nuestro equipo la verificará.',
    bitcoinAddress: 'Dirección Bitcoin',
    saveAddress: 'Guardar dirección',
    wrongNetwork: 'Esta dirección es de otra red de Bitcoin.',
    onchainSaved: 'Dirección on-chain guardada. Nuestro equipo la verificará.',
    lightningAddress: 'Dirección Lightning',
    saveLightning: 'Guardar dirección Lightning',
    lightningSaved: 'Dirección Lightning guardada. Nuestro equipo la verificará.',
    badIban: 'El número de cuenta no es válido. Revisa sus dígitos.',
    pending: 'Verificación pendiente',
    notSet: 'Sin configurar',
    readOnly: 'Solo un administrador puede cambiar a dónde van los pagos.',
    payoutsSection: 'Pagos al comercio',
    holds: [
      'Las transferencias bancarias están en espera',
      'Los pagos on-chain están en espera',
      'Los pagos Lightning están en espera',
    ],
    lightningMail: /^Se cambió la dirección Lightning de pagos de Destino .+$/,
    cancelTitle: '¿Cancelar el cambio de a dónde se te paga?',
    cancelChange: 'Cancelar el cambio',
    lightningBack: 'Cambio cancelado: volvió la dirección Lightning anterior.',
  },
} as const;

function section(page: Page, name: string) {
  return page.getByRole('region', { name });
}

/**
 * Records every text the page adds, from its first script on. A confirmation toast closes itself
 * after four seconds, which a loaded machine can spend before an expectation first looks.
 */
async function recordShownTexts(page: Page): Promise<void> {
  await page.addInitScript(() => {
    const shown: string[] = [];
    Object.assign(window, { shownTexts: shown });
    new MutationObserver((records) => {
      for (const record of records) {
        for (const node of Array.from(record.addedNodes)) shown.push(node.textContent ?? '');
      }
    }).observe(document, { childList: true, subtree: true });
  });
}

async function expectShown(page: Page, message: string): Promise<void> {
  await expect
    .poll(() =>
      page.evaluate(
        (wanted) => (window as unknown as { shownTexts: string[] }).shownTexts.some((t) => t.includes(wanted)),
        message,
      ),
    )
    .toBe(true);
}

for (const language of ['en', 'es'] as const) {
  const text = texts[language];

  test(`an admin sets the bank account, on-chain address and Lightning address, and a manager sees them read-only (${language})`, async ({
    page,
    request,
  }) => {
    // Three saves, one of them resolving a Lightning address, and two sign-ins: a long journey.
    test.setTimeout(120_000);
    await recordShownTexts(page);
    const shop = await openShop(request, language);
    await openSignedIn(page, shop.email, '/settings/payouts', { password: PASSWORD });

    const bank = section(page, text.bankSection);
    await afterNavigation(bank.getByText(text.notSet)).toBeVisible();
    await bank.getByRole('textbox', { name: text.bank }).fill('Banco Industrial');
    await bank.getByRole('textbox', { name: text.accountName }).fill('Café Destino');
    // A mistyped digit passes the form but not the IBAN's check digits, which the server verifies.
    await bank.getByRole('textbox', { name: text.iban }).fill('GT82 TRAJ 0102 0000 0012 1002 9691');
    await bank.getByRole('button', { name: text.saveBank }).click();
    await expect(bank.getByRole('alert')).toHaveText(text.badIban);
    await bank.getByRole('textbox', { name: text.iban }).fill('GT82 TRAJ 0102 0000 0012 1002 9690');
    await bank.getByRole('button', { name: text.saveBank }).click();
    await expectShown(page, text.bankSaved);
    await expect(bank.getByText(text.pending)).toBeVisible();
    await expect(bank.getByRole('textbox', { name: text.iban })).toHaveValue(IBAN);

    const onchain = section(page, text.onchainSection);
    await onchain.getByRole('textbox', { name: text.bitcoinAddress }).fill(MAINNET_ADDRESS);
    await onchain.getByRole('button', { name: text.saveAddress }).click();
    await expect(onchain.getByRole('alert')).toHaveText(text.wrongNetwork);
    await onchain.getByRole('textbox', { name: text.bitcoinAddress }).fill(REGTEST_ADDRESS);
    await onchain.getByRole('button', { name: text.saveAddress }).click();
    await expectShown(page, text.onchainSaved);
    await expect(onchain.getByText(text.pending)).toBeVisible();

    const lightning = section(page, text.lightningSection);
    await lightning.getByRole('textbox', { name: text.lightningAddress }).fill(`Shop@${lnurlHost}`);
    await lightning.getByRole('button', { name: text.saveLightning }).click();
    await expectShown(page, text.lightningSaved);
    await expect(lightning.getByText(text.pending)).toBeVisible();
    await expect(lightning.getByRole('textbox', { name: text.lightningAddress })).toHaveValue(`shop@${lnurlHost}`);

    // Nothing is paid to the new destinations yet, and the payouts screen says why.
    const payouts = section(page, text.payoutsSection);
    for (const hold of text.holds) await expect(payouts.getByText(hold)).toBeVisible();
    // Every admin is mailed with a link that undoes the change, without a session.
    const mail = await latestMailTo(shop.email);
    expect(mail.subject).toMatch(text.lightningMail);
    const signedOut = await page.context().browser()?.newPage();
    if (!signedOut) throw new Error('no browser');
    await signedOut.goto(linkIn(mail));
    // A browser without a session shows English until the reader picks their language.
    if (language === 'es') await signedOut.getByText('Español').click();
    await afterNavigation(signedOut.getByRole('heading', { name: text.cancelTitle })).toBeVisible();
    await signedOut.getByRole('button', { name: text.cancelChange }).click();
    await expect(signedOut.getByText(text.lightningBack)).toBeVisible();
    await signedOut.close();
    await page.reload();
    await afterNavigation(section(page, text.lightningSection).getByText(text.notSet)).toBeVisible();
    await expect(section(page, text.payoutsSection).getByText(text.holds[2] as string)).toHaveCount(0);
    await expect(section(page, text.payoutsSection).getByText(text.holds[0] as string)).toBeVisible();

    // The manager of the same organization sees all three, and can change none.
    await page.evaluate(() => localStorage.clear());
    await openSignedIn(page, shop.manager, '/settings/payouts', { password: PASSWORD });
    const managerBank = section(page, text.bankSection);
    const iban = managerBank.getByRole('textbox', { name: text.iban });
    await afterNavigation(iban).toHaveValue(IBAN);
    await expect(iban).toBeDisabled();
    await expect(section(page, text.onchainSection).getByRole('textbox', { name: text.bitcoinAddress })).toHaveValue(
      REGTEST_ADDRESS,
    );
    await expect(
      section(page, text.lightningSection).getByRole('textbox', { name: text.lightningAddress }),
    ).toBeDisabled();
    for (const name of [text.saveBank, text.saveAddress, text.saveLightning]) {
      await expect(page.getByRole('button', { name })).toHaveCount(0);
    }
    await expect(page.getByText(text.readOnly)).toHaveCount(3);
  });
}
