import type { ErrorResponse, MfaChallenge, MfaEnrollment, SignInResponse } from '@rayo/shared';
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
import { listAuditEntries } from '../audit/audit.repo.ts';
import { hashRefreshToken } from '../auth/tokens.ts';

/** What an authenticator app shows for `secret`, `stepsAhead` time steps from now. */
function codeOf(secret: string, stepsAhead = 0): string {
  const totp = new TOTP({ secret: Secret.fromBase32(secret), algorithm: 'SHA1', digits: 6, period: 30 });
  return totp.generate({ timestamp: Date.now() + stepsAhead * 30_000 });
}

/** A six-digit code that is none of those the secret accepts around now. */
function wrongCodeOf(secret: string): string {
  const accepted = new Set([-1, 0, 1, 2].map((steps) => codeOf(secret, steps)));
  let code = 0;
  while (accepted.has(String(code).padStart(6, '0'))) code++;
  return String(code).padStart(6, '0');
}

describe('MFA', () => {
  let t: TestApp;
  let organizationId: string;

  beforeAll(async () => {
    t = await createTestApp({ SIGNIN_LIMIT_PER_EMAIL: '1000', SIGNIN_LIMIT_PER_IP: '1000' });
    organizationId = (await createTestOrganization(t.db)).id;
  });
  afterAll(() => t?.close());

  function call(method: 'GET' | 'POST', url: string, accessToken: string | null, options = {}) {
    return t.app.inject({ method, url, headers: accessToken ? bearer(accessToken) : {}, ...options });
  }
  const status = (accessToken: string) => call('GET', '/api/settings/mfa', accessToken);
  const enable = (accessToken: string) => call('POST', '/api/settings/mfa/enable', accessToken);
  const validate = (accessToken: string, code: string) =>
    call('POST', '/api/settings/mfa/validate', accessToken, { payload: { code } });
  const disable = (accessToken: string, code?: string) =>
    t.app.inject({
      method: 'POST',
      url: '/api/settings/mfa/disable',
      headers: { ...bearer(accessToken), ...(code === undefined ? {} : { 'mfa-code': code }) },
    });
  const postSignIn = (email: string) =>
    t.app.inject({ method: 'POST', url: '/api/auth/signin', payload: { email, password: TEST_PASSWORD } });
  const signInWithCode = (mfaToken: string, code: string) =>
    t.app.inject({ method: 'POST', url: '/api/auth/signin/mfa', payload: { mfaToken, code } });
  const recover = (mfaToken: string, recoveryCode: string) =>
    t.app.inject({ method: 'POST', url: '/api/settings/mfa/recover', payload: { mfaToken, recoveryCode } });

  async function challengeFor(email: string): Promise<string> {
    const response = await postSignIn(email);
    expect(response.statusCode, response.body).toBe(200);
    const body = response.json<MfaChallenge>();
    expect(body.mfaRequired).toBe(true);
    return body.mfaToken;
  }

  /** A new user with MFA on; the code that turned it on used the current time step. */
  async function userWithMfa() {
    const user = await createTestUser(t.db, { role: 'admin', organizationId });
    const session = await signIn(t.app, user.email, TEST_PASSWORD);
    const enrollment = (await enable(session.accessToken)).json<MfaEnrollment>();
    expect((await validate(session.accessToken, codeOf(enrollment.secret))).statusCode).toBe(204);
    return { user, session, ...enrollment };
  }

  it('enable gives a secret, its otpauth URI and 10 recovery codes, and MFA stays off until validated', async () => {
    const user = await createTestUser(t.db, { role: 'manager', organizationId });
    const session = await signIn(t.app, user.email, TEST_PASSWORD);
    expect((await status(session.accessToken)).json()).toEqual({ hasMfa: false, required: false });

    const response = await enable(session.accessToken);
    expect(response.statusCode, response.body).toBe(200);
    const { secret, otpauthUri, recoveryCodes } = response.json<MfaEnrollment>();
    expect(secret).toMatch(/^[A-Z2-7]{32}$/);
    const uri = new URL(otpauthUri);
    expect(uri.protocol).toBe('otpauth:');
    expect(uri.host).toBe('totp');
    expect(decodeURIComponent(uri.pathname)).toBe(`/Rayo:${user.email}`);
    expect(Object.fromEntries(uri.searchParams)).toEqual({
      issuer: 'Rayo',
      secret,
      algorithm: 'SHA1',
      digits: '6',
      period: '30',
    });
    expect(new Set(recoveryCodes).size).toBe(10);
    for (const code of recoveryCodes) expect(code).toMatch(/^[a-z2-7]{4}(-[a-z2-7]{4}){3}$/);

    expect((await status(session.accessToken)).json()).toEqual({ hasMfa: false, required: false });
    expect((await postSignIn(user.email)).json<SignInResponse>().accessToken).toBeDefined();

    const wrong = await validate(session.accessToken, wrongCodeOf(secret));
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json<ErrorResponse>().code).toBe('WrongMfaCode');
    expect((await status(session.accessToken)).json()).toEqual({ hasMfa: false, required: false });
  });

  it('signs in with a code only after the password, refuses a replayed or wrong code, and audits it all', async () => {
    const { user, secret, session } = await userWithMfa();
    expect((await status(session.accessToken)).json()).toEqual({ hasMfa: true, required: false });

    const first = await postSignIn(user.email);
    expect(first.statusCode).toBe(200);
    expect(first.json()).toEqual({ mfaRequired: true, mfaToken: expect.any(String) });
    const mfaToken = first.json<MfaChallenge>().mfaToken;
    // The challenge opens nothing by itself.
    expect((await status(mfaToken)).statusCode).toBe(401);

    const wrong = await signInWithCode(mfaToken, wrongCodeOf(secret));
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json<ErrorResponse>().code).toBe('WrongMfaCode');

    // The code that turned MFA on was this time step's; the authenticator's next one is accepted.
    const code = codeOf(secret, 1);
    const response = await signInWithCode(mfaToken, code);
    expect(response.statusCode, response.body).toBe(200);
    const signedIn = response.json<SignInResponse>();
    expect(signedIn).toEqual({
      accessToken: expect.any(String),
      refreshToken: expect.any(String),
      role: 'admin',
      language: 'en',
    });
    expect((await status(signedIn.accessToken)).json()).toEqual({ hasMfa: true, required: false });

    // A right code already used is told apart from a wrong one: the user waits for the next.
    const replayed = await signInWithCode(await challengeFor(user.email), code);
    expect(replayed.statusCode).toBe(400);
    expect(replayed.json<ErrorResponse>().code).toBe('MfaCodeReused');
    const older = await signInWithCode(await challengeFor(user.email), codeOf(secret));
    expect(older.json<ErrorResponse>().code).toBe('MfaCodeReused');

    const audit = await listAuditEntries(t.db, { actorUserId: user.id });
    expect(audit.map((entry) => [entry.action, entry.after])).toEqual([
      ['auth.signin_failed', { reason: 'mfa_code_reused' }],
      ['auth.signin_failed', { reason: 'mfa_code_reused' }],
      ['auth.signin', { method: 'mfa_code' }],
      ['auth.signin_failed', { reason: 'mfa_code' }],
      ['settings.mfa_enabled', null],
      ['auth.signin', { method: 'password' }],
    ]);
    expect(JSON.stringify(audit)).not.toContain(code);
  });

  it('signs in once with each recovery code', async () => {
    const { user, recoveryCodes, secret } = await userWithMfa();
    const [recoveryCode = ''] = recoveryCodes;
    // Typed back in capitals and without dashes, the code still works.
    const typed = recoveryCode.toUpperCase().replaceAll('-', '');
    const response = await recover(await challengeFor(user.email), typed);
    expect(response.statusCode, response.body).toBe(200);
    expect((await status(response.json<SignInResponse>().accessToken)).json()).toEqual({
      hasMfa: true,
      required: false,
    });

    const again = await recover(await challengeFor(user.email), recoveryCode);
    expect(again.statusCode).toBe(400);
    expect(again.json<ErrorResponse>().code).toBe('WrongRecoveryCode');
    // A recovery code is no TOTP code, and a TOTP code no recovery code.
    const asCode = await signInWithCode(await challengeFor(user.email), recoveryCodes[1] ?? '');
    expect(asCode.json<ErrorResponse>().code).toBe('WrongMfaCode');
    expect((await recover(await challengeFor(user.email), codeOf(secret, 1))).statusCode).toBe(400);

    const audit = await listAuditEntries(t.db, { actorUserId: user.id });
    expect(audit.find((entry) => entry.action === 'settings.mfa_recovery_used')?.after).toEqual({
      recoveryCodesLeft: 9,
    });
    expect(audit.find((entry) => entry.action === 'auth.signin')?.after).toEqual({ method: 'recovery_code' });
    expect(JSON.stringify(audit)).not.toContain(recoveryCode);
  });

  it('gives the session the life "remember me" asks for at the second step', async () => {
    const { user, recoveryCodes, secret } = await userWithMfa();
    const expiryOf = async (session: SignInResponse) =>
      (
        await t.db
          .selectFrom('refresh_tokens')
          .select('expires_at')
          .where('token_hash', '=', hashRefreshToken(session.refreshToken))
          .executeTakeFirstOrThrow()
      ).expires_at.getTime();
    const day = 24 * 60 * 60 * 1000;

    const remembered = await t.app.inject({
      method: 'POST',
      url: '/api/auth/signin/mfa',
      payload: { mfaToken: await challengeFor(user.email), code: codeOf(secret, 1), remember: true },
    });
    expect(remembered.statusCode, remembered.body).toBe(200);
    expect(await expiryOf(remembered.json<SignInResponse>())).toBeGreaterThan(Date.now() + 29 * day);

    const forgotten = await recover(await challengeFor(user.email), recoveryCodes[0] ?? '');
    expect(forgotten.statusCode, forgotten.body).toBe(200);
    expect(await expiryOf(forgotten.json<SignInResponse>())).toBeLessThanOrEqual(Date.now() + day / 2);
  });

  it('turns MFA off only with a right code in the mfa-code header', async () => {
    const { user, secret, session } = await userWithMfa();

    const missing = await disable(session.accessToken);
    expect(missing.statusCode).toBe(400);
    expect(missing.json<ErrorResponse>().code).toBe('MissingMfaCode');
    const wrong = await disable(session.accessToken, wrongCodeOf(secret));
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json<ErrorResponse>().code).toBe('WrongMfaCode');
    expect((await status(session.accessToken)).json()).toEqual({ hasMfa: true, required: false });

    // The code that turned MFA on is used up: the change asks for the next one.
    const reused = await disable(session.accessToken, codeOf(secret));
    expect([reused.statusCode, reused.json<ErrorResponse>().code]).toEqual([400, 'MfaCodeReused']);

    const response = await disable(session.accessToken, codeOf(secret, 1));
    expect(response.statusCode, response.body).toBe(204);
    expect((await status(session.accessToken)).json()).toEqual({ hasMfa: false, required: false });
    expect((await postSignIn(user.email)).json<SignInResponse>().accessToken).toBeDefined();
    expect((await disable(session.accessToken)).json<ErrorResponse>().code).toBe('MfaNotEnabled');

    const actions = (await listAuditEntries(t.db, { actorUserId: user.id })).map((entry) => entry.action);
    expect(actions.slice(0, 2)).toEqual(['auth.signin', 'settings.mfa_disabled']);
  });

  it('turns MFA off with a recovery code, for someone who lost their authenticator', async () => {
    const { session, recoveryCodes } = await userWithMfa();
    expect((await disable(session.accessToken, recoveryCodes[3])).statusCode).toBe(204);
    expect((await status(session.accessToken)).json()).toEqual({ hasMfa: false, required: false });
  });

  it('keeps the secret sealed and the recovery codes hashed in the database', async () => {
    const { user, secret, recoveryCodes } = await userWithMfa();
    const row = await t.db.selectFrom('user_mfa').selectAll().where('user_id', '=', user.id).executeTakeFirstOrThrow();
    expect(row.secret_sealed).not.toContain(secret);
    expect(row.secret_sealed).toMatch(/^v1\./);
    const hashes = await t.db
      .selectFrom('mfa_recovery_codes')
      .select('code_hash')
      .where('user_id', '=', user.id)
      .execute();
    expect(hashes).toHaveLength(10);
    const stored = JSON.stringify(hashes);
    for (const code of recoveryCodes) expect(stored).not.toContain(code.replaceAll('-', ''));
    // Another user's row cannot borrow this sealed secret: it is bound to its owner.
    expect(() => t.runtime.deps.mfaCipher.open(row.secret_sealed, organizationId)).toThrow();
  });

  it('refuses to set MFA up again while it is on, and a validate without an enable', async () => {
    const { session } = await userWithMfa();
    const again = await enable(session.accessToken);
    expect(again.statusCode).toBe(409);
    expect(again.json<ErrorResponse>().code).toBe('MfaAlreadyEnabled');

    const user = await createTestUser(t.db, { role: 'admin', organizationId });
    const other = await signIn(t.app, user.email, TEST_PASSWORD);
    const response = await validate(other.accessToken, '123456');
    expect(response.statusCode).toBe(409);
    expect(response.json<ErrorResponse>().code).toBe('MfaEnrollmentMissing');
  });

  it('replaces a pending setup when enable is called again', async () => {
    const user = await createTestUser(t.db, { role: 'admin', organizationId });
    const session = await signIn(t.app, user.email, TEST_PASSWORD);
    const first = (await enable(session.accessToken)).json<MfaEnrollment>();
    const second = (await enable(session.accessToken)).json<MfaEnrollment>();
    expect(second.secret).not.toBe(first.secret);
    expect((await validate(session.accessToken, codeOf(first.secret))).json<ErrorResponse>().code).toBe('WrongMfaCode');
    expect((await validate(session.accessToken, codeOf(second.secret))).statusCode).toBe(204);
  });

  it('answers MfaChallengeExpired for a forged, lapsed or access token in place of the challenge', async () => {
    const { user, session } = await userWithMfa();
    const challenge = await challengeFor(user.email);
    const [header, payload] = challenge.split('.');
    for (const mfaToken of [session.accessToken, `${header}.${payload}.forged`, 'nonsense']) {
      const response = await signInWithCode(mfaToken, '123456');
      expect(response.statusCode).toBe(401);
      expect(response.json<ErrorResponse>().code).toBe('MfaChallengeExpired');
      expect((await recover(mfaToken, 'abcd-efgh')).json<ErrorResponse>().code).toBe('MfaChallengeExpired');
    }
  });

  it('answers 400 for missing fields', async () => {
    const user = await createTestUser(t.db, { role: 'admin', organizationId });
    const session = await signIn(t.app, user.email, TEST_PASSWORD);
    expect((await validate(session.accessToken, ' ')).json<ErrorResponse>().code).toBe('MissingCode');
    const noCode = await t.app.inject({ method: 'POST', url: '/api/auth/signin/mfa', payload: { mfaToken: 'x' } });
    expect(noCode.statusCode).toBe(400);
    expect(noCode.json<ErrorResponse>().code).toBe('MissingCode');
    const noToken = await t.app.inject({ method: 'POST', url: '/api/settings/mfa/recover', payload: {} });
    expect(noToken.statusCode).toBe(400);
  });

  it('limits wrong code attempts per user, across sign-in and settings', async () => {
    const { user, secret, session } = await userWithMfa();
    const mfaToken = await challengeFor(user.email);
    const wrong = wrongCodeOf(secret);
    // A change sent without a code guesses nothing and is not counted.
    for (let attempt = 1; attempt <= 5; attempt++) {
      expect((await disable(session.accessToken)).json<ErrorResponse>().code).toBe('MissingMfaCode');
    }
    for (let attempt = 1; attempt <= 10; attempt++) {
      expect((await signInWithCode(mfaToken, wrong)).statusCode).toBe(400);
    }
    const limited = await signInWithCode(mfaToken, codeOf(secret, 1));
    expect(limited.statusCode).toBe(429);
    expect(limited.json<ErrorResponse>().code).toBe('TooManyRequests');
    expect((await disable(session.accessToken, codeOf(secret, 1))).statusCode).toBe(429);
    expect((await status(session.accessToken)).json()).toEqual({ hasMfa: true, required: false });
  });

  it('counts only wrong codes: signing in and confirming changes all day never locks a user out', async () => {
    const { user, secret, session, recoveryCodes } = await userWithMfa();
    // Ten right recovery codes and a right code after the one that turned MFA on: eleven
    // successes, past the limit of ten, where every check used to count.
    for (const recoveryCode of recoveryCodes) {
      const answer = await recover(await challengeFor(user.email), recoveryCode);
      expect(answer.statusCode, answer.body).toBe(200);
    }
    // One code, reused below: computed again later it would be the next step's on a slow run.
    const usedCode = codeOf(secret, 1);
    const signedIn = await signInWithCode(await challengeFor(user.email), usedCode);
    expect(signedIn.statusCode, signedIn.body).toBe(200);
    // A reused code is a wrong one, and still counts.
    const mfaToken = await challengeFor(user.email);
    for (let attempt = 1; attempt <= 10; attempt++) {
      expect((await signInWithCode(mfaToken, usedCode)).json<ErrorResponse>().code).toBe('MfaCodeReused');
    }
    expect((await disable(session.accessToken, wrongCodeOf(secret))).statusCode).toBe(429);
  });
});
