import type { Bpt, ErrorResponse } from '@rayo/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  bearer,
  createTestAccount,
  createTestApp,
  createTestOrganization,
  createTestUser,
  signIn,
  type TestApp,
} from '../../../test/test-app.ts';
import { createTestClock } from '../../../test/test-clock.ts';

const PER_CALLER = 30;
const PER_LINK = 120;
const GUARANTEED = 6;

describe('the shareable terminal limits invoices per caller on each link, and shares each link fairly', () => {
  let t: TestApp;
  let admin: { authorization: string };
  let accountId: string;
  // The limits count in fixed minutes; each test moves the clock to a minute of its own.
  const clock = createTestClock();

  beforeAll(async () => {
    t = await createTestApp({ FIXED_RATES: 'GTQ=730000' }, { clock });
    const organization = await createTestOrganization(t.db);
    accountId = (await createTestAccount(t.db, organization.id, 'Counter')).id;
    const user = await createTestUser(t.db, { role: 'admin', organizationId: organization.id });
    admin = bearer((await signIn(t.app, user.email, user.password)).accessToken);
  });
  afterAll(() => t?.close());

  async function newLink(): Promise<string> {
    const payload = { name: 'Shared till', accountId, currency: 'GTQ', shareable: true };
    const response = await t.app.inject({ method: 'POST', url: '/api/bpts', headers: admin, payload });
    return response.json<Bpt>().shareToken as string;
  }

  function charge(token: string, remoteAddress: string) {
    return t.app.inject({
      method: 'POST',
      url: `/api/terminal/${token}/invoices`,
      payload: { amount: '5' },
      remoteAddress,
    });
  }

  async function chargeTimes(token: string, remoteAddress: string, times: number) {
    for (let n = 0; n < times; n++) {
      const response = await charge(token, remoteAddress);
      expect(response.statusCode, response.body).toBe(201);
    }
  }

  function expectRefused(response: Awaited<ReturnType<typeof charge>>) {
    expect(response.statusCode).toBe(429);
    expect(response.json<ErrorResponse>().code).toBe('TooManyRequests');
    expect(Number(response.headers['retry-after'])).toBeGreaterThan(0);
    expect(Number(response.headers['retry-after'])).toBeLessThanOrEqual(60);
    // A refusal carries the security headers of every other answer.
    expect(response.headers['content-security-policy']).toContain("default-src 'self'");
    expect(response.headers['x-content-type-options']).toBe('nosniff');
  }

  it(`refuses an address past ${PER_CALLER} a minute on a link, while other addresses and links still charge`, async () => {
    const token = await newLink();
    clock.advance(60_000);
    await chargeTimes(token, '198.51.100.10', PER_CALLER);
    expectRefused(await charge(token, '198.51.100.10'));
    expect((await charge(token, '198.51.100.11')).statusCode).toBe(201);
    expect((await charge(await newLink(), '198.51.100.10')).statusCode).toBe(201);
  });

  it(`past ${PER_LINK} a minute on a link, lets each address only its fair share, so a newcomer still charges`, async () => {
    const token = await newLink();
    clock.advance(60_000);
    for (let caller = 0; caller < PER_LINK / PER_CALLER; caller++) {
      await chargeTimes(token, `203.0.113.${caller + 1}`, PER_CALLER);
    }
    // Five callers share the 120: 24 each, which the newcomer is far from.
    await chargeTimes(token, '203.0.113.200', 6);
    // Twenty more: the even split drops to 4, below the 6 every caller is guaranteed.
    for (let caller = 0; caller < 20; caller++) await chargeTimes(token, `192.0.2.${caller + 1}`, GUARANTEED);
    expectRefused(await charge(token, '192.0.2.1'));
    expect((await charge(token, '192.0.2.77')).statusCode).toBe(201);
  });
});
