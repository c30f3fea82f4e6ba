import {
  type Account,
  type Bpt,
  type ErrorResponse,
  type Invoice,
  type MfaEnrollment,
  type PayoutSplitSettings,
  SPLIT_NEEDS_VALIDATION_MESSAGE,
  type TransactionPage,
  type TransactionSums,
  VERIFICATIONS,
} from '@rayo/shared';
import { Secret, TOTP } from 'otpauth';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  bearer,
  createTestApp,
  createTestOrganization,
  createTestUser,
  signIn,
  type TestApp,
} from '../../../test/test-app.ts';
import { waitFor } from '../../../test/wait-for.ts';
import { listAuditEntries } from '../audit/audit.repo.ts';
import { listNotifications } from '../notifications/notifications.repo.ts';

type Headers = Record<string, string>;

const FLAGS = {
  bank: 'bank_verified',
  crypto: 'crypto_verified',
  disbursementAddress: 'disbursement_address_verified',
  conversionAddress: 'conversion_address_verified',
  kyb: 'kyb_verified',
} as const;

let t: TestApp;

/** The notices a settings change raised: every organization also has the one of its creation. */
async function settingsNotices(organizationId: string) {
  return (await listNotifications(t.db, { organizationId })).filter((n) => n.kind !== 'organization.created');
}

beforeAll(async () => {
  // USD at $95,000 per bitcoin; 1 % transaction fee and 1 % conversion fee.
  t = await createTestApp(
    { FIXED_RATES: 'USD=95000', TX_FEE_PERCENT: '1', CONVERSION_FEE_PERCENT: '1' },
    { jobs: true },
  );
});
afterAll(() => t.close());

/** Back office's verdict on each field, set on the row as the back office will. */
async function verify(organizationId: string, verified: boolean, except: readonly (keyof typeof FLAGS)[] = []) {
  const flags = Object.fromEntries(
    VERIFICATIONS.map((name) => [FLAGS[name], verified && !except.includes(name)]),
  ) as Record<(typeof FLAGS)[keyof typeof FLAGS], boolean>;
  await t.db.updateTable('organizations').set(flags).where('id', '=', organizationId).execute();
}

async function openShop() {
  const organization = await createTestOrganization(t.db);
  const user = await createTestUser(t.db, { role: 'admin', organizationId: organization.id });
  const admin = bearer((await signIn(t.app, user.email, user.password)).accessToken);
  const post = async <T>(url: string, payload: object) => {
    const response = await t.app.inject({ method: 'POST', url, headers: admin, payload });
    expect(response.statusCode, response.body).toBeLessThan(300);
    return response.json<T>();
  };
  const account = await post<Account>('/api/accounts', { name: 'Counter' });
  const bptIn = (currency: string) =>
    post<Bpt>('/api/bpts', { name: `Till ${currency}`, accountId: account.id, currency });
  return { organization, user, admin, account, bpt: await bptIn('USD'), bptIn };
}

function getSplit(headers: Headers) {
  return t.app.inject({ method: 'GET', url: '/api/settings/payout-split', headers });
}

function putSplit(headers: Headers, payload: unknown) {
  return t.app.inject({ method: 'PUT', url: '/api/settings/payout-split', headers, payload: payload as object });
}

const HALF_FIAT = { fiatPercent: 50, onchainPercent: 0, lightningPercent: 50 };

/** Charges `amount` on the terminal, pays it from the devnet wallet and waits for its ledger row. */
async function sell(bpt: Bpt, headers: Headers, amount: string) {
  const charged = await t.app.inject({
    method: 'POST',
    url: `/api/bpts/${bpt.id}/invoices`,
    headers,
    payload: { amount },
  });
  expect(charged.statusCode, charged.body).toBe(201);
  const invoice = charged.json<Invoice>();
  const paid = await t.app.inject({
    method: 'POST',
    url: '/api/devnet/pay',
    payload: { paymentRequest: invoice.paymentRequest },
  });
  expect(paid.statusCode, paid.body).toBe(200);
  return waitFor(() =>
    t.db.selectFrom('transactions').selectAll().where('payment_hash', '=', invoice.paymentHash).executeTakeFirst(),
  );
}

describe('reading the payout split', () => {
  it('starts all Lightning, in the organization’s currency, with nothing verified', async () => {
    const shop = await openShop();
    const response = await getSplit(shop.admin);
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json<PayoutSplitSettings>()).toEqual({
      fiatPercent: 0,
      onchainPercent: 0,
      lightningPercent: 100,
      currency: 'USD',
      conversionFeePercent: '1.00',
      verifications: { bank: false, crypto: false, disbursementAddress: false, conversionAddress: false, kyb: false },
      entries: { bankAccount: false, onchainAddress: false, lightningAddress: false, kybDocument: false },
    });
  });

  it('says what the merchant has entered, for the screen to tell what waits for review from what is missing', async () => {
    const shop = await openShop();
    await t.db
      .updateTable('organizations')
      .set({ onchain_address: 'bcrt1qexample' })
      .where('id', '=', shop.organization.id)
      .execute();
    await t.db
      .insertInto('banking_info')
      .values({ organization_id: shop.organization.id, metadata: JSON.stringify({ bank: 'Banco Industrial' }) })
      .execute();
    expect((await getSplit(shop.admin)).json<PayoutSplitSettings>().entries).toEqual({
      bankAccount: true,
      onchainAddress: true,
      lightningAddress: false,
      kybDocument: false,
    });
  });

  it('shows managers the split, and refuses them a change', async () => {
    const shop = await openShop();
    await verify(shop.organization.id, true);
    const manager = await createTestUser(t.db, {
      role: 'manager',
      organizationId: shop.organization.id,
      accountIds: [shop.account.id],
    });
    const headers = bearer((await signIn(t.app, manager.email, manager.password)).accessToken);
    expect((await getSplit(headers)).json<PayoutSplitSettings>()).toMatchObject({ lightningPercent: 100 });
    const refused = await putSplit(headers, HALF_FIAT);
    expect(refused.statusCode).toBe(403);
    expect((await getSplit(shop.admin)).json<PayoutSplitSettings>()).toMatchObject({ fiatPercent: 0 });
  });
});

describe('changing the payout split', () => {
  it('is refused with SPEC’s message until what the new split relies on is verified, whichever one is missing', async () => {
    const shop = await openShop();
    const refusedWith = async () => {
      const response = await putSplit(shop.admin, HALF_FIAT);
      expect(response.statusCode, response.body).toBe(409);
      return response.json<ErrorResponse>();
    };
    expect(await refusedWith()).toEqual({ code: 'SplitNeedsValidation', message: SPLIT_NEEDS_VALIDATION_MESSAGE });
    expect(SPLIT_NEEDS_VALIDATION_MESSAGE).toBe(
      'Your information needs to be validated by our team before you can change the payment split',
    );
    // Half fiat, half Lightning relies on the bank account, the conversion, the Lightning address and KYB.
    for (const missing of ['bank', 'conversionAddress', 'disbursementAddress', 'kyb'] as const) {
      await verify(shop.organization.id, true, [missing]);
      expect((await refusedWith()).code, missing).toBe('SplitNeedsValidation');
    }
    expect((await getSplit(shop.admin)).json<PayoutSplitSettings>()).toMatchObject({ fiatPercent: 0 });
    expect(
      (await listAuditEntries(t.db, { organizationId: shop.organization.id })).filter(
        (entry) => entry.action === 'settings.payout_split_changed',
      ),
    ).toEqual([]);
    expect(await settingsNotices(shop.organization.id)).toEqual([]);
  });

  it('asks a fiat-only split for the bank account and KYB only, and an on-chain one for the address and KYB', async () => {
    const shop = await openShop();
    await verify(shop.organization.id, false);
    const verifyOnly = (...names: (keyof typeof FLAGS)[]) =>
      verify(
        shop.organization.id,
        true,
        VERIFICATIONS.filter((name) => !names.includes(name)),
      );
    const allFiat = { fiatPercent: 100, onchainPercent: 0, lightningPercent: 0 };
    await verifyOnly('bank', 'conversionAddress');
    expect((await putSplit(shop.admin, allFiat)).statusCode).toBe(409);
    await verifyOnly('bank', 'conversionAddress', 'kyb');
    const fiat = await putSplit(shop.admin, allFiat);
    expect(fiat.statusCode, fiat.body).toBe(200);
    // The bank account is no help to a split that pays on-chain.
    const allOnchain = { fiatPercent: 0, onchainPercent: 100, lightningPercent: 0 };
    expect((await putSplit(shop.admin, allOnchain)).statusCode).toBe(409);
    await verifyOnly('crypto', 'kyb');
    expect((await putSplit(shop.admin, allOnchain)).statusCode).toBe(200);
  });

  it('saves the split once all is verified, audits it with before and after, and tells back office', async () => {
    const shop = await openShop();
    await verify(shop.organization.id, true);
    const response = await putSplit(shop.admin, { fiatPercent: 30, onchainPercent: 20, lightningPercent: 50 });
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json<PayoutSplitSettings>()).toMatchObject({
      fiatPercent: 30,
      onchainPercent: 20,
      lightningPercent: 50,
    });
    expect((await getSplit(shop.admin)).json<PayoutSplitSettings>()).toMatchObject({
      fiatPercent: 30,
      onchainPercent: 20,
      lightningPercent: 50,
      verifications: { bank: true, crypto: true, disbursementAddress: true, conversionAddress: true, kyb: true },
    });
    const [entry] = await listAuditEntries(t.db, { organizationId: shop.organization.id });
    expect(entry).toMatchObject({
      action: 'settings.payout_split_changed',
      actor_user_id: shop.user.id,
      actor_email: shop.user.email,
      target: `organization:${shop.organization.id}`,
      before: { fiatPercent: 0, onchainPercent: 0, lightningPercent: 100 },
      after: { fiatPercent: 30, onchainPercent: 20, lightningPercent: 50 },
    });
    const notifications = await settingsNotices(shop.organization.id);
    expect(notifications).toMatchObject([
      {
        kind: 'settings.payout_split_changed',
        payload: {
          before: { fiatPercent: 0, onchainPercent: 0, lightningPercent: 100 },
          after: { fiatPercent: 30, onchainPercent: 20, lightningPercent: 50 },
        },
      },
    ]);
  });

  it('refuses splits that are not three whole percentages adding up to 100, with 400', async () => {
    const shop = await openShop();
    await verify(shop.organization.id, true);
    for (const payload of [
      { fiatPercent: 50, onchainPercent: 0, lightningPercent: 49 },
      { fiatPercent: 50.5, onchainPercent: 0, lightningPercent: 49.5 },
      { fiatPercent: -50, onchainPercent: 50, lightningPercent: 100 },
      { fiatPercent: 150, onchainPercent: -50, lightningPercent: 0 },
      { fiatPercent: '50', onchainPercent: 0, lightningPercent: 50 },
      { fiatPercent: 50, lightningPercent: 50 },
      {},
      [],
    ]) {
      const response = await putSplit(shop.admin, payload);
      expect(response.statusCode, JSON.stringify(payload)).toBe(400);
    }
    expect((await getSplit(shop.admin)).json<PayoutSplitSettings>()).toMatchObject({ lightningPercent: 100 });
  });

  it('needs a code in the mfa-code header when the admin has MFA on', async () => {
    const shop = await openShop();
    await verify(shop.organization.id, true);
    const enable = await t.app.inject({ method: 'POST', url: '/api/settings/mfa/enable', headers: shop.admin });
    const totp = new TOTP({ secret: Secret.fromBase32(enable.json<MfaEnrollment>().secret) });
    const validate = await t.app.inject({
      method: 'POST',
      url: '/api/settings/mfa/validate',
      headers: shop.admin,
      payload: { code: totp.generate() },
    });
    expect(validate.statusCode, validate.body).toBe(204);

    const without = await putSplit(shop.admin, HALF_FIAT);
    expect([without.statusCode, without.json<ErrorResponse>().code]).toEqual([400, 'MissingMfaCode']);
    const wrong = await putSplit({ ...shop.admin, 'mfa-code': '000000' }, HALF_FIAT);
    expect(wrong.json<ErrorResponse>().code).toBe('WrongMfaCode');
    expect((await getSplit(shop.admin)).json<PayoutSplitSettings>()).toMatchObject({ fiatPercent: 0 });

    // The validate used the current step's code; the next step's is the one still unused.
    const code = totp.generate({ timestamp: Date.now() + 30_000 });
    const changed = await putSplit({ ...shop.admin, 'mfa-code': code }, HALF_FIAT);
    expect(changed.statusCode, changed.body).toBe(200);
    expect(changed.json<PayoutSplitSettings>()).toMatchObject(HALF_FIAT);
  });
});

describe('settling with the split in force', () => {
  it('stores a 50 % fiat sale’s conversion fee and fiat income, and the dashboard and CSV show them', async () => {
    const shop = await openShop();
    await verify(shop.organization.id, true);
    expect((await putSplit(shop.admin, HALF_FIAT)).statusCode).toBe(200);

    const row = await sell(shop.bpt, shop.admin, '100.00');
    // $100.00 at $95,000 per BTC = 105,263.16 sats → 105,263,000 msat. 1 % fee: 1,052,630; net
    // 104,210,370, half of it 52,105,185 to fiat, of which 1 % (521,051.85 → 521,052, half up)
    // converts it; 51,584,133 msat at the locked rate is $49.0049…, rounded down to $49.00.
    expect(row).toMatchObject({
      total_msat: '105263000',
      tx_fee_msat: '1052630',
      conversion_fee_msat: '521052',
      income_msat: '103689318',
      fiat_bps: 5000,
      onchain_bps: 0,
      lightning_bps: 5000,
      fiat_msat: '51584133',
      onchain_msat: '0',
      lightning_msat: '52105185',
      fiat_income_minor: '4900',
    });

    const sums = await t.app.inject({ method: 'GET', url: '/api/dashboard/transactions/sum', headers: shop.admin });
    expect(sums.json<TransactionSums>()).toEqual({
      msatsToDisburse: 52_105_185,
      receiveMsat: 105_263_000,
      fiatToDisburse: '49.00',
      receiveFiat: '100.00',
      currency: 'USD',
    });
    const page = await t.app.inject({ method: 'GET', url: '/api/dashboard/transactions', headers: shop.admin });
    expect(page.json<TransactionPage>().transactions[0]).toMatchObject({
      conversionFeeMsat: 521_052,
      fiatIncome: '49.00',
      fiatPercentage: 50,
      msatIncome: 103_689_318,
    });

    const csv = await t.app.inject({ method: 'GET', url: '/api/dashboard/transactions/csv', headers: shop.admin });
    const [header = '', line = ''] = csv.body.split('\r\n');
    const cells = Object.fromEntries(header.split(',').map((name, index) => [name, line.split(',')[index]]));
    expect(cells).toMatchObject({
      'Transaction id': row.payment_hash,
      'Msats income': '103689318',
      'Fiat income': '49.00',
      'Tx fee msats': '1052630',
      'Conversion fee msats': '521052',
      'Fiat percentage': '50.00',
    });
  });

  it('keeps each sale’s split when the split changes later', async () => {
    const shop = await openShop();
    await verify(shop.organization.id, true);
    await putSplit(shop.admin, { fiatPercent: 20, onchainPercent: 30, lightningPercent: 50 });
    const before = await sell(shop.bpt, shop.admin, '25.00');
    await putSplit(shop.admin, { fiatPercent: 0, onchainPercent: 0, lightningPercent: 100 });
    const after = await sell(shop.bpt, shop.admin, '25.00');

    const stored = await t.db
      .selectFrom('transactions')
      .select(['payment_hash', 'fiat_bps', 'onchain_bps', 'lightning_bps', 'conversion_fee_msat'])
      .where('organization_id', '=', shop.organization.id)
      .execute();
    const byHash = new Map(stored.map((sale) => [sale.payment_hash, sale]));
    expect(byHash.get(before.payment_hash)).toMatchObject({ fiat_bps: 2000, onchain_bps: 3000, lightning_bps: 5000 });
    expect(BigInt(byHash.get(before.payment_hash)?.conversion_fee_msat ?? '0')).toBeGreaterThan(0n);
    expect(byHash.get(after.payment_hash)).toMatchObject({
      fiat_bps: 0,
      onchain_bps: 0,
      lightning_bps: 10_000,
      conversion_fee_msat: '0',
    });
  });

  it('pays the fiat part of a sale priced in SAT in Lightning: there is no fiat rate to convert at', async () => {
    const shop = await openShop();
    await verify(shop.organization.id, true);
    await putSplit(shop.admin, { fiatPercent: 50, onchainPercent: 20, lightningPercent: 30 });
    const row = await sell(await shop.bptIn('SAT'), shop.admin, '10000');
    expect(row).toMatchObject({
      fiat_bps: 0,
      onchain_bps: 2000,
      lightning_bps: 8000,
      fiat_msat: '0',
      conversion_fee_msat: '0',
      fiat_income_minor: '0',
    });
  });
});
