import { AppError } from '@rayo/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, createTestOrganization, type TestApp } from '../../../test/test-app.ts';
import type { Organization } from '../../db/schema.ts';
import { verifyPassword } from '../auth/passwords.ts';
import { findUserByEmail, findUserById, findUserCredentials } from './users.repo.ts';
import { createUser, type NewUserInput } from './users.service.ts';

describe('createUser', () => {
  let t: TestApp;
  let organization: Organization;

  beforeAll(async () => {
    t = await createTestApp();
    organization = await createTestOrganization(t.db);
  });
  afterAll(() => t?.close());

  function input(overrides: Partial<NewUserInput>): NewUserInput {
    return {
      organizationId: organization.id,
      email: 'someone@example.com',
      name: 'Someone',
      password: 'Some-password-1',
      role: 'admin',
      language: 'es',
      ...overrides,
    };
  }

  it('stores the email lowercased and only a hash of the password', async () => {
    const user = await createUser(t.db, input({ email: 'Mixed.Case@Example.com' }));
    expect(user.email).toBe('mixed.case@example.com');
    expect(user.language).toBe('es');
    const credentials = await findUserCredentials(t.db, { email: 'MIXED.case@example.com' });
    expect((await findUserCredentials(t.db, { userId: user.id }))?.password_hash).toBe(credentials?.password_hash);
    expect(credentials?.id).toBe(user.id);
    expect(credentials?.password_hash).not.toContain('Some-password-1');
    expect(await verifyPassword('Some-password-1', credentials?.password_hash ?? '')).toBe(true);
    expect(await verifyPassword('some-password-1', credentials?.password_hash ?? '')).toBe(false);
  });

  it('keeps the password hash out of every user it hands back except the sign-in credentials', async () => {
    const user = await createUser(t.db, input({ email: 'no-hash@example.com' }));
    const byId = await findUserById(t.db, user.id);
    const byEmail = await findUserByEmail(t.db, 'no-hash@example.com');
    for (const found of [user, byId, byEmail]) {
      expect(found?.email).toBe('no-hash@example.com');
      expect(found).not.toHaveProperty('password_hash');
    }
  });

  it.each(['dup@example.com', 'DUP@example.com', 'Dup@Example.Com'])(
    'refuses %s with UserAlreadyExist once dup@example.com exists',
    async (email) => {
      if (email === 'dup@example.com') await createUser(t.db, input({ email }));
      const error = await createUser(t.db, input({ email })).catch((caught: unknown) => caught);
      expect(error).toBeInstanceOf(AppError);
      expect(error).toMatchObject({ code: 'UserAlreadyExist', status: 409 });
    },
  );

  it('refuses a back-office user with an organization', async () => {
    const error = await createUser(t.db, input({ role: 'back_office', email: 'bo@example.com' })).catch(
      (caught: unknown) => caught,
    );
    expect(error).toBeInstanceOf(AppError);
    expect(error).toMatchObject({ code: 'InvalidInput' });
  });

  it.each(['super_admin', 'manager'] as const)('refuses a %s without an organization', async (role) => {
    const error = await createUser(t.db, input({ role, organizationId: null, email: `${role}@example.com` })).catch(
      (caught: unknown) => caught,
    );
    expect(error).toMatchObject({ code: 'InvalidInput' });
  });

  it('creates an admin without an organization, to be onboarded', async () => {
    const user = await createUser(t.db, input({ role: 'admin', organizationId: null, email: 'new-admin@example.com' }));
    expect(user.organization_id).toBeNull();
  });

  it('creates a back-office user without an organization', async () => {
    const user = await createUser(
      t.db,
      input({ role: 'back_office', organizationId: null, email: 'staff@example.com' }),
    );
    expect(user.organization_id).toBeNull();
  });
});
