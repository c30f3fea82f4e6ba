import { randomBytes, randomUUID } from 'node:crypto';
import { once } from 'node:events';
import http from 'node:http';
import net, { type AddressInfo } from 'node:net';
import {
  type Bpt,
  DEVELOPER_TOKEN_PREFIX,
  type DeveloperTokenScope,
  type Invoice,
  type MfaChallenge,
  type MfaEnrollment,
  type Role,
} from '@rayo/shared';
import Fastify from 'fastify';
import { decodeJwt } from 'jose';
import { Secret, TOTP } from 'otpauth';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type SmtpInbox, startSmtpInbox } from '../../test/fakes/smtp-inbox.ts';
import { isApiRoute, registeredRoutes } from '../../test/registered-routes.ts';
import { ecwidEncryptGcm, startEcwidStandIn, startShopifyStandIn } from '../../test/shop-standins.ts';
import {
  bearer,
  createTestAccount,
  createTestApp,
  createTestOrganization,
  createTestUser,
  signIn,
  TEST_PASSWORD,
  type TestApp,
} from '../../test/test-app.ts';
import { fileUpload, tinyPdf, tinyPng } from '../../test/upload-files.ts';
import { waitFor } from '../../test/wait-for.ts';
import { buildBatch, signBatch } from '../domain/onchain-batch.ts';
import { accountKeyFromSeed, deriveWalletAddress } from '../domain/onchain-wallet.ts';
import { shopifyHmac } from '../domain/shopify-hmac.ts';
import { sha256Hex } from '../modules/auth/tokens.ts';
import { insertDeveloperToken } from '../modules/settings/developer-tokens.repo.ts';
import { insertDestinationChange } from '../modules/settings/payout-destination-changes.repo.ts';
import { countTransactionsForPayment } from '../modules/transactions/transactions.repo.ts';
import { findUserById } from '../modules/users/users.repo.ts';
import { registerAccessControl } from './access.ts';
import { registerErrorHandler } from './error-handler.ts';
import { developerScopesOf, type Permission, permissions } from './permissions.ts';

/**
 * Walks every API route as every kind of caller and checks each answer against the permission
 * table: 401 without a token, 403 for a role the table leaves out, 404 (or the line's `outside`)
 * for another organization's resource or a manager's unlinked one, and otherwise success. Each
 * call names organization A's resources, and sends a body that succeeds when the caller may.
 */

type CallerKind =
  | 'anonymous'
  | 'linked manager'
  | 'unlinked manager'
  | 'admin'
  | 'other organization admin'
  | 'back office'
  | 'super admin'
  | 'admin not onboarded'
  | 'checkouts token'
  | 'read-only token'
  | 'full token';

type TestUser = { id: string; email: string; role: Role };

type Caller = {
  kind: CallerKind;
  role: Role | null;
  /** Organization A, where every request's resources are; B is another one. */
  organization: 'A' | 'B' | null;
  /** For managers: linked to the account the resources are on. */
  linked: boolean;
  /** The access token of organization A's admin's developer token of this scope. */
  developerScope?: DeveloperTokenScope;
  userId: string | null;
  headers: Record<string, string>;
};

/** A request for one route: values for its path parameters, then query and body. */
type Sample = {
  params?: Record<string, string>;
  query?: Record<string, string>;
  body?: unknown;
  headers?: Record<string, string>;
  stream?: true;
  /** Undoes what a successful call changed that later calls rely on. */
  cleanup?: () => Promise<unknown>;
};

let t: TestApp;
let base: string;
let f: Awaited<ReturnType<typeof createFixtures>>;
let callers: Caller[];
let inbox: SmtpInbox;

async function freePort(): Promise<number> {
  const server = net.createServer().listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  server.close();
  await once(server, 'close');
  return port;
}

async function createFixtures() {
  const orgA = await createTestOrganization(t.db, 'Org A');
  const orgB = await createTestOrganization(t.db, 'Org B');
  // Of the users the sign-in samples make: a payout destination change of A mails each of A's
  // admins, one SMTP session each, so A keeps only the admins the callers are.
  const orgC = await createTestOrganization(t.db, 'Org C');
  const account = await createTestAccount(t.db, orgA.id, 'Main counter');
  const otherAccount = await createTestAccount(t.db, orgA.id, 'Terrace');
  await createTestAccount(t.db, orgB.id, 'B counter');
  const users = {
    admin: await createTestUser(t.db, { role: 'admin', organizationId: orgA.id }),
    superAdmin: await createTestUser(t.db, { role: 'super_admin', organizationId: orgA.id }),
    linkedManager: await createTestUser(t.db, { role: 'manager', organizationId: orgA.id, accountIds: [account.id] }),
    unlinkedManager: await createTestUser(t.db, {
      role: 'manager',
      organizationId: orgA.id,
      accountIds: [otherAccount.id],
    }),
    otherAdmin: await createTestUser(t.db, { role: 'admin', organizationId: orgB.id }),
    backOffice: await createTestUser(t.db, { role: 'back_office', organizationId: null }),
    // Signed up and confirmed, but has not created their organization yet.
    newAdmin: await createTestUser(t.db, { role: 'admin', organizationId: null }),
  };
  const token = async (user: { email: string }) => bearer((await signIn(t.app, user.email, TEST_PASSWORD)).accessToken);
  const admin = await token(users.admin);

  async function post<T>(url: string, payload: object): Promise<T> {
    const response = await t.app.inject({ method: 'POST', url, headers: admin, payload });
    expect(response.statusCode, `${url}: ${response.body}`).toBeLessThan(300);
    return response.json<T>();
  }
  const newBpt = () =>
    post<Bpt>('/api/bpts', { name: 'Till', accountId: account.id, currency: 'GTQ', shareable: true });
  const bpt = await newBpt();
  const newInvoice = () => post<Invoice>(`/api/bpts/${bpt.id}/invoices`, { amount: '10.00' });
  const newWithdrawLink = async () => (await post<{ lnurl: string }>('/api/devnet/lnurl-withdraw', {})).lnurl;
  const newCloseSchedule = () =>
    post<{ id: string }>('/api/close/schedules', { account: 'all', frequency: 'daily', time: '18:00' });
  const newPaidInvoice = async () => {
    const invoice = await newInvoice();
    await post('/api/devnet/pay', { paymentRequest: invoice.paymentRequest });
    await waitFor(async () => (await countTransactionsForPayment(t.db, invoice.paymentHash)) === 1);
    return invoice;
  };
  const newReceiptToken = async () => {
    const { id } = await newPaidInvoice();
    return (await t.app.inject({ method: 'GET', url: `/api/invoices/${id}/receipt` })).json<{ token: string }>().token;
  };

  return {
    orgA,
    orgC,
    account,
    bpt,
    invoice: await newInvoice(),
    /** A manager of A who is only ever acted on, never a caller. */
    manager: await createTestUser(t.db, { role: 'manager', organizationId: orgA.id, accountIds: [account.id] }),
    users,
    token,
    newBpt,
    newInvoice,
    newPaidInvoice,
    newReceiptToken,
    newWithdrawLink,
    newCloseSchedule,
  };
}

/**
 * Starts MFA afresh for the user signed in with `headers` (none for anonymous callers): pending
 * after `enable`, on after `validate` with the current code. Returns the secret's next code,
 * which the validate did not use up, and a recovery code.
 */
async function mfaFor(headers: Record<string, string>, validate: boolean) {
  if (!headers.authorization) return { nextCode: '000000', currentCode: '000000', recoveryCode: 'none' };
  const userId = String(decodeJwt(headers.authorization.slice('Bearer '.length)).sub);
  await t.db.deleteFrom('user_mfa').where('user_id', '=', userId).execute();
  const enable = await t.app.inject({ method: 'POST', url: '/api/settings/mfa/enable', headers });
  // A developer token may not turn MFA on: its codes fit nothing, as an anonymous caller's.
  if (enable.statusCode !== 200) return { nextCode: '000000', currentCode: '000000', recoveryCode: 'none' };
  const { secret, recoveryCodes } = enable.json<MfaEnrollment>();
  const totp = new TOTP({ secret: Secret.fromBase32(secret) });
  const currentCode = totp.generate();
  if (validate) {
    const payload = { code: currentCode };
    await t.app.inject({ method: 'POST', url: '/api/settings/mfa/validate', headers, payload });
  }
  return { nextCode: totp.generate({ timestamp: Date.now() + 30_000 }), currentCode, recoveryCode: recoveryCodes[0] };
}

/** The sign-in challenge of a new admin (of C) with MFA on, and what answers it. */
async function mfaSignIn() {
  const user = await createTestUser(t.db, { role: 'admin', organizationId: f.orgC.id });
  const codes = await mfaFor(await f.token(user), true);
  const payload = { email: user.email, password: TEST_PASSWORD };
  const challenge = await t.app.inject({ method: 'POST', url: '/api/auth/signin', payload });
  return { mfaToken: challenge.json<MfaChallenge>().mfaToken, ...codes };
}

/** A change of A's on-chain address that changes nothing when cancelled, and its cancel link's secret. */
async function destinationChangeOfA(): Promise<{ id: string; token: string }> {
  const current = await t.db
    .selectFrom('organizations')
    .select(['onchain_address', 'crypto_verified'])
    .where('id', '=', f.orgA.id)
    .executeTakeFirstOrThrow();
  const token = randomBytes(32).toString('base64url');
  const change = await insertDestinationChange(t.db, {
    organizationId: f.orgA.id,
    kind: 'onchain',
    before: current.onchain_address,
    beforeVerified: current.crypto_verified,
    after: current.onchain_address ?? 'bcrt1qcr8te4kr609gcawutmrza0j4xv80jy8zeqchgx',
    changedByUserId: f.users.admin.id,
    changedByEmail: null,
    cancelTokenHash: sha256Hex(token),
  });
  return { id: change.id, token };
}

let mailed = 0;

/** Asks for the mail `send` triggers to a new address, and answers the address and the mail's text. */
async function mailTo(send: (email: string) => Promise<unknown>) {
  const email = `mail-${++mailed}@example.com`;
  const since = inbox.mails.length;
  await send(email);
  return { email, text: (await inbox.waitForMail(email, { since })).text };
}

function post(url: string, payload: object) {
  return t.app.inject({ method: 'POST', url, payload });
}

let lnurlpHost: Promise<string> | undefined;

/** `host:port` of a LUD-16 service on 127.0.0.1 that answers a payRequest for any name. */
function lightningAddressHost(): Promise<string> {
  lnurlpHost ??= (async () => {
    const server = http.createServer((_request, response) => {
      const metadata = JSON.stringify([['text/plain', 'Pay the shop']]);
      const payRequest = {
        tag: 'payRequest',
        callback: 'https://example.com/cb',
        minSendable: 1000,
        maxSendable: 1e9,
        metadata,
      };
      response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(payRequest));
    });
    server.listen(0, '127.0.0.1').unref();
    await once(server, 'listening');
    return `127.0.0.1:${(server.address() as AddressInfo).port}`;
  })();
  return lnurlpHost;
}

/** A new webhook endpoint of organization A. */
async function webhookEndpointOfA(): Promise<string> {
  const row = await t.db
    .insertInto('webhook_endpoints')
    .values({
      organization_id: f.orgA.id,
      url: 'https://shop.example/hooks',
      secret_sealed: 'x',
      events: ['checkout.paid'],
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

const BANK_ACCOUNT = {
  bank: 'Banco Industrial',
  accountName: 'Org A',
  accountNumber: 'GT82TRAJ01020000001210029690',
  accountType: 'checking',
  currency: 'GTQ',
};

/** A new KYB document of organization A, stored as an upload stores it. */
async function kybDocumentOfA(): Promise<string> {
  const bytes = tinyPdf();
  const row = await t.db
    .insertInto('kyb_documents')
    .values({
      organization_id: f.orgA.id,
      file_name: 'kyb.pdf',
      content_type: 'application/pdf',
      bytes,
      size: bytes.length,
      sha256: 'x',
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

/** A new virtual BPT of organization A, selling for its terminal on the linked manager's account. */
async function virtualBptOfA(): Promise<string> {
  const row = await t.db
    .insertInto('virtual_bpts')
    .values({ organization_id: f.orgA.id, bpt_id: f.bpt.id, name: 'Web' })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

let walkVirtualBpt: Promise<string> | undefined;

let shopify: Awaited<ReturnType<typeof startShopifyStandIn>>;
let ecwid: Awaited<ReturnType<typeof startEcwidStandIn>>;
const WALK_SHOP = 'walk-a.myshopify.com';
const WALK_SHOP_APP = { clientId: '5e6f7a8b9c0d1e2f3a4b5c6d7e8f9a0b', clientSecret: 'shpss_walk_client_secret_0123' };
const WALK_ECWID_STORE = '4242';
const WALK_ECWID_SECRET = 'WalkEcwidSecret16-rest';
const WALK_ECWID_TOKEN = 'secret_walkEcwidToken';

/** A's store on `platform`, saved directly (as the connect routes would) when it has none. */
async function shopOfA(platform: 'shopify' | 'ecwid'): Promise<void> {
  const existing = await t.db
    .selectFrom('shop_connections')
    .select('id')
    .where('organization_id', '=', f.orgA.id)
    .where('platform', '=', platform)
    .executeTakeFirst();
  if (existing) return;
  const id = randomUUID();
  const secret = platform === 'shopify' ? WALK_SHOP_APP.clientSecret : WALK_ECWID_SECRET;
  await t.db
    .insertInto('shop_connections')
    .values({
      id,
      organization_id: f.orgA.id,
      platform,
      shop: platform === 'shopify' ? WALK_SHOP : WALK_ECWID_STORE,
      shop_name: 'Walk',
      virtual_bpt_id: await sharedVirtualBptOfA(),
      secret_sealed: t.runtime.deps.mfaCipher.seal(secret, `shop:${id}`),
      ...(platform === 'shopify'
        ? {
            client_id_sealed: t.runtime.deps.mfaCipher.seal(WALK_SHOP_APP.clientId, `shop-client-id:${id}`),
            webhook_secret_sealed: t.runtime.deps.mfaCipher.seal(WALK_SHOP_APP.clientSecret, `shop-webhook:${id}`),
          }
        : {}),
    })
    .execute();
}

/** The one virtual BPT of A whose payment links the walk lists and adds to. */
function sharedVirtualBptOfA(): Promise<string> {
  walkVirtualBpt ??= virtualBptOfA();
  return walkVirtualBpt;
}

/** A new store checkout of organization A. */
async function storeCheckoutOfA(): Promise<string> {
  const row = await t.db
    .insertInto('checkouts')
    .values({
      organization_id: f.orgA.id,
      virtual_bpt_id: await sharedVirtualBptOfA(),
      kind: 'store',
      description: 'Walk order',
      amount_currency: 'GTQ',
      amount_minor: 1000n,
      expires_at: new Date(Date.now() + 600_000),
      order_id: `walk-${randomUUID()}`,
      redirect_url: null,
      metadata: null,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

/** A new payment link of organization A, on a new virtual BPT so that it is never a duplicate. */
/** A sale of A paid from the devnet wallet and recorded in the ledger: its transaction's id. */
async function paidSaleOfA(): Promise<string> {
  const invoice = await f.newInvoice();
  const paid = await t.app.inject({
    method: 'POST',
    url: '/api/devnet/pay',
    payload: { paymentRequest: invoice.paymentRequest },
  });
  expect(paid.statusCode, paid.body).toBe(200);
  const row = await waitFor(() =>
    t.db.selectFrom('transactions').select('id').where('invoice_id', '=', invoice.id).executeTakeFirst(),
  );
  return row.id;
}

/** An open refund link of a sale of A: its k1. */
async function refundLinkOfA(): Promise<string> {
  const k1 = randomBytes(32).toString('hex');
  const transactionId = await paidSaleOfA();
  await t.db
    .insertInto('refunds')
    .values({
      organization_id: f.orgA.id,
      transaction_id: transactionId,
      amount_msat: 1000n,
      fiat_minor: 0n,
      currency: 'GTQ',
      method: 'lnurl-withdraw',
      idempotency_key: k1,
      k1,
    })
    .execute();
  return k1;
}

async function paymentLinkOfA(): Promise<string> {
  const row = await t.db
    .insertInto('checkouts')
    .values({
      organization_id: f.orgA.id,
      virtual_bpt_id: await virtualBptOfA(),
      kind: 'payment_link',
      description: 'Walk',
      amount_currency: 'GTQ',
      amount_minor: 1000n,
      expires_at: null,
      order_id: null,
      redirect_url: null,
      metadata: null,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

/** A new donation link of organization A, taking any amount. */
async function donationLinkOfA(): Promise<string> {
  const row = await t.db
    .insertInto('donation_links')
    .values({
      organization_id: f.orgA.id,
      virtual_bpt_id: await sharedVirtualBptOfA(),
      title: 'Walk',
      description: '',
      amount_msat: null,
      comment_allowed: 140,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

let walkDonationLink: Promise<string> | undefined;

/** The donation link of A that the walk donates to and names its Lightning address after. */
function sharedDonationLinkOfA(): Promise<string> {
  walkDonationLink ??= donationLinkOfA();
  return walkDonationLink;
}

/** A's Lightning address, set again each time since the walk also removes it. */
async function donationAddressOfA(): Promise<string> {
  await t.db
    .insertInto('donation_addresses')
    .values({ organization_id: f.orgA.id, username: 'org-a', donation_link_id: await sharedDonationLinkOfA() })
    .onConflict((oc) => oc.column('organization_id').doNothing())
    .execute();
  return 'org-a';
}

/** An on-chain payout batch waiting for the operator, and its transaction as the operator's wallet signs it. */
async function awaitingBatch(): Promise<{ id: string; signed: string }> {
  const wallet = accountKeyFromSeed(randomBytes(32));
  const coin = {
    txid: randomBytes(32).toString('hex'),
    vout: 0,
    valueSats: 50_000n,
    address: deriveWalletAddress(wallet, 0, 0, 'regtest'),
    change: 0 as const,
    index: 0,
  };
  const built = buildBatch({
    account: wallet,
    origin: { fingerprint: wallet.fingerprint, path: [] },
    utxos: [coin],
    recipients: [
      { organizationId: f.orgA.id, destination: deriveWalletAddress(wallet, 0, 1, 'regtest'), sats: 10_000n },
    ],
    feeRate: 1n,
    changeIndex: 0,
    network: 'regtest',
  });
  const row = await t.db
    .insertInto('onchain_payout_batches')
    .values({
      state: 'awaiting_signature',
      txid: built.txid,
      psbt: built.psbt,
      fee_sats: built.feeSats,
      fee_rate_sat_per_kvb: 1000n,
      vsize: built.vsize,
      inputs: JSON.stringify([{ ...coin, valueSats: coin.valueSats.toString() }]),
      change_sats: built.changeSats,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return { id: row.id, signed: signBatch(built.psbt, wallet, built.inputs) };
}

const samples: Record<string, (caller: Caller) => Sample | Promise<Sample>> = {
  'GET /api/health': () => ({}),
  'GET /api/ready': () => ({}),
  'GET /api/public-config': () => ({}),
  'GET /api/countries': () => ({}),
  'GET /api/currencies': () => ({}),

  'POST /api/auth/signin': () => ({ body: { email: f.users.admin.email, password: TEST_PASSWORD } }),
  'POST /api/auth/refresh-access-token': async () => ({
    body: { refreshToken: (await signIn(t.app, f.users.admin.email, TEST_PASSWORD)).refreshToken },
  }),
  'POST /api/auth/logout': async () => ({
    body: { refreshToken: (await signIn(t.app, f.users.admin.email, TEST_PASSWORD)).refreshToken },
  }),
  'POST /api/auth/signup': () => ({ body: { email: `signup-${++mailed}@example.com`, password: TEST_PASSWORD } }),
  // An address that signed up and has not confirmed: signing up again mails it a new link without
  // hashing a password (the confirmation sets the one typed with it), one scrypt less per caller.
  'POST /api/auth/confirm-email': async () => {
    const { text } = await mailTo(async (email) => {
      const user = await createTestUser(t.db, { role: 'admin', organizationId: null, email });
      await t.db.updateTable('users').set({ email_confirmed_at: null }).where('id', '=', user.id).execute();
      return post('/api/auth/signup', { email, password: TEST_PASSWORD });
    });
    const code = new URL(/https?:\/\/\S+/.exec(text)?.[0] ?? '').searchParams.get('code');
    return { body: { code, password: TEST_PASSWORD } };
  },
  'POST /api/auth/forgot-password': () => ({ body: { email: f.users.admin.email } }),
  'POST /api/auth/confirm-forgot-password': async () => {
    const { email, text } = await mailTo(async (email) => {
      await createTestUser(t.db, { role: 'admin', organizationId: f.orgC.id, email });
      return post('/api/auth/forgot-password', { email });
    });
    return { body: { email, code: /\b(\d{6})\b/.exec(text)?.[1], password: TEST_PASSWORD } };
  },
  // Only the admin without an organization succeeds; they are put back as they were.
  'POST /api/onboard': () => ({
    body: { name: 'New Shop', countryCode: 'GT', language: 'en', currency: 'GTQ' },
    cleanup: () =>
      t.db.updateTable('users').set({ organization_id: null }).where('id', '=', f.users.newAdmin.id).execute(),
  }),

  // The caller's own password, set to itself so that later sign-ins still work. A change ends
  // every session of the user, whose other callers' access tokens the later samples still use.
  'POST /api/settings/password': async (caller) => {
    const user = caller.userId === null ? undefined : await findUserById(t.db, caller.userId);
    return {
      body: { currentPassword: TEST_PASSWORD, newPassword: TEST_PASSWORD },
      cleanup: async () => {
        if (user)
          await t.db
            .updateTable('users')
            .set({ session_epoch: user.session_epoch })
            .where('id', '=', user.id)
            .execute();
      },
    };
  },

  'GET /api/settings/mfa': () => ({}),
  'POST /api/settings/mfa/enable': () => ({}),
  // Validate turns the caller's MFA on and disable, the next line, off again, so that later
  // samples still sign in with a password alone.
  'POST /api/settings/mfa/validate': async (caller) => {
    const { currentCode } = await mfaFor(caller.headers, false);
    return { body: { code: currentCode } };
  },
  'POST /api/settings/mfa/disable': async (caller) => ({
    headers: { 'mfa-code': (await mfaFor(caller.headers, true)).nextCode },
  }),
  'GET /api/settings/payout-split': () => ({}),
  // Back office has verified every field of the caller's organization, as a split change needs;
  // the split stays all Lightning, as it was.
  'PUT /api/settings/payout-split': async (caller) => {
    const user = caller.userId
      ? await t.db.selectFrom('users').select('organization_id').where('id', '=', caller.userId).executeTakeFirst()
      : undefined;
    if (user?.organization_id) {
      await t.db
        .updateTable('organizations')
        .set({
          bank_verified: true,
          crypto_verified: true,
          disbursement_address_verified: true,
          conversion_address_verified: true,
          kyb_verified: true,
        })
        .where('id', '=', user.organization_id)
        .execute();
    }
    return { body: { fiatPercent: 0, onchainPercent: 0, lightningPercent: 100 } };
  },
  'PUT /api/settings/language': () => ({ body: { language: 'en' } }),
  'GET /api/settings/developer-tokens': () => ({}),
  // Revoked again at once, so the walk never reaches the organization's limit.
  'POST /api/settings/developer-tokens': () => ({
    body: { name: 'Walk' },
    cleanup: () => t.db.updateTable('developer_tokens').set({ revoked_at: new Date() }).execute(),
  }),
  'DELETE /api/settings/developer-tokens/:id': async () => {
    const token = await insertDeveloperToken(t.db, {
      organizationId: f.orgA.id,
      userId: f.users.admin.id,
      name: null,
      scope: 'checkouts',
      tokenHash: randomUUID(),
      expiresAt: new Date(Date.now() + 60_000),
    });
    return { params: { id: token.id } };
  },
  'GET /api/donation-links': () => ({}),
  'POST /api/donation-links': async () => ({ body: { virtualBptId: await sharedVirtualBptOfA(), title: 'Tips' } }),
  'DELETE /api/donation-links/:id': async () => ({ params: { id: await donationLinkOfA() } }),
  'GET /api/donations': () => ({ query: { page: '1', pageSize: '5' } }),
  'GET /api/donations/lightning-address': () => ({}),
  'PUT /api/donations/lightning-address': async () => ({
    body: { username: 'org-a', donationLinkId: await sharedDonationLinkOfA() },
  }),
  'DELETE /api/donations/lightning-address': () => ({}),
  'GET /api/public/donation-links/:id': async () => ({ params: { id: await sharedDonationLinkOfA() } }),
  // A link of its own: the walk's LNURL callbacks, from the same address, spend the shared link's budget.
  'POST /api/public/donation-links/:id/invoices': async () => ({
    params: { id: await donationLinkOfA() },
    body: { amountSats: 10, comment: 'Walk' },
  }),
  'GET /api/lnurlp/:id': async () => ({ params: { id: await sharedDonationLinkOfA() } }),
  'GET /api/lnurlw/refunds/:k1': async () => ({ params: { k1: await refundLinkOfA() } }),
  'GET /api/lnurlw/refunds/:k1/callback': async () => ({ params: { k1: await refundLinkOfA() } }),
  'GET /api/lnurlp/:id/callback': async () => ({
    params: { id: await sharedDonationLinkOfA() },
    query: { amount: '10000' },
  }),
  'GET /api/lnurlp/addresses/:name/callback': async () => ({
    params: { name: await donationAddressOfA() },
    query: { amount: '10000' },
  }),
  'GET /api/webhooks': () => ({}),
  // Deleted again at once, so the walk never reaches the organization's limit.
  'POST /api/webhooks': () => ({
    body: { url: 'https://shop.example/hooks', events: ['checkout.paid'] },
    cleanup: () => t.db.updateTable('webhook_endpoints').set({ active: false }).execute(),
  }),
  'DELETE /api/webhooks/:id': async () => ({ params: { id: await webhookEndpointOfA() } }),
  'POST /api/webhooks/:id/test': async () => ({ params: { id: await webhookEndpointOfA() } }),
  'GET /api/webhooks/deliveries': () => ({ query: { page: '1', limit: '5' } }),
  'POST /api/webhooks/deliveries/:id/redeliver': async () => {
    const endpointId = await webhookEndpointOfA();
    const delivery = await t.db
      .insertInto('webhook_deliveries')
      .values({ endpoint_id: endpointId, organization_id: f.orgA.id, type: 'checkout.paid', payload: '{}' })
      .returning('id')
      .executeTakeFirstOrThrow();
    return { params: { id: delivery.id } };
  },
  'GET /api/settings/banking-info/all': () => ({}),
  'GET /api/settings/banking-info-template': () => ({}),
  'GET /api/settings/country-currencies': () => ({}),
  // Organization A has no bank account until then, and none after.
  'POST /api/settings/banking-info': () => ({
    body: { bankingInfoMetadata: BANK_ACCOUNT },
    cleanup: () => t.db.deleteFrom('banking_info').where('organization_id', '=', f.orgA.id).execute(),
  }),
  'PUT /api/settings/banking-info/:bankingInfoId': async () => {
    const row = await t.db
      .insertInto('banking_info')
      .values({ organization_id: f.orgA.id, metadata: JSON.stringify(BANK_ACCOUNT) })
      .returning('id')
      .executeTakeFirstOrThrow();
    return {
      params: { bankingInfoId: row.id },
      body: { bankingInfoMetadata: { ...BANK_ACCOUNT, accountType: 'savings' } },
      cleanup: () => t.db.deleteFrom('banking_info').where('id', '=', row.id).execute(),
    };
  },
  'GET /api/settings/payout-addresses': () => ({}),
  'GET /api/settings/payouts': () => ({}),
  'PUT /api/settings/onchain-address': () => ({
    body: { onchainAddress: 'bcrt1qcr8te4kr609gcawutmrza0j4xv80jy8zeqchgx' },
  }),
  'PUT /api/settings/lightning-address': async () => ({
    body: { lightningAddress: `shop@${await lightningAddressHost()}` },
  }),
  'POST /api/settings/payout-destination-changes/:id/cancel': async () => ({
    params: { id: (await destinationChangeOfA()).id },
  }),
  'POST /api/public/payout-destination-changes/cancel': async () => ({
    body: { token: (await destinationChangeOfA()).token },
  }),
  'GET /api/settings/branding': () => ({}),
  'PUT /api/settings/branding': () => ({ body: { accentColor: '#0a7d5a' } }),
  'PUT /api/settings/branding/logo': () => {
    const upload = fileUpload(tinyPng(), 'logo.png', 'image/png');
    return { body: upload.payload, headers: upload.headers };
  },
  'DELETE /api/settings/branding/logo': () => ({}),
  'GET /api/settings/kyb-documents': () => ({}),
  'POST /api/settings/kyb-documents': () => {
    const upload = fileUpload(tinyPdf(), 'kyb.pdf', 'application/pdf');
    return { body: upload.payload, headers: upload.headers };
  },
  'GET /api/settings/kyb-documents/:id': async () => ({ params: { id: await kybDocumentOfA() } }),
  'DELETE /api/settings/kyb-documents/:id': async () => ({ params: { id: await kybDocumentOfA() } }),
  'GET /api/settings/checkout-protection': () => ({}),
  'PUT /api/settings/checkout-protection': () => ({ body: { enabled: false } }),
  'POST /api/auth/signin/mfa': async () => {
    const { mfaToken, nextCode } = await mfaSignIn();
    return { body: { mfaToken, code: nextCode } };
  },
  'POST /api/settings/mfa/recover': async () => {
    const { mfaToken, recoveryCode } = await mfaSignIn();
    return { body: { mfaToken, recoveryCode } };
  },

  'GET /api/organization/current': () => ({}),

  'GET /api/account/all': () => ({}),
  'GET /api/accounts': () => ({}),
  'POST /api/accounts': () => ({ body: { name: 'Another counter' } }),
  'PATCH /api/accounts/:id': () => ({ params: { id: f.account.id }, body: { name: 'Main counter' } }),
  // Outsiders aim at the account in use, whose answer (409) would tell them it exists.
  'DELETE /api/accounts/:id': async (caller) => ({
    params: { id: caller.organization === 'A' ? (await createTestAccount(t.db, f.orgA.id, 'Spare')).id : f.account.id },
  }),

  'GET /api/managers': () => ({}),
  'POST /api/managers': (caller) => ({
    body: {
      name: 'New Manager',
      email: `new-${caller.kind.replaceAll(' ', '-')}@example.com`,
      password: TEST_PASSWORD,
      accountIds: [f.account.id],
    },
  }),
  'PATCH /api/managers/:id': () => ({
    params: { id: f.manager.id },
    body: { name: 'Renamed Manager', accountIds: [f.account.id] },
  }),
  'DELETE /api/managers/:id': async () => ({
    params: { id: (await createTestUser(t.db, { role: 'manager', organizationId: f.orgA.id })).id },
  }),

  'GET /api/bpts': () => ({}),
  'POST /api/bpts': () => ({ body: { name: 'Till 2', accountId: f.account.id, currency: 'GTQ' } }),
  'PATCH /api/bpts/:id': () => ({ params: { id: f.bpt.id }, body: { name: 'Till' } }),
  'DELETE /api/bpts/:id': async () => ({ params: { id: (await f.newBpt()).id } }),
  'POST /api/bpts/:id/share-token': async () => ({ params: { id: (await f.newBpt()).id } }),
  'GET /api/bpts/:id/terminal': () => ({ params: { id: f.bpt.id } }),
  'POST /api/bpts/:id/invoices': () => ({ params: { id: f.bpt.id }, body: { amount: '1.00' } }),
  'GET /api/bpts/:id/transactions': () => ({ params: { id: f.bpt.id } }),

  'GET /api/virtual-bpts': () => ({}),
  // Another organization's admin names A's terminal from an organization that has one of its own,
  // so the answer is about the terminal, not 'A virtual BPT needs a BPT first'.
  'POST /api/virtual-bpts': async (caller) => {
    if (caller.organization === 'B') {
      const user = await t.db
        .selectFrom('users')
        .select('organization_id')
        .where('id', '=', caller.userId as string)
        .executeTakeFirstOrThrow();
      const organizationId = user.organization_id as string;
      const account = await t.db
        .selectFrom('accounts')
        .select('id')
        .where('organization_id', '=', organizationId)
        .executeTakeFirstOrThrow();
      await t.db
        .insertInto('bpts')
        .values({
          organization_id: organizationId,
          account_id: account.id,
          name: 'B till',
          channel: 'store',
          currency: 'GTQ',
        })
        .execute();
    }
    return { body: { name: 'Walk', bptId: f.bpt.id } };
  },
  'DELETE /api/virtual-bpts/:id': async () => ({ params: { id: await virtualBptOfA() } }),
  'GET /api/virtual-bpts/:id/payment-links': async () => ({
    params: { id: await sharedVirtualBptOfA() },
  }),
  'POST /api/virtual-bpts/:id/payment-links': async (caller) => ({
    params: { id: await sharedVirtualBptOfA() },
    body: { description: `Walk ${caller.kind}`, amount: '10', currency: 'GTQ' },
  }),
  'DELETE /api/payment-links/:id': async () => ({ params: { id: await paymentLinkOfA() } }),
  'GET /api/accounts/:id/payment-links': () => ({ params: { id: f.account.id } }),

  'GET /api/terminal/:token': () => ({ params: { token: f.bpt.shareToken as string } }),
  'POST /api/terminal/:token/invoices': () => ({
    params: { token: f.bpt.shareToken as string },
    body: { amount: '1' },
  }),
  'GET /api/terminal/:token/transactions': () => ({ params: { token: f.bpt.shareToken as string } }),

  // Organization A has a logo whenever its public address is asked for.
  'GET /api/public/organizations/:id/logo': async () => {
    const logo = tinyPng();
    await t.db
      .insertInto('organization_logos')
      .values({ organization_id: f.orgA.id, content_type: 'image/png', bytes: logo, size: logo.length, sha256: 'x' })
      .onConflict((oc) => oc.column('organization_id').doNothing())
      .execute();
    return { params: { id: f.orgA.id } };
  },

  'GET /api/invoices/:id': () => ({ params: { id: f.invoice.id } }),
  'GET /api/invoices/:id/events': () => ({ params: { id: f.invoice.id }, stream: true }),
  'GET /api/invoices/:id/receipt': async () => ({ params: { id: (await f.newPaidInvoice()).id } }),
  'GET /api/public/receipts/:token': async () => ({ params: { token: await f.newReceiptToken() } }),
  'GET /api/public/receipts/:token/pdf': async () => ({ params: { token: await f.newReceiptToken() } }),
  'POST /api/public/receipts/:token/email': async (caller) => ({
    params: { token: await f.newReceiptToken() },
    body: { email: `receipt-${caller.kind.replace(/\W/g, '-')}@example.com`, language: 'en' },
  }),
  'GET /api/public/checkouts/:id': async () => ({ params: { id: await paymentLinkOfA() } }),
  'GET /api/public/checkouts/:id/events': async () => ({ params: { id: await paymentLinkOfA() }, stream: true }),
  'POST /api/checkouts': async (caller) => ({
    body: { amount: '10', currency: 'GTQ', orderId: `walk-${caller.kind}`, virtualBptId: await sharedVirtualBptOfA() },
  }),
  'GET /api/checkouts/:id': async () => ({ params: { id: await storeCheckoutOfA() } }),
  'POST /api/public/virtual-bpts/:id/checkouts': async (caller) => ({
    params: { id: await sharedVirtualBptOfA() },
    body: { amount: '10', currency: 'GTQ', orderId: `walk-button-${caller.kind}` },
  }),
  'POST /api/invoices/:id/lnurl-withdraw': async () => ({
    params: { id: (await f.newInvoice()).id },
    body: { lnurl: await f.newWithdrawLink() },
  }),

  'GET /api/dashboard/transactions': () => ({ query: { account: f.account.id } }),
  'GET /api/dashboard/transactions/sum': () => ({ query: { account: f.account.id } }),
  'GET /api/dashboard/transactions/sum/:account': () => ({ params: { account: f.account.id } }),
  'GET /api/dashboard/transactions/series': () => ({ query: { account: f.account.id } }),
  'GET /api/dashboard/transactions/csv': () => ({ query: { account: f.account.id } }),
  'GET /api/close': () => ({ query: { day: '2026-11-27', account: f.account.id } }),
  'GET /api/close/csv': () => ({ query: { day: '2026-11-27', account: f.account.id } }),
  'GET /api/close/pdf': () => ({ query: { day: '2026-11-27', account: f.account.id } }),
  'GET /api/transactions/:id/refunds': async () => ({ params: { id: await paidSaleOfA() } }),
  'POST /api/transactions/:id/refunds': async (caller) => ({
    params: { id: await paidSaleOfA() },
    body: { amountMsat: 1000, idempotencyKey: `walk-${caller.kind}-${randomUUID()}` },
  }),
  'GET /api/close/schedules': () => ({}),
  'POST /api/close/schedules': () => ({
    body: { account: f.account.id, frequency: 'daily', time: '18:00', managers: false },
  }),
  'DELETE /api/close/schedules/:id': async () => ({ params: { id: (await f.newCloseSchedule()).id } }),

  'GET /api/back-office/organizations': () => ({ query: { search: 'Org', country: '-1' } }),
  'GET /api/back-office/organization/:id/admin': () => ({ params: { id: f.orgA.id } }),
  // Withdrawing a verification A never had, and unblocking an unblocked A, change nothing.
  'PUT /api/back-office/organization/:id/verification': () => ({
    params: { id: f.orgA.id },
    body: { field: 'bank', verified: false },
  }),
  'PUT /api/back-office/organization/:id/blocked': () => ({ params: { id: f.orgA.id }, body: { blocked: false } }),
  'GET /api/back-office/organization/:id/kyb-documents/:documentId': async () => {
    const document = await t.db
      .insertInto('kyb_documents')
      .values({
        organization_id: f.orgA.id,
        file_name: 'walk.pdf',
        content_type: 'application/pdf',
        bytes: Buffer.from('%PDF-1.4 walk'),
        size: 13,
        sha256: '0'.repeat(64),
        uploaded_by: null,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    return { params: { id: f.orgA.id, documentId: document.id } };
  },
  'GET /api/back-office/notification': () => ({}),
  'DELETE /api/back-office/notification/:id': async () => {
    const notice = await t.db
      .insertInto('notifications')
      .values({ organization_id: f.orgA.id, kind: 'organization.created', payload: '{}' })
      .returning('id')
      .executeTakeFirstOrThrow();
    return { params: { id: notice.id } };
  },
  'GET /api/back-office/audit/csv': () => ({ query: { start: '0', end: '86400' } }),
  'GET /api/back-office/organization/:id/unpaid-transactions': () => ({ params: { id: f.orgA.id } }),
  // Nothing named, nothing paid: the call succeeds and changes nothing the walk relies on.
  'POST /api/back-office/pay-transactions': () => ({ body: { transactionsIds: [] } }),
  'GET /api/back-office/organization/:id/transactions': () => ({ params: { id: f.orgA.id }, query: { page: '1' } }),
  'GET /api/back-office/organization/:id/payouts': () => ({ params: { id: f.orgA.id } }),
  // A fresh payout with no invoice, which nothing can be paying.
  'POST /api/back-office/payouts/:id/cancel': async () => {
    const payout = await t.db
      .insertInto('payouts')
      .values({
        organization_id: f.orgA.id,
        kind: 'lightning',
        destination: 'walk@example.com',
        amount_msat: 1_000_000n,
        fee_msat: 0n,
        idempotency_key: `walk:${randomUUID()}`,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    return { params: { id: payout.id } };
  },
  'GET /api/back-office/onchain-wallet': () => ({}),
  'POST /api/back-office/onchain-wallet/deposit-address': () => ({}),
  'POST /api/back-office/onchain-wallet/run': () => ({}),
  'GET /api/back-office/onchain-payouts': () => ({}),
  'GET /api/back-office/onchain-payouts/:id/psbt': async () => ({ params: { id: (await awaitingBatch()).id } }),
  // A fresh batch each time, since a batch takes its signature once; the devnet chain then
  // refuses the broadcast (its coin is made up), which the answer reports and the job retries.
  'POST /api/back-office/onchain-payouts/:id/signed': async () => {
    const batch = await awaitingBatch();
    return { params: { id: batch.id }, body: { transaction: batch.signed } };
  },
  'POST /api/back-office/onchain-payouts/:id/bump': async () => ({
    params: { id: (await awaitingBatch()).id },
    body: { feeRate: 5 },
  }),
  'GET /api/back-office/country/report': () => ({}),
  'GET /api/back-office/country/:id/report': () => ({ params: { id: '-1' } }),
  'GET /api/back-office/country/report/csv': () => ({}),
  'GET /api/back-office/country/:id/report/csv': () => ({ params: { id: '-1' } }),

  'POST /api/devnet/pay': async () => ({ body: { paymentRequest: (await f.newInvoice()).paymentRequest } }),
  'POST /api/devnet/expire': async () => ({ body: { paymentRequest: (await f.newInvoice()).paymentRequest } }),
  'POST /api/devnet/lnurl-withdraw': () => ({ body: {} }),
  'POST /api/devnet/withdraw': async () => ({ body: { lnurl: await f.newWithdrawLink(), amountMsat: 2000 } }),
  'GET /api/shops/shopify': () => ({}),
  'PUT /api/shops/shopify': async () => ({
    body: { shop: WALK_SHOP, ...WALK_SHOP_APP, virtualBptId: await sharedVirtualBptOfA() },
  }),
  'DELETE /api/shops/shopify': async () => {
    await shopOfA('shopify');
    return {};
  },
  'GET /api/shops/ecwid': () => ({}),
  'PUT /api/shops/ecwid': async () => ({
    body: {
      storeId: WALK_ECWID_STORE,
      clientSecret: WALK_ECWID_SECRET,
      secretToken: WALK_ECWID_TOKEN,
      virtualBptId: await sharedVirtualBptOfA(),
    },
  }),
  'DELETE /api/shops/ecwid': async () => {
    await shopOfA('ecwid');
    return {};
  },
  // A signed webhook of a topic Rayo acknowledges and ignores, a new delivery each time.
  'POST /api/public/shopify/webhooks': async () => {
    await shopOfA('shopify');
    const connection = await t.db
      .selectFrom('shop_connections')
      .select('id')
      .where('shop', '=', WALK_SHOP)
      .executeTakeFirstOrThrow();
    const secret = 'shpss_walk_webhook_secret_0123456789';
    await t.db
      .updateTable('shop_connections')
      .set({ webhook_secret_sealed: t.runtime.deps.mfaCipher.seal(secret, `shop-webhook:${connection.id}`) })
      .where('id', '=', connection.id)
      .execute();
    const body = JSON.stringify({ admin_graphql_api_id: 'gid://shopify/Order/1' });
    return {
      body,
      headers: {
        'content-type': 'application/json',
        'x-shopify-shop-domain': WALK_SHOP,
        'x-shopify-topic': 'orders/create',
        'x-shopify-webhook-id': randomUUID(),
        'x-shopify-hmac-sha256': shopifyHmac(Buffer.from(body), secret),
      },
    };
  },
  'GET /api/public/shopify/pay': async () => {
    await shopOfA('shopify');
    const order = shopify.addOrder(WALK_SHOP, {
      name: '#1',
      amount: '10.00',
      currencyCode: 'GTQ',
      statusPageUrl: 'https://walk-a.myshopify.com/orders/1',
    });
    return { query: { shop: WALK_SHOP, order } };
  },
  'POST /api/ecwid/payment': async (caller) => {
    await shopOfA('ecwid');
    const request = {
      storeId: Number(WALK_ECWID_STORE),
      returnUrl: 'https://app.ecwid.com/custompaymentapps/4242?orderId=1',
      token: 'secret_walk',
      cart: {
        currency: 'GTQ',
        order: { orderNumber: 1, referenceTransactionId: `walk_${randomUUID()}_${caller.kind}`, total: 10 },
      },
    };
    return {
      query: { storeId: WALK_ECWID_STORE },
      body: { enc_data: ecwidEncryptGcm(JSON.stringify(request), WALK_ECWID_SECRET) },
    };
  },
  'GET /api/devnet/chain': () => ({}),
  'POST /api/devnet/mine': () => ({ body: { blocks: 1 } }),
  'POST /api/devnet/send-onchain': () => ({
    body: { address: 'bcrt1qcr8te4kr609gcawutmrza0j4xv80jy8zeqchgx', sats: 1000 },
  }),
  'GET /api/devnet/lnurlw/:k1': async () => ({ params: { k1: (await f.newWithdrawLink()).split('/').pop() ?? '' } }),
  'GET /api/devnet/lnurlw/:k1/callback': async () => {
    const k1 = (await f.newWithdrawLink()).split('/').pop() ?? '';
    return { params: { k1 }, query: { k1, pr: (await f.newInvoice()).paymentRequest } };
  },
};

/** What the table says `caller` gets on a `method` route: a status, or any 2xx. */
function expectedAnswer(method: string, permission: Permission, caller: Caller): number | 'success' {
  const { who, scope } = permission;
  if (who === 'public') return 'success';
  if (caller.role === null) return 401;
  if (caller.developerScope && !developerScopesOf(method, permission).includes(caller.developerScope)) return 403;
  if (who === 'signed-in') return 'success';
  if (!who.includes(caller.role)) return 403;
  if (scope?.within === 'no-organization') return caller.organization === null ? 'success' : scope.outside;
  // Back office works across organizations and belongs to none.
  if (who.includes('back_office')) return 'success';
  // An organization's routes need one: OnboardingRequired.
  if (caller.organization === null) return 409;
  const outside =
    caller.organization !== 'A' || (scope?.within === 'linked-accounts' && caller.role === 'manager' && !caller.linked);
  if (scope && outside) return scope.outside ?? 404;
  return 'success';
}

async function call(route: string, caller: Caller): Promise<{ status: number; body: string }> {
  const [method = '', pattern = ''] = route.split(' ');
  const sampleOf = samples[route];
  if (!sampleOf) throw new Error(`${route} has no sample request`);
  const sample = await sampleOf(caller);
  const url = pattern.replace(/:(\w+)/g, (_, name: string) => {
    const value = sample.params?.[name];
    if (value === undefined) throw new Error(`${route}: the sample has no :${name}`);
    return encodeURIComponent(value);
  });
  const query = sample.query ? `?${new URLSearchParams(sample.query)}` : '';
  if (sample.stream) {
    // An event stream never ends by itself: read the status, then hang up.
    const controller = new AbortController();
    const response = await fetch(`${base}${url}${query}`, { headers: caller.headers, signal: controller.signal });
    controller.abort();
    return { status: response.status, body: '' };
  }
  const response = await t.app.inject({
    method: method as 'GET',
    url: `${url}${query}`,
    headers: { ...caller.headers, ...sample.headers },
    ...(sample.body === undefined ? {} : { payload: sample.body as object }),
  });
  await sample.cleanup?.();
  return { status: response.statusCode, body: response.body };
}

beforeAll(async () => {
  const port = await freePort();
  base = `http://127.0.0.1:${port}`;
  inbox = await startSmtpInbox();
  // Every sample signs in again; the sign-in limits have tests of their own.
  shopify = await startShopifyStandIn();
  shopify.addShop(WALK_SHOP, WALK_SHOP_APP, 'Walk');
  ecwid = await startEcwidStandIn();
  ecwid.addStore(WALK_ECWID_STORE, WALK_ECWID_TOKEN, 'Walk');
  t = await createTestApp(
    {
      PUBLIC_URL: base,
      // The Shopify sample is a stand-in on 127.0.0.1.
      SHOPIFY_SHOP_URL: shopify.shopUrl,
      ECWID_API_URL: ecwid.apiUrl,
      WEBHOOK_ALLOW_PRIVATE_HOSTS: 'true',
      SMTP_URL: inbox.url,
      SIGNIN_LIMIT_PER_EMAIL: '10000',
      SIGNIN_LIMIT_PER_IP: '10000',
      // The Lightning address sample is served on 127.0.0.1.
      LNURL_ALLOW_PRIVATE_HOSTS: 'true',
    },
    { jobs: true },
  );
  await t.app.listen({ host: '127.0.0.1', port });
  f = await createFixtures();
  const { users, token } = f;
  const caller =
    (kind: CallerKind, user: TestUser | null, organization: Caller['organization'], linked = false) =>
    async (): Promise<Caller> => ({
      kind,
      role: user?.role ?? null,
      organization,
      linked,
      userId: user?.id ?? null,
      headers: user ? await token(user) : {},
    });
  const developer = (kind: CallerKind, scope: DeveloperTokenScope) => async (): Promise<Caller> => {
    const token = `${DEVELOPER_TOKEN_PREFIX}walk-${randomBytes(16).toString('hex')}`;
    await insertDeveloperToken(t.db, {
      organizationId: f.orgA.id,
      userId: users.admin.id,
      name: kind,
      scope,
      tokenHash: sha256Hex(token),
      expiresAt: new Date(Date.now() + 3_600_000),
    });
    const exchanged = await t.app.inject({
      method: 'POST',
      url: '/api/auth/refresh-access-token',
      payload: { refreshToken: token },
    });
    return {
      kind,
      role: users.admin.role,
      organization: 'A',
      linked: false,
      userId: users.admin.id,
      developerScope: scope,
      headers: bearer(exchanged.json<{ accessToken: string }>().accessToken),
    };
  };
  callers = await Promise.all(
    [
      caller('anonymous', null, null),
      caller('linked manager', users.linkedManager, 'A', true),
      caller('unlinked manager', users.unlinkedManager, 'A'),
      caller('admin', users.admin, 'A'),
      caller('other organization admin', users.otherAdmin, 'B'),
      caller('back office', users.backOffice, null),
      caller('super admin', users.superAdmin, 'A'),
      caller('admin not onboarded', users.newAdmin, null),
      developer('checkouts token', 'checkouts'),
      developer('read-only token', 'read-only'),
      developer('full token', 'full'),
    ].map((make) => make()),
  );
});
afterAll(async () => {
  await t?.close();
  await inbox?.close();
  await shopify?.stop();
  await ecwid?.stop();
});

describe('the permission table', () => {
  it('has a line for every registered API route, and a route for every line', () => {
    const registered = registeredRoutes(t.app).filter(isApiRoute);
    expect(registered.length).toBeGreaterThan(0);
    expect(
      registered.filter((route) => !(route in permissions)),
      'routes without a line',
    ).toEqual([]);
    expect(
      Object.keys(permissions).filter((route) => !registered.includes(route)),
      'lines without a route',
    ).toEqual([]);
  });

  it('has a sample request for every line', () => {
    expect(Object.keys(permissions).filter((route) => !(route in samples))).toEqual([]);
  });

  it.each(Object.keys(permissions))('decides %s for every kind of caller', async (route) => {
    const permission = permissions[route] as Permission;
    const mismatches: string[] = [];
    // A public route does not look at a token, so a developer token's is an anonymous call again.
    const relevant = callers.filter((caller) => permission.who !== 'public' || caller.developerScope === undefined);
    for (const caller of relevant) {
      const expected = expectedAnswer(route.split(' ')[0] ?? '', permission, caller);
      const { status, body } = await call(route, caller);
      // A shop's public entry answers by redirecting the shopper's browser to the checkout it opened.
      const succeeded = (status >= 200 && status < 300) || (permission.who === 'public' && status === 303);
      const ok = expected === 'success' ? succeeded : status === expected;
      if (!ok) mismatches.push(`${caller.kind}: expected ${expected}, got ${status} ${body.slice(0, 200)}`);
      // What a caller outside organization A's account may list must not name it or its terminal;
      // back office sees every organization's.
      const outsider =
        (caller.organization !== 'A' && caller.kind !== 'back office') || caller.kind === 'unlinked manager';
      if (ok && outsider && permission.who !== 'public' && [f.account.id, f.bpt.id].some((id) => body.includes(id))) {
        mismatches.push(`${caller.kind}: the answer names the account or terminal it may not see`);
      }
      // Managers only read (SPEC §6): a share link charges without a session, so none of their answers carries one.
      if (caller.role === 'manager' && body.includes(f.bpt.shareToken as string)) {
        mismatches.push(`${caller.kind}: the answer carries a share token`);
      }
    }
    expect(mismatches).toEqual([]);
  });

  it('refuses an API route that has no line, even to a super admin', async () => {
    const app = Fastify({ logger: false });
    registerAccessControl(app, t.runtime.deps);
    registerErrorHandler(app);
    app.get('/api/not-in-the-table', async () => 'reached');
    const superAdmin = callers.find((caller) => caller.kind === 'super admin') as Caller;
    const response = await app.inject({ method: 'GET', url: '/api/not-in-the-table', headers: superAdmin.headers });
    expect(response.statusCode).toBe(403);
    expect(response.json()).toMatchObject({ code: 'Forbidden' });
    await app.close();
  });
});
