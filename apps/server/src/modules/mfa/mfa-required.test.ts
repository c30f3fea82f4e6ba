import { type ErrorResponse, MFA_CODE_HEADER, type MfaEnrollment } from '@rayo/shared';
import { Secret, TOTP } from 'otpauth';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  bearer,
  createTestApp,
  createTestOrganization,
  createTestUser,
  signIn,
  TEST_PASSWORD,
  type TestApp,
} from '../../../test/test-app.ts';

describe('BACKOFFICE_MFA_REQUIRED', () => {
  let t: TestApp;
  let organizationId: string;

  beforeAll(async () => {
    t = await createTestApp({ BACKOFFICE_MFA_REQUIRED: 'true' });
    organizationId = (await createTestOrganization(t.db)).id;
  });
  afterAll(() => t?.close());

  const call = (method: 'GET' | 'POST' | 'PUT', url: string, accessToken: string, payload?: object) =>
    t.app.inject({ method, url, headers: bearer(accessToken), ...(payload ? { payload } : {}) });

  it('lets back office without MFA reach only its own settings until MFA is on', async () => {
    const user = await createTestUser(t.db, { role: 'back_office', organizationId: null });
    const { accessToken } = await signIn(t.app, user.email, TEST_PASSWORD);
    expect((await call('GET', '/api/settings/mfa', accessToken)).json()).toEqual({ hasMfa: false, required: true });

    for (const url of ['/api/back-office/organizations', '/api/back-office/notification']) {
      const refused = await call('GET', url, accessToken);
      expect(refused.statusCode, url).toBe(403);
      expect(refused.json<ErrorResponse>().code).toBe('MfaRequired');
    }
    // What turning MFA on takes, and the profile, stay open.
    expect((await call('PUT', '/api/settings/language', accessToken, { language: 'es' })).statusCode).toBe(204);
    const enrollment = (await call('POST', '/api/settings/mfa/enable', accessToken)).json<MfaEnrollment>();
    const code = new TOTP({ secret: Secret.fromBase32(enrollment.secret) }).generate();
    expect((await call('POST', '/api/settings/mfa/validate', accessToken, { code })).statusCode).toBe(204);

    expect((await call('GET', '/api/settings/mfa', accessToken)).json()).toEqual({ hasMfa: true, required: true });
    expect((await call('GET', '/api/back-office/organizations', accessToken)).statusCode).toBe(200);

    // Once on, it stays on: turning it off is refused, with a right code or without one.
    for (const mfaCode of [new TOTP({ secret: Secret.fromBase32(enrollment.secret) }).generate(), undefined]) {
      const refused = await t.app.inject({
        method: 'POST',
        url: '/api/settings/mfa/disable',
        headers: { ...bearer(accessToken), ...(mfaCode ? { [MFA_CODE_HEADER]: mfaCode } : {}) },
      });
      expect(refused.statusCode).toBe(403);
      expect(refused.json<ErrorResponse>().code).toBe('MfaCannotBeTurnedOff');
    }
    expect((await call('GET', '/api/settings/mfa', accessToken)).json()).toEqual({ hasMfa: true, required: true });
  });

  it('asks nothing of an organization’s users', async () => {
    const user = await createTestUser(t.db, { role: 'admin', organizationId });
    const { accessToken } = await signIn(t.app, user.email, TEST_PASSWORD);
    expect((await call('GET', '/api/settings/mfa', accessToken)).json()).toEqual({ hasMfa: false, required: false });
    expect((await call('GET', '/api/accounts', accessToken)).statusCode).toBe(200);
  });
});
