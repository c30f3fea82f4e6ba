import type { ErrorResponse, SignInResponse } from '@rayo/shared';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type SmtpInbox, startSmtpInbox } from '../../../test/fakes/smtp-inbox.ts';
import {
  bearer,
  createTestApp,
  createTestOrganization,
  createTestUser,
  signIn,
  type TestApp,
} from '../../../test/test-app.ts';
import { createTestClock } from '../../../test/test-clock.ts';
import { listAuditEntries } from '../audit/audit.repo.ts';
import { findUserByEmail } from '../users/users.repo.ts';
import { insertRefreshToken } from './auth.repo.ts';
import { newRefreshToken } from './tokens.ts';

const PASSWORD = 'Signup-pass-1!';
const NEW_PASSWORD = 'Another-pass-2?';

function post(t: TestApp, url: string, payload: unknown, headers: Record<string, string> = {}) {
  return t.app.inject({ method: 'POST', url, payload: payload as Record<string, unknown>, headers });
}

/** The query parameter `name` of the first link in a mail. */
function linkParam(text: string, name: string): string {
  const link = /https?:\/\/\S+/.exec(text)?.[0];
  if (!link) throw new Error(`no link in mail:\n${text}`);
  return new URL(link).searchParams.get(name) ?? '';
}

describe('sign-up, email confirmation and onboarding', () => {
  let t: TestApp;
  let inbox: SmtpInbox;
  let email = '';
  let n = 0;
  const nextEmail = () => `owner-${++n}@shop.example`;

  async function signUp(address: string, language: 'en' | 'es' = 'en', password = PASSWORD) {
    const since = inbox.mails.length;
    const response = await post(t, '/api/auth/signup', { email: address, password, language });
    expect(response.statusCode, response.body).toBe(204);
    return inbox.waitForMail(address, { since });
  }

  /** Opens the mail's link and types `password` on the page it shows, as the mailbox's holder does. */
  function confirm(mail: { text: string }, password = PASSWORD) {
    return post(t, '/api/auth/confirm-email', { code: linkParam(mail.text, 'code'), password });
  }

  beforeAll(async () => {
    inbox = await startSmtpInbox();
    t = await createTestApp({ SMTP_URL: inbox.url, PUBLIC_URL: 'http://127.0.0.1:9999' });
  });
  afterAll(async () => {
    await t?.close();
    await inbox?.close();
  });

  it('mails a link that confirms the address, signs in, and lets the admin onboard', async () => {
    email = nextEmail();
    const mail = await signUp(email);
    expect(mail.subject).toBe('Confirm your email for Rayo');
    expect(mail.text).toContain('http://127.0.0.1:9999/onboard?code=');

    const confirmed = await confirm(mail);
    expect(confirmed.statusCode, confirmed.body).toBe(200);
    const session = confirmed.json<SignInResponse>();
    expect(session).toMatchObject({ role: 'admin', language: 'en' });

    const before = await t.app.inject({
      method: 'GET',
      url: '/api/organization/current',
      headers: bearer(session.accessToken),
    });
    expect(before.json<ErrorResponse>().code).toBe('OnboardingRequired');

    const onboard = await post(
      t,
      '/api/onboard',
      { name: 'Café Lumbre', countryCode: 'mx', language: 'es', currency: 'mxn' },
      bearer(session.accessToken),
    );
    expect(onboard.statusCode, onboard.body).toBe(201);
    const { accessToken } = onboard.json<{ accessToken: string; organizationId: string }>();
    const current = await t.app.inject({
      method: 'GET',
      url: '/api/organization/current',
      headers: bearer(accessToken),
    });
    expect(current.json()).toMatchObject({ name: 'Café Lumbre', countryCode: 'MX', currency: 'MXN', language: 'es' });
    expect(current.json().timeZone).toMatch(/^America\//);

    // The refresh token of the confirmation session reads the user afresh, organization included.
    const refreshed = await post(t, '/api/auth/refresh-access-token', { refreshToken: session.refreshToken });
    const again = await t.app.inject({
      method: 'GET',
      url: '/api/organization/current',
      headers: bearer(refreshed.json<{ accessToken: string }>().accessToken),
    });
    expect(again.statusCode).toBe(200);

    const signedIn = await signIn(t.app, email, PASSWORD);
    expect(signedIn.language).toBe('es');

    const second = await post(
      t,
      '/api/onboard',
      { name: 'Twice', countryCode: 'GT', language: 'en', currency: 'GTQ' },
      bearer(accessToken),
    );
    expect(second.json<ErrorResponse>().code).toBe('AlreadyOnboarded');

    const actions = (await listAuditEntries(t.db))
      .filter((entry) => entry.actor_email === email)
      .map((entry) => entry.action);
    expect(actions).toEqual(expect.arrayContaining(['auth.signup', 'auth.email_confirmed', 'organization.onboarded']));
  });

  it('answers UserAlreadyExist with the SPEC message for a confirmed address', async () => {
    const response = await post(t, '/api/auth/signup', { email: email.toUpperCase(), password: PASSWORD });
    expect(response.statusCode).toBe(409);
    expect(response.json<ErrorResponse>()).toEqual({
      code: 'UserAlreadyExist',
      message: 'User already exist',
    });
  });

  it.each([
    ['a short password', 'Ab1!', 'InvalidPassword'],
    ['a password without a special character', 'Abcdefg12', 'InvalidPassword'],
    ['a missing password', undefined, 'MissingPassword'],
  ])('refuses %s', async (_case, password, code) => {
    const response = await post(t, '/api/auth/signup', { email: nextEmail(), password });
    expect(response.statusCode).toBe(400);
    expect(response.json<ErrorResponse>().code).toBe(code);
  });

  it('refuses a missing or invalid email', async () => {
    expect((await post(t, '/api/auth/signup', { password: PASSWORD })).json<ErrorResponse>().code).toBe('MissingEmail');
    expect((await post(t, '/api/auth/signup', { email: 'nope', password: PASSWORD })).json<ErrorResponse>().code).toBe(
      'InvalidEmail',
    );
  });

  it('keeps an unconfirmed user out, and a second sign-up sends a new link that replaces the first', async () => {
    const address = nextEmail();
    const first = await signUp(address, 'es');
    expect(first.subject).toBe('Confirma tu correo para Rayo');
    expect(first.text).toContain('caduca en 24 horas');

    const refused = await post(t, '/api/auth/signin', { email: address, password: PASSWORD });
    expect(refused.statusCode).toBe(403);
    expect(refused.json<ErrorResponse>().code).toBe('EmailNotConfirmed');

    const second = await signUp(address, 'es');
    const stale = await confirm(first);
    expect(stale.json<ErrorResponse>().code).toBe('InvalidCode');
    expect((await confirm(second)).statusCode).toBe(200);
    // Single use.
    const reused = await confirm(second);
    expect(reused.statusCode).toBe(400);
    expect(reused.json<ErrorResponse>().code).toBe('InvalidCode');
    expect((await signIn(t.app, address, PASSWORD)).role).toBe('admin');
  });

  it('refuses a confirmation without a password, or with a weak one, and keeps the link', async () => {
    const mail = await signUp(nextEmail());
    const code = linkParam(mail.text, 'code');
    const missing = await post(t, '/api/auth/confirm-email', { code });
    expect(missing.json<ErrorResponse>().code).toBe('MissingPassword');
    const weak = await post(t, '/api/auth/confirm-email', { code, password: 'weakpass' });
    expect(weak.json<ErrorResponse>().code).toBe('InvalidPassword');
    expect((await confirm(mail)).statusCode).toBe(200);
  });

  describe('someone else who signs up with an address that is not theirs', () => {
    const ATTACKER_PASSWORD = 'Attacker-pass-1!';
    const VICTIM_PASSWORD = 'Victim-pass-2?';

    async function expectSignInStatus(address: string, password: string, status: number) {
      const response = await post(t, '/api/auth/signin', { email: address, password });
      expect(response.statusCode, response.body).toBe(status);
    }

    it("gains nothing when the owner follows the newest mail, the one the attacker's sign-up sent", async () => {
      const victim = nextEmail();
      await signUp(victim, 'en', VICTIM_PASSWORD);
      const newest = await signUp(victim, 'en', ATTACKER_PASSWORD);

      const confirmed = await confirm(newest, VICTIM_PASSWORD);
      expect(confirmed.statusCode, confirmed.body).toBe(200);
      expect((await signIn(t.app, victim, VICTIM_PASSWORD)).role).toBe('admin');
      await expectSignInStatus(victim, ATTACKER_PASSWORD, 401);
    });

    it('gains nothing by signing up first: the password typed after following the link counts', async () => {
      const victim = nextEmail();
      await signUp(victim, 'en', ATTACKER_PASSWORD);
      const own = await signUp(victim, 'en', VICTIM_PASSWORD);
      expect((await confirm(own, VICTIM_PASSWORD)).statusCode).toBe(200);
      await expectSignInStatus(victim, ATTACKER_PASSWORD, 401);
      expect((await signIn(t.app, victim, VICTIM_PASSWORD)).role).toBe('admin');
    });

    it('gains nothing when the owner resets the password instead, even if the sign-up link is followed later', async () => {
      const victim = nextEmail();
      const attackers = await signUp(victim, 'en', ATTACKER_PASSWORD);
      const since = inbox.mails.length;
      expect((await post(t, '/api/auth/forgot-password', { email: victim })).statusCode).toBe(204);
      const resetCode = /\b(\d{6})\b/.exec((await inbox.waitForMail(victim, { since })).text)?.[1];
      const reset = await post(t, '/api/auth/confirm-forgot-password', {
        email: victim,
        code: resetCode,
        password: VICTIM_PASSWORD,
      });
      expect(reset.statusCode, reset.body).toBe(204);

      const late = await confirm(attackers, ATTACKER_PASSWORD);
      expect(late.json<ErrorResponse>().code).toBe('InvalidCode');
      await expectSignInStatus(victim, ATTACKER_PASSWORD, 401);
      expect((await signIn(t.app, victim, VICTIM_PASSWORD)).role).toBe('admin');
    });

    it('never refreshes a session for an address still pending', async () => {
      const pending = nextEmail();
      await signUp(pending, 'en', ATTACKER_PASSWORD);
      const user = await findUserByEmail(t.db, pending);
      const token = newRefreshToken();
      await insertRefreshToken(t.db, {
        userId: user?.id ?? '',
        tokenHash: token.hash,
        expiresAt: new Date(Date.now() + 60_000),
      });
      const refresh = await post(t, '/api/auth/refresh-access-token', { refreshToken: token.token });
      expect(refresh.statusCode).toBe(401);
    });
  });

  it('refuses an expired confirmation link', async () => {
    const address = nextEmail();
    const mail = await signUp(address);
    await t.db
      .updateTable('email_codes')
      .set({ expires_at: new Date(Date.now() - 1000) })
      .execute();
    const response = await confirm(mail);
    expect(response.json<ErrorResponse>().code).toBe('InvalidCode');
  });

  it('refuses onboarding to anyone who already has an organization, and an unknown currency', async () => {
    const address = nextEmail();
    const mail = await signUp(address);
    const session = (await confirm(mail)).json<SignInResponse>();
    const unknown = await post(
      t,
      '/api/onboard',
      { name: 'Shop', countryCode: 'GT', language: 'en', currency: 'XYZ' },
      bearer(session.accessToken),
    );
    expect(unknown.json<ErrorResponse>().code).toBe('InvalidCurrency');
    const country = await post(
      t,
      '/api/onboard',
      { name: 'Shop', countryCode: 'QQ', language: 'en', currency: 'GTQ' },
      bearer(session.accessToken),
    );
    expect(country.statusCode).toBe(400);
    expect((await findUserByEmail(t.db, address))?.organization_id).toBeNull();
  });
});

describe('password reset', () => {
  let t: TestApp;
  let inbox: SmtpInbox;

  beforeAll(async () => {
    inbox = await startSmtpInbox();
    t = await createTestApp({ SMTP_URL: inbox.url });
  });
  afterAll(async () => {
    await t?.close();
    await inbox?.close();
  });

  async function requestCode(address: string): Promise<string> {
    const since = inbox.mails.length;
    const response = await post(t, '/api/auth/forgot-password', { email: address });
    expect(response.statusCode, response.body).toBe(204);
    const mail = await inbox.waitForMail(address, { since });
    const code = /\b(\d{6})\b/.exec(mail.text)?.[1];
    expect(linkParam(mail.text, 'code')).toBe(code);
    return code ?? '';
  }

  it('answers the SPEC message for an unknown email', async () => {
    const response = await post(t, '/api/auth/forgot-password', { email: 'nobody@shop.example' });
    expect(response.statusCode).toBe(404);
    expect(response.json<ErrorResponse>()).toEqual({
      code: 'EmailNotFound',
      message: "The email doesn't exists in the product",
    });
  });

  it('sets the new password with the mailed code, once, and ends every session', async () => {
    const admin = await createTestUser(t.db, { role: 'admin', organizationId: null, language: 'es' });
    const session = await signIn(t.app, admin.email, admin.password);
    const current = () =>
      t.app.inject({ method: 'GET', url: '/api/organization/current', headers: bearer(session.accessToken) });
    expect((await current()).json<ErrorResponse>().code).toBe('OnboardingRequired');
    const code = await requestCode(admin.email);
    expect(inbox.mails.at(-1)?.subject).toBe('Tu código para restablecer la contraseña de Rayo');

    const done = await post(t, '/api/auth/confirm-forgot-password', {
      email: admin.email,
      code,
      password: NEW_PASSWORD,
    });
    expect(done.statusCode, done.body).toBe(204);
    expect((await signIn(t.app, admin.email, NEW_PASSWORD)).role).toBe('admin');
    const old = await post(t, '/api/auth/signin', { email: admin.email, password: admin.password });
    expect(old.json<ErrorResponse>().code).toBe('WrongAuth');
    const refresh = await post(t, '/api/auth/refresh-access-token', { refreshToken: session.refreshToken });
    expect(refresh.statusCode).toBe(401);
    // Signed out at once, not when the access token lapses.
    expect((await current()).statusCode).toBe(401);

    const reused = await post(t, '/api/auth/confirm-forgot-password', { email: admin.email, code, password: PASSWORD });
    expect(reused.json<ErrorResponse>().code).toBe('InvalidCode');

    const actions = (await listAuditEntries(t.db, { actorUserId: admin.id })).map((entry) => entry.action);
    expect(actions).toEqual(expect.arrayContaining(['auth.password_reset_requested', 'auth.password_reset']));
  });

  it('revokes the developer tokens the user made when asked to, and only then', async () => {
    const organization = await createTestOrganization(t.db);
    const admin = await createTestUser(t.db, { role: 'admin', organizationId: organization.id });
    const makeToken = async () => {
      const session = await signIn(t.app, admin.email, admin.password);
      const response = await t.app.inject({
        method: 'POST',
        url: '/api/settings/developer-tokens',
        headers: bearer(session.accessToken),
        payload: {},
      });
      expect(response.statusCode, response.body).toBe(201);
      return response.json<{ token: string }>().token;
    };
    const exchange = (refreshToken: string) => post(t, '/api/auth/refresh-access-token', { refreshToken });
    const reset = async (revokeDeveloperTokens?: boolean) => {
      const code = await requestCode(admin.email);
      const done = await post(t, '/api/auth/confirm-forgot-password', {
        email: admin.email,
        code,
        password: admin.password,
        revokeDeveloperTokens,
      });
      expect(done.statusCode, done.body).toBe(204);
    };
    const token = await makeToken();
    await reset();
    expect((await exchange(token)).statusCode).toBe(200);
    await reset(true);
    expect((await exchange(token)).statusCode).toBe(401);
  });

  it('spends a code after five wrong guesses and honours only the newest code', async () => {
    const admin = await createTestUser(t.db, { role: 'admin', organizationId: null });
    const first = await requestCode(admin.email);
    const code = await requestCode(admin.email);
    // One in a million, the new code equals the old one; then the old one is the right code.
    if (first !== code) {
      const stale = await post(t, '/api/auth/confirm-forgot-password', {
        email: admin.email,
        code: first,
        password: NEW_PASSWORD,
      });
      expect(stale.json<ErrorResponse>().code).toBe('InvalidCode');
    }

    const wrong = code === '000000' ? '111111' : '000000';
    for (let attempt = 1; attempt < 5; attempt++) {
      const response = await post(t, '/api/auth/confirm-forgot-password', {
        email: admin.email,
        code: wrong,
        password: NEW_PASSWORD,
      });
      expect(response.json<ErrorResponse>().code).toBe('InvalidCode');
    }
    const fifth = await post(t, '/api/auth/confirm-forgot-password', {
      email: admin.email,
      code: wrong,
      password: NEW_PASSWORD,
    });
    expect(fifth.json<ErrorResponse>().code).toBe('InvalidCode');
    // The right code no longer works after the fifth wrong one.
    const late = await post(t, '/api/auth/confirm-forgot-password', {
      email: admin.email,
      code,
      password: NEW_PASSWORD,
    });
    expect(late.json<ErrorResponse>().code).toBe('InvalidCode');
    expect((await signIn(t.app, admin.email, admin.password)).role).toBe('admin');
  });

  it('refuses an expired code, a malformed code and a weak password', async () => {
    const admin = await createTestUser(t.db, { role: 'admin', organizationId: null });
    const code = await requestCode(admin.email);
    const weak = await post(t, '/api/auth/confirm-forgot-password', { email: admin.email, code, password: 'weak' });
    expect(weak.json<ErrorResponse>().code).toBe('InvalidPassword');
    const malformed = await post(t, '/api/auth/confirm-forgot-password', {
      email: admin.email,
      code: '12ab',
      password: NEW_PASSWORD,
    });
    expect(malformed.json<ErrorResponse>().code).toBe('InvalidCode');
    await t.db
      .updateTable('email_codes')
      .set({ expires_at: new Date(Date.now() - 1000) })
      .execute();
    const expired = await post(t, '/api/auth/confirm-forgot-password', {
      email: admin.email,
      code,
      password: NEW_PASSWORD,
    });
    expect(expired.json<ErrorResponse>().code).toBe('InvalidCode');
  });
});

describe('mail that cannot be sent', () => {
  let t: TestApp;

  beforeAll(async () => {
    // Nothing listens on this port: SMTP fails the way an unreachable mail server does.
    t = await createTestApp({ SMTP_URL: 'smtp://127.0.0.1:9' });
  });
  afterAll(() => t?.close());

  it('answers ServiceUnavailable and keeps the sign-up, so asking again works later', async () => {
    const response = await post(t, '/api/auth/signup', { email: 'late@shop.example', password: PASSWORD });
    expect(response.statusCode).toBe(503);
    expect(response.json<ErrorResponse>().code).toBe('ServiceUnavailable');
    expect(await findUserByEmail(t.db, 'late@shop.example')).toBeDefined();
  });
});

describe('sign-up and reset rate limits', () => {
  const WINDOW_MS = 2000;
  let t: TestApp;
  let inbox: SmtpInbox;
  const clock = createTestClock();

  beforeAll(async () => {
    inbox = await startSmtpInbox();
    t = await createTestApp(
      {
        SMTP_URL: inbox.url,
        SIGNIN_LIMIT_PER_IP: '3',
        SIGNIN_LIMIT_PER_EMAIL: '2',
        SIGNIN_LIMIT_WINDOW_SECONDS: String(WINDOW_MS / 1000),
      },
      { clock },
    );
  });
  // Each test starts in a window of its own.
  beforeEach(() => clock.advance(WINDOW_MS));
  afterAll(async () => {
    await t?.close();
    await inbox?.close();
  });

  it('answers 429 with Retry-After past the limit, and lets the visitor in after the window', async () => {
    const responses = await Promise.all(
      Array.from({ length: 7 }, (_, i) =>
        post(t, '/api/auth/signup', { email: `burst-${i}@shop.example`, password: PASSWORD }),
      ),
    );
    const refused = responses.filter((response) => response.statusCode === 429);
    // Three per address in the window: the other four are refused.
    expect(refused).toHaveLength(4);
    for (const response of refused) {
      expect(response.json<ErrorResponse>().code).toBe('TooManyRequests');
      expect(Number(response.headers['retry-after'])).toBeGreaterThan(0);
    }
    clock.advance(WINDOW_MS);
    const later = await post(t, '/api/auth/signup', { email: 'after-the-window@shop.example', password: PASSWORD });
    expect(later.statusCode).toBe(204);
  });

  it('limits reset requests per email', async () => {
    const admin = await createTestUser(t.db, { role: 'admin', organizationId: null });
    const statuses: number[] = [];
    for (let i = 0; i < 4; i++) {
      statuses.push((await post(t, '/api/auth/forgot-password', { email: admin.email })).statusCode);
    }
    expect(statuses).toEqual([204, 204, 429, 429]);
  });

  it('limits reset confirmations per email, from every address together', async () => {
    const admin = await createTestUser(t.db, { role: 'admin', organizationId: null });
    const statuses: number[] = [];
    for (let i = 0; i < 4; i++) {
      const response = await t.app.inject({
        method: 'POST',
        url: '/api/auth/confirm-forgot-password',
        payload: { email: admin.email, code: '000000', password: NEW_PASSWORD },
        remoteAddress: `198.51.100.${60 + i}`,
      });
      statuses.push(response.statusCode);
    }
    expect(statuses.slice(0, 2)).not.toContain(429);
    expect(statuses.slice(2)).toEqual([429, 429]);
  });
});
