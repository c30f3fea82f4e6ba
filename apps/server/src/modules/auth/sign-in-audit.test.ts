import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createTestApp,
  createTestOrganization,
  createTestUser,
  signIn,
  TEST_PASSWORD,
  type TestApp,
} from '../../../test/test-app.ts';
import { listAuditEntries } from '../audit/audit.repo.ts';

describe('sign-in audit', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t?.close());

  it('records a sign-in and a refused one with the address tried, never the password', async () => {
    const organization = await createTestOrganization(t.db);
    const user = await createTestUser(t.db, { role: 'admin', organizationId: organization.id });
    await signIn(t.app, user.email, TEST_PASSWORD);
    const wrong = await t.app.inject({
      method: 'POST',
      url: '/api/auth/signin',
      payload: { email: user.email.toUpperCase(), password: 'Wrong-password-9' },
      remoteAddress: '203.0.113.7',
    });
    expect(wrong.statusCode).toBe(401);
    const unknown = await t.app.inject({
      method: 'POST',
      url: '/api/auth/signin',
      payload: { email: 'nobody@example.com', password: 'Wrong-password-9' },
    });
    expect(unknown.statusCode).toBe(401);

    const entries = await listAuditEntries(t.db);
    const row = ({ action, actor_user_id, actor_email, organization_id, target, after, ip }: (typeof entries)[0]) => ({
      action,
      actor_user_id,
      actor_email,
      organization_id,
      target,
      after,
      ip,
    });
    expect(entries.slice(0, 3).map(row)).toEqual([
      {
        action: 'auth.signin_failed',
        actor_user_id: null,
        actor_email: 'nobody@example.com',
        organization_id: null,
        target: null,
        after: { reason: 'password' },
        ip: '127.0.0.1',
      },
      {
        action: 'auth.signin_failed',
        actor_user_id: user.id,
        actor_email: user.email.toUpperCase(),
        organization_id: organization.id,
        target: `user:${user.id}`,
        after: { reason: 'password' },
        ip: '203.0.113.7',
      },
      {
        action: 'auth.signin',
        actor_user_id: user.id,
        actor_email: user.email,
        organization_id: organization.id,
        target: `user:${user.id}`,
        after: { method: 'password' },
        ip: '127.0.0.1',
      },
    ]);
    expect(JSON.stringify(entries)).not.toMatch(/Wrong-password-9|Test-password-1/);
  });
});
