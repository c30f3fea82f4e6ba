import type { Account, Bpt, ErrorResponse, StoreCheckout, VirtualBpt } from '@rayo/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  bearer,
  createTestApp,
  createTestOrganization,
  createTestUser,
  signIn,
  type TestApp,
} from '../../../test/test-app.ts';

type Headers = { authorization: string };

let t: TestApp;

beforeAll(async () => {
  t = await createTestApp({ FIXED_RATES: 'GTQ=730000', PUBLIC_URL: 'https://pay.example.com' }, { jobs: false });
});
afterAll(() => t?.close());

async function call<T>(method: 'GET' | 'POST' | 'PUT', url: string, headers?: Headers, payload?: unknown) {
  const response = await t.app.inject({
    method,
    url,
    headers,
    ...(payload === undefined ? {} : { payload: payload as object }),
  });
  return { status: response.statusCode, body: response.json() as T };
}

async function openStore() {
  const organization = await createTestOrganization(t.db);
  const user = await createTestUser(t.db, { role: 'admin', organizationId: organization.id });
  const admin = bearer((await signIn(t.app, user.email, user.password)).accessToken);
  const account = (await call<Account>('POST', '/api/accounts', admin, { name: 'Online' })).body;
  const bpt = (await call<Bpt>('POST', '/api/bpts', admin, { name: 'Till', accountId: account.id, currency: 'GTQ' }))
    .body;
  const vbpt = (await call<VirtualBpt>('POST', '/api/virtual-bpts', admin, { name: 'Web shop', bptId: bpt.id })).body;
  const token = (await call<{ token: string }>('POST', '/api/settings/developer-tokens', admin, { name: 'Store' })).body
    .token;
  const exchanged = await call<{ accessToken: string }>('POST', '/api/auth/refresh-access-token', undefined, {
    refreshToken: token,
  });
  return { admin, bpt, vbpt, server: bearer(exchanged.body.accessToken) };
}

type Store = Awaited<ReturnType<typeof openStore>>;

function order(overrides: Record<string, unknown> = {}) {
  return { amount: '73.00', currency: 'GTQ', orderId: `A-${Math.random().toString(36).slice(2)}`, ...overrides };
}

async function protect(store: Store, enabled: boolean) {
  expect((await call('PUT', '/api/settings/checkout-protection', store.admin, { enabled })).status).toBe(200);
}

describe('POST /api/checkouts', () => {
  it('creates a store checkout with the developer token and answers the same one for a retried order', async () => {
    const store = await openStore();
    const body = order({
      redirectUrl: 'https://shop.example.com/thanks?order=1',
      metadata: { cart: [1, 2], customer: 'c_1' },
    });
    const created = await call<StoreCheckout>('POST', '/api/checkouts', store.server, body);
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({
      url: `https://pay.example.com/ecommerce/checkout/${created.body.id}`,
      status: 'awaiting_payment',
      orderId: body.orderId,
      virtualBptId: store.vbpt.id,
      amount: { currency: 'GTQ', value: '73.00' },
      redirectUrl: 'https://shop.example.com/thanks?order=1',
      metadata: { cart: [1, 2], customer: 'c_1' },
      paidVia: null,
    });
    expect(Date.parse(created.body.expiresAt as string)).toBeGreaterThan(Date.now());
    expect(Date.parse(created.body.expiresAt as string)).toBeLessThanOrEqual(Date.now() + 15 * 60_000);
    const later = await call<StoreCheckout>('POST', '/api/checkouts', store.server, order({ expiresInSeconds: 3600 }));
    expect(Date.parse(later.body.expiresAt as string)).toBeGreaterThan(Date.now() + 59 * 60_000);

    const again = await call<StoreCheckout>('POST', '/api/checkouts', store.server, body);
    expect(again.status).toBe(200);
    expect(again.body.id).toBe(created.body.id);
    const changed = await call<ErrorResponse>('POST', '/api/checkouts', store.server, { ...body, amount: '74.00' });
    expect(changed.status).toBe(409);
    expect(changed.body.code).toBe('OrderIdConflict');
    const inSats = await call<ErrorResponse>('POST', '/api/checkouts', store.server, {
      ...body,
      currency: 'SAT',
      amount: '7300',
    });
    expect(inSats.body.code).toBe('OrderIdConflict');

    const polled = await call<StoreCheckout>('GET', `/api/checkouts/${created.body.id}`, store.server);
    expect(polled.body).toEqual(created.body);
    const other = await openStore();
    expect((await call('GET', `/api/checkouts/${created.body.id}`, other.server)).status).toBe(404);
  });

  it('answers a retry only when every field sent is the same, whatever the order of metadata keys', async () => {
    const store = await openStore();
    const body = order({
      redirectUrl: 'https://shop.example.com/thanks?order=7',
      metadata: { cart: 'c_7', customer: { id: 7, tags: ['vip'] } },
      description: 'Two mugs',
      expiresInSeconds: 3600,
    });
    const created = await call<StoreCheckout>('POST', '/api/checkouts', store.server, body);
    expect(created.status).toBe(201);
    const reordered = { ...body, metadata: { customer: { tags: ['vip'], id: 7 }, cart: 'c_7' } };
    const retried = await call<StoreCheckout>('POST', '/api/checkouts', store.server, reordered);
    expect([retried.status, retried.body.id]).toEqual([200, created.body.id]);

    const changes: Array<[string, Record<string, unknown>]> = [
      ['redirectUrl', { redirectUrl: 'https://evil.example.net/thanks' }],
      ['redirectUrl', { redirectUrl: undefined }],
      ['metadata', { metadata: { cart: 'c_8' } }],
      ['metadata', { metadata: undefined }],
      ['description', { description: 'Three mugs' }],
      ['expiresInSeconds', { expiresInSeconds: 600 }],
      ['amount', { amount: '73.01' }],
    ];
    for (const [field, change] of changes) {
      const answer = await call<ErrorResponse>('POST', '/api/checkouts', store.server, { ...body, ...change });
      expect([answer.status, answer.body.code], field).toEqual([409, 'OrderIdConflict']);
      expect(answer.body.message, field).toContain(field);
    }
  });

  it("never lets the public button take the store's order ids (squatting)", async () => {
    const store = await openStore();
    const publicUrl = `/api/public/virtual-bpts/${store.vbpt.id}/checkouts`;
    const theirs = { redirectUrl: 'https://phish.example.net/paid', metadata: { cart: 'theirs' } };
    // Someone reads the store's next order number and asks the button for it first, same amount and all.
    const squat = await call<StoreCheckout>('POST', publicUrl, undefined, order({ orderId: '1001', ...theirs }));
    expect(squat.status).toBe(201);
    expect(squat.body.orderId).toMatch(/^button-[0-9a-f-]{36}$/);
    await call('POST', publicUrl, undefined, order({ orderId: '1002', amount: '1.00', ...theirs }));

    const mine = { redirectUrl: 'https://shop.example.com/thanks?order=1001', metadata: { cart: 'mine' } };
    const real = await call<StoreCheckout>('POST', '/api/checkouts', store.server, order({ orderId: '1001', ...mine }));
    expect(real.status).toBe(201);
    expect(real.body).toMatchObject({ orderId: '1001', ...mine });
    expect(real.body.id).not.toBe(squat.body.id);
    const next = await call<StoreCheckout>('POST', '/api/checkouts', store.server, order({ orderId: '1002', ...mine }));
    expect([next.status, next.body.amount.value]).toEqual([201, '73.00']);

    // The button never answers one checkout twice, so nothing it made can be handed to another caller.
    const again = await call<StoreCheckout>('POST', publicUrl, undefined, order({ orderId: '1001', ...theirs }));
    expect(again.status).toBe(201);
    expect(again.body.id).not.toBe(squat.body.id);
  });

  it('makes the same order in two concurrent requests one checkout', async () => {
    const store = await openStore();
    const body = order({ currency: 'SAT', amount: '21000' });
    const answers = await Promise.all(
      [1, 2, 3].map(() => call<StoreCheckout>('POST', '/api/checkouts', store.server, body)),
    );
    expect(new Set(answers.map((answer) => answer.body.id)).size).toBe(1);
    expect(answers.map((answer) => answer.status).sort()).toEqual([200, 200, 201]);
  });

  it('honours checkout protection: with it on, only the developer token creates', async () => {
    const store = await openStore();
    expect((await call('POST', '/api/checkouts', store.admin, order())).status).toBe(201);
    const publicUrl = `/api/public/virtual-bpts/${store.vbpt.id}/checkouts`;
    expect((await call('POST', publicUrl, undefined, order())).status).toBe(201);

    await protect(store, true);
    const session = await call<ErrorResponse>('POST', '/api/checkouts', store.admin, order());
    expect(session.status).toBe(403);
    expect(session.body.code).toBe('CheckoutProtected');
    const button = await call<ErrorResponse>('POST', publicUrl, undefined, order());
    expect(button.status).toBe(403);
    expect(button.body.code).toBe('CheckoutProtected');
    expect((await call('POST', '/api/checkouts', store.server, order())).status).toBe(201);
  });

  it('picks the only virtual BPT, and asks for one when there are several', async () => {
    const store = await openStore();
    await call('POST', '/api/virtual-bpts', store.admin, { name: 'Second shop', bptId: store.bpt.id });
    const unnamed = await call<ErrorResponse>('POST', '/api/checkouts', store.server, order());
    expect(unnamed.status).toBe(400);
    expect(unnamed.body.message).toContain('virtualBptId');
    const named = await call<StoreCheckout>(
      'POST',
      '/api/checkouts',
      store.server,
      order({ virtualBptId: store.vbpt.id }),
    );
    expect(named.status).toBe(201);
    const unknown = await call('POST', '/api/checkouts', store.server, order({ virtualBptId: crypto.randomUUID() }));
    expect(unknown.status).toBe(400);
  });

  it('refuses bad input with a 4xx and a code', async () => {
    const store = await openStore();
    const refusals: Array<[Record<string, unknown>, number, string]> = [
      [order({ amount: '999999999999999' }), 400, 'InvalidAmount'],
      [order({ amount: '0' }), 400, 'InvalidAmount'],
      [order({ amount: '-5' }), 400, 'InvalidAmount'],
      [order({ amount: '1.5', currency: 'SAT' }), 400, 'InvalidAmount'],
      [order({ currency: 'USD' }), 400, 'InvalidCurrency'],
      [order({ redirectUrl: 'http://shop.example.com/thanks' }), 400, 'InvalidInput'],
      [order({ redirectUrl: 'javascript:alert(1)' }), 400, 'InvalidInput'],
      [order({ redirectUrl: 'https://user:pw@shop.example.com/' }), 400, 'InvalidInput'],
      [order({ redirectUrl: 'not a url' }), 400, 'InvalidInput'],
      [order({ orderId: 'A\u0000B' }), 400, 'InvalidInput'],
      [order({ orderId: 'x'.repeat(101) }), 400, 'InvalidInput'],
      [order({ metadata: { blob: 'x'.repeat(5000) } }), 400, 'InvalidInput'],
      [order({ metadata: { note: 'a\u0000b' } }), 400, 'InvalidInput'],
      [order({ metadata: [1, 2] }), 400, 'InvalidInput'],
      [{ amount: '10', currency: 'GTQ' }, 400, 'InvalidInput'],
      [order({ expiresInSeconds: 10 }), 400, 'InvalidInput'],
      [order({ expiresInSeconds: 90_000 }), 400, 'InvalidInput'],
    ];
    for (const [body, status, code] of refusals) {
      const answer = await call<ErrorResponse>('POST', '/api/checkouts', store.server, body);
      expect([answer.status, answer.body.code], JSON.stringify(body).slice(0, 80)).toEqual([status, code]);
    }
    // Loopback http is a local store under test, allowed on devnet.
    const local = await call(
      'POST',
      '/api/checkouts',
      store.server,
      order({ redirectUrl: 'http://127.0.0.1:3000/ok' }),
    );
    expect(local.status).toBe(201);
  });

  it('lets managers read the checkouts of their linked accounts only, and create none', async () => {
    const store = await openStore();
    const created = (await call<StoreCheckout>('POST', '/api/checkouts', store.server, order())).body;
    const organizationId = (
      await t.db
        .selectFrom('checkouts')
        .select('organization_id')
        .where('id', '=', created.id)
        .executeTakeFirstOrThrow()
    ).organization_id;
    const other = (await call<Account>('POST', '/api/accounts', store.admin, { name: 'Counter' })).body;
    const managerOf = async (accountIds: string[]) => {
      const user = await createTestUser(t.db, { role: 'manager', organizationId, accountIds });
      return bearer((await signIn(t.app, user.email, user.password)).accessToken);
    };
    const linked = await managerOf([store.bpt.accountId]);
    expect((await call('POST', '/api/checkouts', linked, order())).status).toBe(403);
    expect((await call('GET', `/api/checkouts/${created.id}`, linked)).status).toBe(200);
    // As for payment links: a checkout sold for an account the manager is not linked to does not exist for them.
    const unlinked = await call<ErrorResponse>('GET', `/api/checkouts/${created.id}`, await managerOf([other.id]));
    expect([unlinked.status, unlinked.body.code]).toEqual([404, 'NotFound']);
    expect((await call('GET', `/api/checkouts/${created.id}`, await managerOf([]))).status).toBe(404);
  });
});
