import {
  type CreatedDeveloperToken,
  DEVELOPER_TOKEN_LIMIT,
  DEVELOPER_TOKEN_PREFIX,
  type DeveloperToken,
  type ErrorResponse,
  type MfaEnrollment,
  type RefreshAccessTokenResponse,
} from '@rayo/shared';
import { Secret, TOTP } from 'otpauth';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  bearer,
  createTestApp,
  createTestUser,
  openTestShop,
  signIn,
  TEST_PASSWORD,
  type TestApp,
} from '../../../test/test-app.ts';
import { listAuditEntries } from '../audit/audit.repo.ts';
import { sha256Hex } from '../auth/tokens.ts';

type Headers = Record<string, string>;
const URL = '/api/settings/developer-tokens';

let t: TestApp;

beforeAll(async () => {
  t = await createTestApp({ SIGNIN_LIMIT_PER_EMAIL: '1000', SIGNIN_LIMIT_PER_IP: '1000' });
});
afterAll(() => t.close());

const create = (headers: Headers, payload: object = {}) => t.app.inject({ method: 'POST', url: URL, headers, payload });
const list = (headers: Headers) => t.app.inject({ method: 'GET', url: URL, headers });
const revoke = (headers: Headers, id: string) => t.app.inject({ method: 'DELETE', url: `${URL}/${id}`, headers });
const exchange = (refreshToken: string) =>
  t.app.inject({ method: 'POST', url: '/api/auth/refresh-access-token', payload: { refreshToken } });

async function created(headers: Headers, payload: object = {}): Promise<CreatedDeveloperToken> {
  const response = await create(headers, payload);
  expect(response.statusCode, response.body).toBe(201);
  return response.json<CreatedDeveloperToken>();
}

describe('developer tokens', () => {
  it('shows a new token once, keeps only its hash, lists it without the token and audits the creation', async () => {
    const shop = await openTestShop(t);
    const before = Date.now();
    const token = await created(shop.admin, { name: '  Shop sync  ' });
    expect(token.token.startsWith(DEVELOPER_TOKEN_PREFIX)).toBe(true);
    expect(token).toMatchObject({ name: 'Shop sync', lastUsedAt: null });
    // SPEC §9: valid for 20 years.
    const years = (Date.parse(token.expiresAt) - before) / (365.25 * 24 * 3600 * 1000);
    expect(years).toBeGreaterThan(19.99);
    expect(years).toBeLessThan(20.01);

    const row = await t.db
      .selectFrom('developer_tokens')
      .selectAll()
      .where('id', '=', token.id)
      .executeTakeFirstOrThrow();
    expect(row.token_hash).toBe(sha256Hex(token.token));
    expect(JSON.stringify(row)).not.toContain(token.token);

    const listed = (await list(shop.admin)).json<DeveloperToken[]>();
    expect(listed).toEqual([
      {
        id: token.id,
        name: 'Shop sync',
        scope: 'checkouts',
        createdAt: token.createdAt,
        lastUsedAt: null,
        expiresAt: token.expiresAt,
      },
    ]);
    expect(JSON.stringify(listed)).not.toContain(token.token);

    const unnamed = await created(shop.admin, { name: '   ' });
    expect(unnamed.name).toBeNull();

    const audit = await listAuditEntries(t.db, { organizationId: shop.organization.id });
    const entry = audit.find(
      (e) => e.action === 'settings.developer_token_created' && e.target === `developer_token:${token.id}`,
    );
    expect(entry).toMatchObject({ actor_user_id: shop.user.id, actor_email: shop.user.email });
    expect(JSON.stringify(audit)).not.toContain(token.token);
  });

  it('exchanges for an access token again and again without rotating, and records the last use', async () => {
    const shop = await openTestShop(t);
    const token = await created(shop.admin, { scope: 'read-only' });
    for (let i = 0; i < 3; i++) {
      const response = await exchange(token.token);
      expect(response.statusCode, response.body).toBe(200);
      const body = response.json<RefreshAccessTokenResponse>();
      // The token is neither replaced nor echoed back.
      expect(body.refreshToken).toBeUndefined();
      expect(response.body).not.toContain(token.token);
      const accounts = await t.app.inject({
        method: 'GET',
        url: '/api/account/all',
        headers: bearer(body.accessToken),
      });
      expect(accounts.statusCode, accounts.body).toBe(200);
    }
    const [listed] = (await list(shop.admin)).json<DeveloperToken[]>();
    expect(listed?.lastUsedAt).not.toBeNull();
    // Using it again and again is what it is for: nothing is reported as reuse.
    const audit = await listAuditEntries(t.db, { organizationId: shop.organization.id });
    expect(audit.some((e) => e.action === 'auth.refresh_token_reused')).toBe(false);
  });

  it('acts as the admin who made it, in their organization, marked as a program (checkout protection)', async () => {
    const shop = await openTestShop(t);
    const token = await created(shop.admin);
    const { accessToken } = (await exchange(token.token)).json<RefreshAccessTokenResponse>();
    const claims = await t.runtime.deps.tokens.verifyAccessToken(accessToken);
    expect(claims).toEqual({
      userId: shop.user.id,
      organizationId: shop.organization.id,
      role: 'admin',
      sessionEpoch: 0,
      developerScope: 'checkouts',
    });
    const session = await t.runtime.deps.tokens.verifyAccessToken(shop.admin.authorization.slice('Bearer '.length));
    expect(session).not.toHaveProperty('developerScope');
  });

  it('does only what its scope allows: store checkouts by default, reads, or all but what a person does', async () => {
    const shop = await openTestShop(t);
    const as = async (scope?: string) => {
      const token = await created(shop.admin, scope ? { scope } : {});
      return bearer((await exchange(token.token)).json<RefreshAccessTokenResponse>().accessToken);
    };
    const send = (headers: Headers, method: 'GET' | 'POST', url: string, payload?: object) =>
      t.app.inject({ method, url, headers, ...(payload ? { payload } : {}) });
    const forbidden = async (answer: ReturnType<typeof send>) => {
      const response = await answer;
      expect([response.statusCode, response.json<ErrorResponse>().code], response.body).toEqual([403, 'Forbidden']);
    };

    const checkouts = await as();
    // Past the permission table, the store API answers for itself (no virtual BPT yet).
    expect(
      (await send(checkouts, 'POST', '/api/checkouts', { amount: '1', currency: 'GTQ', orderId: '1' })).statusCode,
    ).toBe(400);
    await forbidden(send(checkouts, 'GET', '/api/account/all'));
    await forbidden(send(checkouts, 'POST', '/api/accounts', { name: 'Till' }));

    const reader = await as('read-only');
    expect((await send(reader, 'GET', '/api/account/all')).statusCode).toBe(200);
    await forbidden(send(reader, 'POST', '/api/accounts', { name: 'Till' }));
    await forbidden(send(reader, 'POST', '/api/checkouts', { amount: '1', currency: 'GTQ', orderId: '2' }));

    const full = await as('full');
    expect((await send(full, 'POST', '/api/accounts', { name: 'Till' })).statusCode).toBe(201);
    // What only a person does: people with passwords, more tokens, the admin's own password.
    await forbidden(
      send(full, 'POST', '/api/managers', {
        name: 'Mo',
        email: 'mo@example.com',
        password: 'Managers-pass-1',
        accountIds: [],
      }),
    );
    await forbidden(send(full, 'POST', URL, { scope: 'full' }));
    await forbidden(
      send(full, 'POST', '/api/settings/password', { currentPassword: TEST_PASSWORD, newPassword: 'Stolen-pass-2!' }),
    );

    expect((await create(shop.admin, { scope: 'root' })).statusCode).toBe(400);
    const listed = (await list(shop.admin)).json<DeveloperToken[]>();
    expect(listed.map((token) => token.scope).sort()).toEqual(['checkouts', 'full', 'read-only']);
  });

  it('stops working at once when revoked, and the revocation is audited', async () => {
    const shop = await openTestShop(t);
    const token = await created(shop.admin, { name: 'Old script' });
    const kept = await created(shop.admin);
    expect((await exchange(token.token)).statusCode).toBe(200);

    const revoked = await revoke(shop.admin, token.id);
    expect(revoked.statusCode, revoked.body).toBe(204);
    const refused = await exchange(token.token);
    expect([refused.statusCode, refused.json<ErrorResponse>().code]).toEqual([401, 'Unauthorized']);
    expect((await list(shop.admin)).json<DeveloperToken[]>().map((d) => d.id)).toEqual([kept.id]);
    expect((await exchange(kept.token)).statusCode).toBe(200);
    // A second revocation finds nothing to revoke.
    expect((await revoke(shop.admin, token.id)).statusCode).toBe(404);

    const audit = await listAuditEntries(t.db, { organizationId: shop.organization.id });
    expect(audit.find((e) => e.action === 'settings.developer_token_revoked')).toMatchObject({
      target: `developer_token:${token.id}`,
      before: { name: 'Old script' },
    });
  });

  it('survives a password change unless the change revokes the tokens its user made', async () => {
    const shop = await openTestShop(t);
    const kept = await created(shop.admin);
    const change = (headers: Record<string, string>, revokeDeveloperTokens?: boolean) =>
      t.app.inject({
        method: 'POST',
        url: '/api/settings/password',
        headers,
        payload: { currentPassword: TEST_PASSWORD, newPassword: TEST_PASSWORD, revokeDeveloperTokens },
      });
    const first = await change(shop.admin);
    expect(first.statusCode, first.body).toBe(200);
    expect((await exchange(kept.token)).statusCode).toBe(200);

    const admin = bearer(first.json<{ accessToken: string }>().accessToken);
    const other = await openTestShop(t);
    const othersToken = await created(other.admin);
    const second = await change(admin, true);
    expect(second.statusCode, second.body).toBe(200);
    expect((await exchange(kept.token)).statusCode).toBe(401);
    expect((await exchange(othersToken.token)).statusCode).toBe(200);
  });

  it('refuses an unknown, expired or other organization’s token, and another organization cannot revoke it', async () => {
    const shop = await openTestShop(t);
    const other = await openTestShop(t);
    const token = await created(shop.admin);
    expect((await exchange(`${DEVELOPER_TOKEN_PREFIX}nope`)).statusCode).toBe(401);
    expect((await revoke(other.admin, token.id)).statusCode).toBe(404);
    expect((await list(other.admin)).json<DeveloperToken[]>()).toEqual([]);
    expect((await exchange(token.token)).statusCode).toBe(200);

    await t.db
      .updateTable('developer_tokens')
      .set({ expires_at: new Date(Date.now() - 1000) })
      .where('id', '=', token.id)
      .execute();
    expect((await exchange(token.token)).statusCode).toBe(401);
    expect((await list(shop.admin)).json<DeveloperToken[]>()).toEqual([]);
  });

  it(`holds at most ${DEVELOPER_TOKEN_LIMIT} active tokens per organization, even when asked at once`, async () => {
    const shop = await openTestShop(t);
    const answers = await Promise.all(Array.from({ length: DEVELOPER_TOKEN_LIMIT + 3 }, () => create(shop.admin)));
    const statuses = answers.map((a) => a.statusCode).sort();
    expect(statuses.filter((s) => s === 201)).toHaveLength(DEVELOPER_TOKEN_LIMIT);
    const refused = answers.find((a) => a.statusCode !== 201);
    expect([refused?.statusCode, refused?.json<ErrorResponse>().code]).toEqual([409, 'DeveloperTokenLimit']);

    // A revoked token frees its place.
    const [first] = (await list(shop.admin)).json<DeveloperToken[]>();
    expect((await revoke(shop.admin, first?.id ?? '')).statusCode).toBe(204);
    expect((await create(shop.admin)).statusCode).toBe(201);
    expect((await create(shop.admin)).statusCode).toBe(409);
  });

  it('refuses bad input with a 400 and stores nothing', async () => {
    const shop = await openTestShop(t);
    const long = await create(shop.admin, { name: 'x'.repeat(101) });
    expect(long.statusCode).toBe(400);
    expect((await create(shop.admin, { name: 42 })).statusCode).toBe(400);
    expect((await revoke(shop.admin, 'not-a-uuid')).statusCode).toBe(400);
    expect((await list(shop.admin)).json<DeveloperToken[]>()).toEqual([]);
  });

  it('is refused to managers, who do not see the list either', async () => {
    const shop = await openTestShop(t);
    const token = await created(shop.admin);
    const user = await createTestUser(t.db, { role: 'manager', organizationId: shop.organization.id });
    const manager = bearer((await signIn(t.app, user.email, user.password)).accessToken);
    expect((await list(manager)).statusCode).toBe(403);
    expect((await create(manager)).statusCode).toBe(403);
    expect((await revoke(manager, token.id)).statusCode).toBe(403);
    expect((await exchange(token.token)).statusCode).toBe(200);
  });

  it('needs a code in the mfa-code header to create one when the admin has MFA on', async () => {
    const shop = await openTestShop(t);
    const enable = await t.app.inject({ method: 'POST', url: '/api/settings/mfa/enable', headers: shop.admin });
    const totp = new TOTP({ secret: Secret.fromBase32(enable.json<MfaEnrollment>().secret) });
    const validate = await t.app.inject({
      method: 'POST',
      url: '/api/settings/mfa/validate',
      headers: shop.admin,
      payload: { code: totp.generate() },
    });
    expect(validate.statusCode, validate.body).toBe(204);

    const without = await create(shop.admin);
    expect([without.statusCode, without.json<ErrorResponse>().code]).toEqual([400, 'MissingMfaCode']);
    const wrong = await create({ ...shop.admin, 'mfa-code': '000000' });
    expect(wrong.json<ErrorResponse>().code).toBe('WrongMfaCode');
    expect((await list(shop.admin)).json<DeveloperToken[]>()).toEqual([]);

    // The validate used the current step's code; the next step's is still unused.
    const code = totp.generate({ timestamp: Date.now() + 30_000 });
    const token = await created({ ...shop.admin, 'mfa-code': code });
    // Exchanging is what scripts do unattended: no code there.
    expect((await exchange(token.token)).statusCode).toBe(200);
    // Revoking only takes access away, so it needs no code.
    expect((await revoke(shop.admin, token.id)).statusCode).toBe(204);
  });

  it('leaves session refresh tokens rotating as before', async () => {
    const shop = await openTestShop(t);
    const session = await t.app.inject({
      method: 'POST',
      url: '/api/auth/signin',
      payload: { email: shop.user.email, password: TEST_PASSWORD, remember: true },
    });
    const { refreshToken } = session.json<{ refreshToken: string }>();
    const first = await exchange(refreshToken);
    expect(first.json<RefreshAccessTokenResponse>().refreshToken).toEqual(expect.any(String));
    expect((await exchange(refreshToken)).statusCode).toBe(401);
  });
});
