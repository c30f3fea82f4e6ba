import { randomBytes } from 'node:crypto';
import path from 'node:path';
import type { Language, Role, SignInResponse } from '@rayo/shared';
import pg from 'pg';
import { expect, inject } from 'vitest';
import { buildApp } from '../src/app.ts';
import { type Config, loadConfig } from '../src/config.ts';
import { createDatabase, type Db } from '../src/db/database.ts';
import type { App } from '../src/http/app-type.ts';
import { insertAccount } from '../src/modules/accounts/accounts.repo.ts';
import { hashPassword } from '../src/modules/auth/passwords.ts';
import { createOrganization } from '../src/modules/organizations/organizations.service.ts';
import { insertUser, linkManagerToAccounts } from '../src/modules/users/users.repo.ts';
import { type Runtime, type RuntimeOptions, startRuntime } from '../src/runtime.ts';

export const TEST_JWT_SECRET = 'test-secret-that-is-at-least-32-characters-long';
export const TEST_PASSWORD = 'Test-password-1';

async function withAdminClient<T>(run: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: inject('adminDatabaseUrl') });
  await client.connect();
  try {
    return await run(client);
  } finally {
    await client.end();
  }
}

export type TestDatabase = { url: string; drop: () => Promise<void> };

/**
 * A new database on the test cluster: a clone of the migrated template, or an empty one with
 * `{ migrated: false }`.
 */
export async function createTestDatabase(options: { migrated?: boolean } = {}): Promise<TestDatabase> {
  const name = `test_${randomBytes(8).toString('hex')}`;
  const template = options.migrated === false ? 'template1' : inject('templateDatabase');
  await withAdminClient((client) => client.query(`create database "${name}" template "${template}"`));
  const url = new URL(inject('adminDatabaseUrl'));
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    drop: async () => {
      await withAdminClient((client) => client.query(`drop database if exists "${name}" with (force)`));
    },
  };
}

export type TestApp = { app: App; db: Db; config: Config; runtime: Runtime; close: () => Promise<void> };

/**
 * The whole application over a fresh migrated database; `env` overrides configuration variables.
 * The job worker with its periodic passes, the settlement stream and the rate refresh run only
 * with `{ jobs: true }`: most files call the API and read what it wrote, and a worker polling its
 * queue and passes beside them costs time and checks nothing.
 */
export async function createTestApp(env: Record<string, string> = {}, options: RuntimeOptions = {}): Promise<TestApp> {
  const database = await createTestDatabase();
  const config = loadConfig({
    DATABASE_URL: database.url,
    JWT_SECRET: TEST_JWT_SECRET,
    LOG_LEVEL: 'silent',
    // API tests must not depend on whether the web app happens to be built in this checkout.
    WEB_DIST_DIR: path.join(import.meta.dirname, 'no-web-dist'),
    // Tests send far more requests from one address than a client does, and the event loop's
    // delay depends on what else the machine runs: the tests of the budget set their own.
    REQUEST_BUDGET_ANONYMOUS_BURST: '1000000',
    REQUEST_BUDGET_SIGNED_IN_BURST: '1000000',
    REQUEST_BUDGET_LAG_MS: '0',
    ...env,
  });
  const db = createDatabase(database.url, 4);
  const release = async () => {
    await db.destroy();
    await database.drop();
  };
  try {
    const runtime = await startRuntime(config, { db, url: database.url }, { ...options, jobs: options.jobs ?? false });
    const app = await buildApp(runtime.deps);
    await app.ready();
    return {
      app,
      db,
      config,
      runtime,
      close: async () => {
        await app.close();
        await runtime.stop();
        await release();
      },
    };
  } catch (error) {
    await release();
    throw error;
  }
}

export async function createTestOrganization(db: Db, name = `Org ${randomBytes(3).toString('hex')}`) {
  return createOrganization(db, { name, countryCode: 'GT', language: 'en' });
}

export async function createTestAccount(db: Db, organizationId: string, name: string) {
  return insertAccount(db, { organizationId, name, internalCode: null });
}

/**
 * The cost of TEST_PASSWORD's stored hash. Signing in verifies a hash at the cost stored with it,
 * so sign-ins of test users still run scrypt and compare, without the production cost (0.1–0.4 s
 * of CPU each on these machines; a run signs in thousands of times). Passwords set through the
 * API (sign-up, resets, managers, password changes) are hashed at the production cost, which
 * passwords.test.ts checks.
 */
const TEST_PASSWORD_COST = { n: 16, r: 1, p: 1 };
let testPasswordHash: Promise<string> | undefined;

/** A user with TEST_PASSWORD, hashed once per file and stored for every user it makes. */
export async function createTestUser(
  db: Db,
  input: { role: Role; organizationId: string | null; email?: string; language?: Language; accountIds?: string[] },
) {
  const email = input.email ?? `${input.role}-${randomBytes(4).toString('hex')}@example.com`;
  testPasswordHash ??= hashPassword(TEST_PASSWORD, TEST_PASSWORD_COST);
  const user = await insertUser(db, {
    organization_id: input.organizationId,
    email: email.toLowerCase(),
    name: email.split('@')[0] ?? email,
    password_hash: await testPasswordHash,
    role: input.role,
    language: input.language ?? 'en',
    email_confirmed_at: new Date(),
  });
  if (input.accountIds) await linkManagerToAccounts(db, user.id, input.accountIds);
  return { ...user, password: TEST_PASSWORD };
}

/** Signs in through the API and returns its answer, failing the test when sign-in does not succeed. */
export async function signIn(app: App, email: string, password: string): Promise<SignInResponse> {
  const response = await app.inject({ method: 'POST', url: '/api/auth/signin', payload: { email, password } });
  expect(response.statusCode, response.body).toBe(200);
  return response.json<SignInResponse>();
}

export function bearer(accessToken: string): { authorization: string } {
  return { authorization: `Bearer ${accessToken}` };
}

/** A new organization with an admin signed in: the start of most tests of an admin's screens. */
export async function openTestShop(t: TestApp, organizationName?: string) {
  const organization = await createTestOrganization(t.db, organizationName);
  const user = await createTestUser(t.db, { role: 'admin', organizationId: organization.id });
  const admin = bearer((await signIn(t.app, user.email, user.password)).accessToken);
  return { organization, user, admin };
}
