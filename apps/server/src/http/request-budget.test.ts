import type { ErrorResponse } from '@rayo/shared';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  bearer,
  createTestApp,
  createTestOrganization,
  createTestUser,
  signIn,
  type TestApp,
} from '../../test/test-app.ts';
import { createTestClock } from '../../test/test-clock.ts';
import { createRequestBudget, createTokenBuckets } from './request-budget.ts';

describe('token buckets', () => {
  it('take a burst at once, then what has refilled, and say how long to wait', () => {
    let now = 0;
    const buckets = createTokenBuckets(() => now);
    const rule = { perSecond: 2, burst: 3 };
    for (let n = 0; n < 3; n += 1) expect(buckets.take('a', rule)).toBe(0);
    expect(buckets.take('a', rule)).toBe(1);
    expect(buckets.take('b', rule)).toBe(0);
    now += 500;
    expect(buckets.take('a', rule)).toBe(0);
    expect(buckets.take('a', rule)).toBe(1);
    expect(buckets.take('a', rule, 7)).toBe(4);
    now += 60_000;
    buckets.sweep();
    expect(buckets.size()).toBe(0);
  });
});

describe('the request budget while the event loop lags', () => {
  const limits = {
    anonymous: { perSecond: 10, burst: 100 },
    signedIn: { perSecond: 1, burst: 5 },
    lagMs: 100,
    anonymousShareUnderLag: 3,
  };

  it('sheds the addresses that keep sending, not one that asks now and then, nor signed-in users', () => {
    let now = 0;
    let lagging = false;
    const budget = createRequestBudget(
      limits,
      () => now,
      () => lagging,
    );
    // Under its limit while the loop keeps up, a busy address has spent most of its burst.
    for (let n = 0; n < 60; n += 1) expect(budget.admitAnonymous('198.51.100.1')).toBe(0);
    lagging = true;
    const busy = Array.from({ length: 10 }, () => budget.admitAnonymous('198.51.100.1'));
    // It gets the few places of the shared share, then is refused before its own tokens run out.
    expect(busy.filter((wait) => wait === 0)).toHaveLength(3);
    expect(busy.filter((wait) => wait > 0)).toHaveLength(7);
    // A payer asking for the first time, and a few times more, still gets through.
    for (let n = 0; n < 4; n += 1) expect(budget.admitAnonymous('203.0.113.7')).toBe(0);
    for (let n = 0; n < 5; n += 1) expect(budget.admitSignedIn('user-1')).toBe(0);
    expect(budget.admitSignedIn('user-1')).toBeGreaterThan(0);
    // Once the loop keeps up again the busy address pays one token a request.
    lagging = false;
    now += 1000;
    expect(budget.admitAnonymous('198.51.100.1')).toBe(0);
  });
});

describe('the request budget over HTTP', () => {
  let t: TestApp;
  let merchant: { authorization: string };
  // Held still, so nothing refills unless the test moves it.
  const clock = createTestClock();

  beforeAll(async () => {
    t = await createTestApp(
      {
        REQUEST_BUDGET_ANONYMOUS_BURST: '5',
        REQUEST_BUDGET_ANONYMOUS_PER_SECOND: '1',
        REQUEST_BUDGET_SIGNED_IN_BURST: '40',
        REQUEST_BUDGET_SIGNED_IN_PER_SECOND: '1',
      },
      { clock },
    );
    const organization = await createTestOrganization(t.db);
    const user = await createTestUser(t.db, { role: 'admin', organizationId: organization.id });
    merchant = bearer((await signIn(t.app, user.email, user.password)).accessToken);
  }, 60_000);
  afterAll(() => t?.close());

  const health = (remoteAddress: string, headers: Record<string, string> = {}) =>
    t.app.inject({ method: 'GET', url: '/api/health', remoteAddress, headers });

  function expectBudgetRefusal(response: LightMyRequestResponse) {
    expect(response.statusCode, response.body).toBe(429);
    expect(response.json<ErrorResponse>().code).toBe('TooManyRequests');
    expect(Number(response.headers['retry-after'])).toBeGreaterThanOrEqual(1);
    expect(response.headers.connection).toBe('close');
    expect(response.headers['x-content-type-options']).toBe('nosniff');
  }

  it('refuses an address past its budget, before reading the body, and lets it in once refilled', async () => {
    const address = '198.51.100.10';
    for (let n = 0; n < 5; n += 1) expect((await health(address)).statusCode).toBe(200);
    expectBudgetRefusal(await health(address));
    // A body that would cost the parser is not looked at: refused for the budget, not a 400 or a 500.
    const deep = `${'['.repeat(6000)}0${']'.repeat(6000)}`;
    const hostile = await t.app.inject({
      method: 'POST',
      url: '/api/auth/signup',
      headers: { 'content-type': 'application/json' },
      payload: deep,
      remoteAddress: address,
    });
    expectBudgetRefusal(hostile);
    // Another address has a budget of its own; an IPv6 /64 has one for all its addresses.
    expect((await health('198.51.100.11')).statusCode).toBe(200);
    for (let n = 0; n < 5; n += 1) expect((await health(`2001:db8:1:2::${n + 1}`)).statusCode).toBe(200);
    expectBudgetRefusal(await health('2001:db8:1:2:ffff::9'));
    clock.advance(2000);
    expect((await health(address)).statusCode).toBe(200);
    expect((await health(address)).statusCode).toBe(200);
    expectBudgetRefusal(await health(address));
  });

  it('lets a signed-in merchant in from an address whose anonymous budget is spent', async () => {
    const address = '198.51.100.20';
    for (let n = 0; n < 5; n += 1) await health(address);
    expectBudgetRefusal(await health(address));
    for (let n = 0; n < 20; n += 1) {
      const accounts = await t.app.inject({
        method: 'GET',
        url: '/api/accounts',
        headers: merchant,
        remoteAddress: address,
      });
      expect(accounts.statusCode, accounts.body).toBe(200);
    }
    // A token that is not valid counts as no token.
    expectBudgetRefusal(await health(address, { authorization: 'Bearer not-a-token' }));
  });

  it("counts a signed-in user's requests against the user's own budget", async () => {
    const organization = await createTestOrganization(t.db);
    const user = await createTestUser(t.db, { role: 'admin', organizationId: organization.id });
    const own = bearer((await signIn(t.app, user.email, user.password)).accessToken);
    const statuses: number[] = [];
    for (let n = 0; n < 41; n += 1) {
      // From a new address each time: the budget follows the user, not the address.
      const answer = await t.app.inject({
        method: 'GET',
        url: '/api/accounts',
        headers: own,
        remoteAddress: `198.51.100.${100 + n}`,
      });
      statuses.push(answer.statusCode);
    }
    expect(statuses.slice(0, 40).every((status) => status === 200)).toBe(true);
    expect(statuses[40]).toBe(429);
    // Another merchant is not touched.
    expect((await t.app.inject({ method: 'GET', url: '/api/accounts', headers: merchant })).statusCode).toBe(200);
  });
});
