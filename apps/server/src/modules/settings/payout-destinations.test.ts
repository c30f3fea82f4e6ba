import { once } from 'node:events';
import http from 'node:http';
import net, { type AddressInfo } from 'node:net';
import type {
  BankingInfo,
  BankingInfoTemplate,
  Currency,
  ErrorResponse,
  MfaEnrollment,
  PayoutAddresses,
} from '@rayo/shared';
import { Secret, TOTP } from 'otpauth';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, createTestApp, createTestUser, signIn, TEST_PASSWORD, type TestApp } from '../../../test/test-app.ts';
import { listAuditEntries } from '../audit/audit.repo.ts';
import { listNotifications } from '../notifications/notifications.repo.ts';
import { createOrganization } from '../organizations/organizations.service.ts';

type Headers = Record<string, string>;

let t: TestApp;

/** The notices a settings change raised: every organization also has the one of its creation. */
async function settingsNotices(organizationId: string) {
  return (await listNotifications(t.db, { organizationId })).filter((n) => n.kind !== 'organization.created');
}
let lnurl: Awaited<ReturnType<typeof startLnurlServer>>;

/** A LUD-16 service on 127.0.0.1: `/.well-known/lnurlp/<name>` answers per name. */
async function startLnurlServer() {
  const requests: string[] = [];
  let base = '';
  const server = http.createServer((request, response) => {
    const url = new URL(request.url ?? '/', base);
    requests.push(url.pathname);
    const name = url.pathname.replace('/.well-known/lnurlp/', '');
    const send = (body: unknown) =>
      response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(body));
    if (name === 'unknown') return send({ status: 'ERROR', reason: 'Secret internal detail 42' });
    if (name === 'withdraw') return send({ tag: 'withdrawRequest', callback: `${base}/cb`, k1: 'x' });
    if (name === 'html') return response.writeHead(200, { 'content-type': 'text/html' }).end('<h1>Secret page</h1>');
    if (name === 'redirect') return response.writeHead(302, { location: `${base}/.well-known/lnurlp/shop` }).end();
    send({
      tag: 'payRequest',
      callback: `${base}/cb/${name}`,
      minSendable: 1_000,
      maxSendable: 100_000_000_000,
      metadata: JSON.stringify([
        ['text/plain', `Pay ${name}`],
        ['text/identifier', `${name}@${url.host}`],
      ]),
    });
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const host = `127.0.0.1:${(server.address() as AddressInfo).port}`;
  base = `http://${host}`;
  return {
    host,
    requests,
    stop: async () => {
      server.close();
      await once(server, 'close');
    },
  };
}

async function closedPort(): Promise<number> {
  const server = net.createServer().listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  server.close();
  await once(server, 'close');
  return port;
}

beforeAll(async () => {
  t = await createTestApp({ LNURL_ALLOW_PRIVATE_HOSTS: 'true' });
  lnurl = await startLnurlServer();
});
afterAll(async () => {
  await lnurl?.stop();
  await t?.close();
});

async function openShop(countryCode = 'GT', currency = 'GTQ') {
  const organization = await createOrganization(t.db, {
    name: `Shop ${countryCode} ${Math.random()}`,
    countryCode,
    language: 'en',
    currency,
  });
  const admin = await createTestUser(t.db, { role: 'admin', organizationId: organization.id });
  const manager = await createTestUser(t.db, { role: 'manager', organizationId: organization.id });
  const token = async (email: string) => bearer((await signIn(t.app, email, TEST_PASSWORD)).accessToken);
  return { organization, admin: await token(admin.email), manager: await token(manager.email) };
}

async function verifyEverything(organizationId: string) {
  await t.db
    .updateTable('organizations')
    .set({ bank_verified: true, crypto_verified: true, disbursement_address_verified: true })
    .where('id', '=', organizationId)
    .execute();
}

async function flags(organizationId: string) {
  return t.db
    .selectFrom('organizations')
    .select(['bank_verified', 'crypto_verified', 'disbursement_address_verified', 'conversion_address_verified'])
    .where('id', '=', organizationId)
    .executeTakeFirstOrThrow();
}

const PAYOUT_ACTIONS = [
  'settings.banking_info_changed',
  'settings.onchain_address_changed',
  'settings.lightning_address_changed',
];

/** The audit entries of payout changes, newest first; sign-ins and MFA have their own. */
async function payoutAudits(organizationId: string) {
  return (await listAuditEntries(t.db, { organizationId })).filter((entry) => PAYOUT_ACTIONS.includes(entry.action));
}

function call(method: 'GET' | 'POST' | 'PUT', url: string, headers: Headers, payload?: object) {
  return t.app.inject({ method, url, headers, ...(payload && { payload }) });
}

const GT_ACCOUNT = {
  bank: 'Banco Industrial',
  accountName: 'Café Central',
  accountNumber: 'GT82 TRAJ 0102 0000 0012 1002 9690',
  accountType: 'checking',
  currency: 'GTQ',
};

function postBank(headers: Headers, bankingInfoMetadata: object) {
  return call('POST', '/api/settings/banking-info', headers, { bankingInfoMetadata });
}

function codeOf(response: { json: <T>() => T }): string {
  return response.json<ErrorResponse>().code;
}

async function turnMfaOn(headers: Headers) {
  const enable = await call('POST', '/api/settings/mfa/enable', headers);
  const totp = new TOTP({ secret: Secret.fromBase32(enable.json<MfaEnrollment>().secret) });
  const validate = await call('POST', '/api/settings/mfa/validate', headers, { code: totp.generate() });
  expect(validate.statusCode, validate.body).toBe(204);
  // The validate used the current step's code; the next step's is still unused.
  return totp.generate({ timestamp: Date.now() + 30_000 });
}

describe('the banking-info template and country currencies', () => {
  it("follow the organization's country", async () => {
    const gt = await openShop('GT');
    const template = (await call('GET', '/api/settings/banking-info-template', gt.admin)).json<BankingInfoTemplate>();
    expect(template.format).toBe('iban');
    expect(template.fields.find((field) => field.name === 'currency')?.options).toEqual(['GTQ', 'USD']);
    const currencies = await call('GET', '/api/settings/country-currencies', gt.manager);
    expect(currencies.json<Currency[]>()).toEqual([
      { code: 'GTQ', isFiat: true },
      { code: 'USD', isFiat: true },
      { code: 'BTC', isFiat: false },
    ]);
    const us = await openShop('US', 'USD');
    expect(
      (await call('GET', '/api/settings/banking-info-template', us.manager)).json<BankingInfoTemplate>(),
    ).toMatchObject({
      countryCode: 'US',
      format: 'aba',
    });
    const mx = await openShop('MX', 'MXN');
    const mxTemplate = (await call('GET', '/api/settings/banking-info-template', mx.admin)).json<BankingInfoTemplate>();
    expect(mxTemplate.fields.map((field) => field.label)).toContain('clabe');
  });
});

describe('banking info', () => {
  it('is saved normalized, withdraws the bank verification, and is audited and notified in one go', async () => {
    const shop = await openShop();
    await verifyEverything(shop.organization.id);
    const created = await postBank(shop.admin, GT_ACCOUNT);
    expect(created.statusCode, created.body).toBe(201);
    const saved = created.json<BankingInfo>();
    expect(saved.bankingInfoMetadata).toEqual({ ...GT_ACCOUNT, accountNumber: 'GT82TRAJ01020000001210029690' });
    expect(await flags(shop.organization.id)).toMatchObject({ bank_verified: false, crypto_verified: true });

    const list = await call('GET', '/api/settings/banking-info/all', shop.manager);
    expect(list.json<BankingInfo[]>().map((entry) => entry.id)).toEqual([saved.id]);

    const [audit] = await payoutAudits(shop.organization.id);
    expect(audit).toMatchObject({
      action: 'settings.banking_info_changed',
      before: null,
      after: { ...GT_ACCOUNT, accountNumber: '••••9690' },
    });
    const [notification] = await settingsNotices(shop.organization.id);
    expect(notification).toMatchObject({
      kind: 'settings.banking_info_changed',
      payload: { bankingInfoId: saved.id, wasVerified: true, after: { accountNumber: '••••9690' } },
    });

    // A second account would never be paid: the first one is changed instead.
    const again = await postBank(shop.admin, GT_ACCOUNT);
    expect([again.statusCode, codeOf(again)]).toEqual([409, 'BankingInfoExists']);

    await verifyEverything(shop.organization.id);
    const url = `/api/settings/banking-info/${saved.id}`;
    const same = await call('PUT', url, shop.admin, { bankingInfoMetadata: GT_ACCOUNT });
    expect(same.statusCode).toBe(200);
    expect((await flags(shop.organization.id)).bank_verified).toBe(true);
    const changed = await call('PUT', url, shop.admin, {
      bankingInfoMetadata: { ...GT_ACCOUNT, accountType: 'savings' },
    });
    expect(changed.json<BankingInfo>().bankingInfoMetadata.accountType).toBe('savings');
    expect((await flags(shop.organization.id)).bank_verified).toBe(false);
    const audits = await payoutAudits(shop.organization.id);
    expect(audits).toHaveLength(2);
    expect(audits[0]).toMatchObject({ before: { accountType: 'checking' }, after: { accountType: 'savings' } });
    expect(await settingsNotices(shop.organization.id)).toHaveLength(2);
  });

  it('refuses what fails the country template, and keeps nothing', async () => {
    const gt = await openShop('GT');
    const refusals: [object, string][] = [
      [{ ...GT_ACCOUNT, accountNumber: 'GT82TRAJ01020000001210029691' }, 'InvalidAccountNumber'],
      [{ ...GT_ACCOUNT, accountNumber: 'ES9121000418450200051332' }, 'InvalidAccountNumber'],
      [{ ...GT_ACCOUNT, bank: '' }, 'MissingBankingField'],
      [{ ...GT_ACCOUNT, accountType: 'brokerage' }, 'InvalidBankingField'],
      [{ ...GT_ACCOUNT, currency: 'MXN' }, 'InvalidBankingField'],
      [{ ...GT_ACCOUNT, routingNumber: 'not a bic' }, 'InvalidRoutingNumber'],
      [{ ...GT_ACCOUNT, swift: 'CAIXESBBXXX' }, 'InvalidInput'],
      [{ ...GT_ACCOUNT, bank: 'x'.repeat(201) }, 'InvalidInput'],
      [{ ...GT_ACCOUNT, bank: 42 }, 'InvalidInput'],
    ];
    for (const [metadata, code] of refusals) {
      const response = await postBank(gt.admin, metadata);
      expect([response.statusCode, codeOf(response)], JSON.stringify(metadata)).toEqual([400, code]);
    }
    const us = await openShop('US', 'USD');
    const usAccount = { ...GT_ACCOUNT, currency: 'USD', accountNumber: '000123456789' };
    expect(codeOf(await postBank(us.admin, { ...usAccount, routingNumber: '011000016' }))).toBe('InvalidRoutingNumber');
    expect(codeOf(await postBank(us.admin, { ...usAccount, routingNumber: '01100001' }))).toBe('InvalidRoutingNumber');
    expect(codeOf(await postBank(us.admin, usAccount))).toBe('MissingBankingField');
    const mx = await openShop('MX', 'MXN');
    const mxAccount = { ...GT_ACCOUNT, currency: 'MXN', accountNumber: '032180000118359718' };
    expect(codeOf(await postBank(mx.admin, mxAccount))).toBe('InvalidAccountNumber');
    const es = await openShop('ES', 'EUR');
    const esAccount = { ...GT_ACCOUNT, currency: 'EUR', accountNumber: 'ES9121000418450200051333' };
    expect(codeOf(await postBank(es.admin, esAccount))).toBe('InvalidAccountNumber');

    for (const shop of [gt, us, mx, es]) {
      expect(
        await t.db.selectFrom('banking_info').selectAll().where('organization_id', '=', shop.organization.id).execute(),
      ).toEqual([]);
      expect(await payoutAudits(shop.organization.id)).toEqual([]);
      expect(await settingsNotices(shop.organization.id)).toEqual([]);
    }
    // The good ones of each country pass.
    expect((await postBank(us.admin, { ...usAccount, routingNumber: '011000015' })).statusCode).toBe(201);
    expect((await postBank(mx.admin, { ...mxAccount, accountNumber: '032180000118359719' })).statusCode).toBe(201);
    expect((await postBank(es.admin, { ...esAccount, accountNumber: 'ES9121000418450200051332' })).statusCode).toBe(
      201,
    );
  });

  it("is read by managers, written only by admins, and another organization's entry is not found", async () => {
    const shop = await openShop();
    const saved = (await postBank(shop.admin, GT_ACCOUNT)).json<BankingInfo>();
    expect((await postBank(shop.manager, GT_ACCOUNT)).statusCode).toBe(403);
    const url = `/api/settings/banking-info/${saved.id}`;
    expect((await call('PUT', url, shop.manager, { bankingInfoMetadata: GT_ACCOUNT })).statusCode).toBe(403);
    expect((await call('GET', '/api/settings/banking-info/all', shop.manager)).statusCode).toBe(200);
    const other = await openShop();
    const outside = await call('PUT', url, other.admin, { bankingInfoMetadata: { ...GT_ACCOUNT, bank: 'Mine' } });
    expect(outside.statusCode).toBe(404);
    expect(
      (await call('GET', '/api/settings/banking-info/all', shop.admin)).json<BankingInfo[]>()[0]?.bankingInfoMetadata
        .bank,
    ).toBe('Banco Industrial');
  });

  it('needs a right code in the mfa-code header when the admin has MFA on', async () => {
    const shop = await openShop();
    const code = await turnMfaOn(shop.admin);
    const without = await postBank(shop.admin, GT_ACCOUNT);
    expect([without.statusCode, codeOf(without)]).toEqual([400, 'MissingMfaCode']);
    const wrong = await postBank({ ...shop.admin, 'mfa-code': '000000' }, GT_ACCOUNT);
    expect([wrong.statusCode, codeOf(wrong)]).toEqual([400, 'WrongMfaCode']);
    expect((await call('GET', '/api/settings/banking-info/all', shop.admin)).json()).toEqual([]);
    const saved = await postBank({ ...shop.admin, 'mfa-code': code }, GT_ACCOUNT);
    expect(saved.statusCode, saved.body).toBe(201);
    const url = `/api/settings/banking-info/${saved.json<BankingInfo>().id}`;
    const put = await call('PUT', url, shop.admin, { bankingInfoMetadata: { ...GT_ACCOUNT, bank: 'Other' } });
    expect(codeOf(put)).toBe('MissingMfaCode');
  });
});

describe('the on-chain payout address', () => {
  const REGTEST = 'bcrt1qcr8te4kr609gcawutmrza0j4xv80jy8zeqchgx';

  function putOnchain(headers: Headers, onchainAddress: unknown) {
    return t.app.inject({ method: 'PUT', url: '/api/settings/onchain-address', headers, payload: { onchainAddress } });
  }

  it("is kept only for the node's network (devnet is regtest), withdrawing its verification", async () => {
    const shop = await openShop();
    await verifyEverything(shop.organization.id);
    const refusals: [unknown, string][] = [
      ['bc1qcr8te4kr609gcawutmrza0j4xv80jy8z306fyu', 'OnchainAddressWrongNetwork'],
      ['tb1qcr8te4kr609gcawutmrza0j4xv80jy8zmfp6l0', 'OnchainAddressWrongNetwork'],
      ['1BvBMSEYstWetqTFn5Au4m4GFg7xJaNVN2', 'OnchainAddressWrongNetwork'],
      ['bcrt1qcr8te4kr609gcawutmrza0j4xv80jy8zeqchgy', 'InvalidOnchainAddress'],
      ['not an address', 'InvalidOnchainAddress'],
      ['', 'MissingOnchainAddress'],
      [42, 'InvalidOnchainAddress'],
    ];
    for (const [address, code] of refusals) {
      const response = await putOnchain(shop.admin, address);
      expect([response.statusCode, codeOf(response)], String(address)).toEqual([400, code]);
    }
    expect(await flags(shop.organization.id)).toMatchObject({ crypto_verified: true });
    expect(await payoutAudits(shop.organization.id)).toEqual([]);

    const saved = await putOnchain(shop.admin, REGTEST.toUpperCase());
    expect(saved.statusCode, saved.body).toBe(200);
    expect(saved.json<PayoutAddresses>()).toMatchObject({
      onchainAddress: REGTEST,
      network: 'regtest',
      onchainVerified: false,
    });
    expect(await flags(shop.organization.id)).toMatchObject({
      bank_verified: true,
      crypto_verified: false,
      disbursement_address_verified: true,
    });
    const [audit] = await payoutAudits(shop.organization.id);
    expect(audit).toMatchObject({
      action: 'settings.onchain_address_changed',
      before: { onchainAddress: null },
      after: { onchainAddress: REGTEST },
    });
    const [notification] = await settingsNotices(shop.organization.id);
    expect(notification).toMatchObject({ kind: 'settings.onchain_address_changed', payload: { after: REGTEST } });
    expect((await call('GET', '/api/settings/payout-addresses', shop.manager)).json<PayoutAddresses>()).toMatchObject({
      onchainAddress: REGTEST,
    });
    expect((await putOnchain(shop.manager, REGTEST)).statusCode).toBe(403);
  });

  it('needs the mfa-code header when the admin has MFA on', async () => {
    const shop = await openShop();
    const code = await turnMfaOn(shop.admin);
    expect(codeOf(await putOnchain(shop.admin, REGTEST))).toBe('MissingMfaCode');
    expect(codeOf(await putOnchain({ ...shop.admin, 'mfa-code': '123456' }, REGTEST))).toBe('WrongMfaCode');
    expect((await putOnchain({ ...shop.admin, 'mfa-code': code }, REGTEST)).statusCode).toBe(200);
  });
});

describe('the disbursement Lightning address', () => {
  function putLightning(headers: Headers, lightningAddress: unknown, app = t) {
    return app.app.inject({
      method: 'PUT',
      url: '/api/settings/lightning-address',
      headers,
      payload: { lightningAddress },
    });
  }

  it('is resolved over LUD-16 before it is kept, withdrawing its verification', async () => {
    const shop = await openShop();
    await verifyEverything(shop.organization.id);
    const address = `Shop@${lnurl.host}`;
    const saved = await putLightning(shop.admin, address);
    expect(saved.statusCode, saved.body).toBe(200);
    expect(saved.json<PayoutAddresses>()).toMatchObject({
      lightningAddress: `shop@${lnurl.host}`,
      lightningVerified: false,
    });
    expect(lnurl.requests).toContain('/.well-known/lnurlp/shop');
    expect(await flags(shop.organization.id)).toMatchObject({
      crypto_verified: true,
      disbursement_address_verified: false,
      conversion_address_verified: false,
    });
    const [audit] = await payoutAudits(shop.organization.id);
    expect(audit).toMatchObject({
      action: 'settings.lightning_address_changed',
      after: { lightningAddress: `shop@${lnurl.host}` },
    });
    const [notification] = await settingsNotices(shop.organization.id);
    expect(notification).toMatchObject({ kind: 'settings.lightning_address_changed', payload: { wasVerified: true } });
    expect((await putLightning(shop.manager, address)).statusCode).toBe(403);
  });

  it('refuses an address that cannot be resolved to a payRequest, keeps nothing and echoes nothing of the answer', async () => {
    const shop = await openShop();
    const port = await closedPort();
    const refusals: [unknown, string][] = [
      [`shop@127.0.0.1:${port}`, 'LightningAddressUnreachable'],
      [`unknown@${lnurl.host}`, 'LightningAddressNotPayable'],
      [`withdraw@${lnurl.host}`, 'LightningAddressNotPayable'],
      [`html@${lnurl.host}`, 'LightningAddressNotPayable'],
      [`redirect@${lnurl.host}`, 'LightningAddressUnreachable'],
      ['shop', 'InvalidLightningAddress'],
      ['shop@', 'InvalidLightningAddress'],
      ['sh op@example.com', 'InvalidLightningAddress'],
      ['shop@example.com/path', 'InvalidLightningAddress'],
      ['', 'MissingLightningAddress'],
    ];
    for (const [address, code] of refusals) {
      const response = await putLightning(shop.admin, address);
      expect([response.statusCode, codeOf(response)], String(address)).toEqual([400, code]);
      expect(response.body).not.toContain('Secret');
    }
    expect(
      (await call('GET', '/api/settings/payout-addresses', shop.admin)).json<PayoutAddresses>().lightningAddress,
    ).toBeNull();
    expect(await payoutAudits(shop.organization.id)).toEqual([]);
    expect(await settingsNotices(shop.organization.id)).toEqual([]);
  });

  it('reaches loopback and private hosts only with LNURL_ALLOW_PRIVATE_HOSTS', async () => {
    const strict = await createTestApp();
    try {
      const organization = await createOrganization(strict.db, { name: 'Strict', countryCode: 'GT', language: 'en' });
      const admin = await createTestUser(strict.db, { role: 'admin', organizationId: organization.id });
      const headers = bearer((await signIn(strict.app, admin.email, TEST_PASSWORD)).accessToken);
      const before = lnurl.requests.length;
      for (const address of [`shop@${lnurl.host}`, `shop@localhost:${lnurl.host.split(':')[1]}`]) {
        const response = await putLightning(headers, address, strict);
        expect([response.statusCode, codeOf(response)], address).toEqual([400, 'LightningAddressUnreachable']);
      }
      expect(lnurl.requests.length).toBe(before);
    } finally {
      await strict.close();
    }
  });

  it('needs the mfa-code header when the admin has MFA on', async () => {
    const shop = await openShop();
    const code = await turnMfaOn(shop.admin);
    expect(codeOf(await putLightning(shop.admin, `shop@${lnurl.host}`))).toBe('MissingMfaCode');
    expect((await putLightning({ ...shop.admin, 'mfa-code': code }, `shop@${lnurl.host}`)).statusCode).toBe(200);
  });
});
