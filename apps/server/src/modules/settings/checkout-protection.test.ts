import type { CheckoutProtection, ErrorResponse, MfaEnrollment } from '@rayo/shared';
import { Secret, TOTP } from 'otpauth';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, createTestApp, createTestUser, openTestShop, signIn, type TestApp } from '../../../test/test-app.ts';
import { listAuditEntries } from '../audit/audit.repo.ts';

type Headers = Record<string, string>;

let t: TestApp;

beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

function get(headers: Headers) {
  return t.app.inject({ method: 'GET', url: '/api/settings/checkout-protection', headers });
}

function put(headers: Headers, payload: unknown) {
  return t.app.inject({ method: 'PUT', url: '/api/settings/checkout-protection', headers, payload: payload as object });
}

describe('checkout protection', () => {
  it('is off at first, turns on and off, and each change is audited', async () => {
    const shop = await openTestShop(t);
    expect((await get(shop.admin)).json<CheckoutProtection>()).toEqual({ enabled: false });
    const on = await put(shop.admin, { enabled: true });
    expect(on.statusCode, on.body).toBe(200);
    expect(on.json<CheckoutProtection>()).toEqual({ enabled: true });
    expect((await get(shop.admin)).json<CheckoutProtection>()).toEqual({ enabled: true });
    await put(shop.admin, { enabled: false });
    const entries = (await listAuditEntries(t.db, { organizationId: shop.organization.id })).filter((e) =>
      e.action.startsWith('settings.'),
    );
    expect(entries.map((e) => [e.action, e.before, e.after])).toEqual([
      ['settings.checkout_protection_changed', { enabled: true }, { enabled: false }],
      ['settings.checkout_protection_changed', { enabled: false }, { enabled: true }],
    ]);
  });

  it('refuses a body that is not { enabled: boolean }', async () => {
    const shop = await openTestShop(t);
    for (const payload of [{}, { enabled: 'yes' }, { enabled: 1 }, { enabled: null }]) {
      expect((await put(shop.admin, payload)).statusCode).toBe(400);
    }
    expect((await get(shop.admin)).json<CheckoutProtection>()).toEqual({ enabled: false });
  });

  it('lets a manager read it but not change it', async () => {
    const shop = await openTestShop(t);
    const manager = await createTestUser(t.db, { role: 'manager', organizationId: shop.organization.id });
    const headers = bearer((await signIn(t.app, manager.email, manager.password)).accessToken);
    expect((await get(headers)).json<CheckoutProtection>()).toEqual({ enabled: false });
    const refused = await put(headers, { enabled: true });
    expect([refused.statusCode, refused.json<ErrorResponse>().code]).toEqual([403, 'Forbidden']);
    expect((await get(shop.admin)).json<CheckoutProtection>()).toEqual({ enabled: false });
  });

  it('needs a code in the mfa-code header when the admin has MFA on', async () => {
    const shop = await openTestShop(t);
    const enable = await t.app.inject({ method: 'POST', url: '/api/settings/mfa/enable', headers: shop.admin });
    const totp = new TOTP({ secret: Secret.fromBase32(enable.json<MfaEnrollment>().secret) });
    const payload = { code: totp.generate() };
    const validate = await t.app.inject({
      method: 'POST',
      url: '/api/settings/mfa/validate',
      headers: shop.admin,
      payload,
    });
    expect(validate.statusCode, validate.body).toBe(204);

    const without = await put(shop.admin, { enabled: true });
    expect([without.statusCode, without.json<ErrorResponse>().code]).toEqual([400, 'MissingMfaCode']);
    const wrong = await put({ ...shop.admin, 'mfa-code': '000000' }, { enabled: true });
    expect(wrong.json<ErrorResponse>().code).toBe('WrongMfaCode');
    expect((await get(shop.admin)).json<CheckoutProtection>()).toEqual({ enabled: false });

    // The validate used the current step's code; the next step's is the one still unused.
    const code = totp.generate({ timestamp: Date.now() + 30_000 });
    const changed = await put({ ...shop.admin, 'mfa-code': code }, { enabled: true });
    expect(changed.statusCode, changed.body).toBe(200);
    expect((await get(shop.admin)).json<CheckoutProtection>()).toEqual({ enabled: true });
  });
});
