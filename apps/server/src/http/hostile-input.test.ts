import type { Account, Bpt, ErrorResponse } from '@rayo/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  bearer,
  createTestAccount,
  createTestApp,
  createTestOrganization,
  createTestUser,
  signIn,
  type TestApp,
} from '../../test/test-app.ts';

/**
 * Input that passes or skirts the schemas and used to reach PostgreSQL or Fastify's own answers
 * (a 500, or an error without our shape): each is a 400 with a code now, and stores nothing.
 */

let t: TestApp;
let admin: { authorization: string };
let account: Account;
let bpt: Bpt;

beforeAll(async () => {
  t = await createTestApp();
  const organization = await createTestOrganization(t.db);
  account = await createTestAccount(t.db, organization.id, 'Counter');
  const user = await createTestUser(t.db, { role: 'admin', organizationId: organization.id });
  admin = bearer((await signIn(t.app, user.email, user.password)).accessToken);
  const created = await t.app.inject({
    method: 'POST',
    url: '/api/bpts',
    headers: admin,
    payload: { name: 'Till', accountId: account.id, currency: 'GTQ', shareable: true },
  });
  bpt = created.json<Bpt>();
});
afterAll(() => t.close());

function expectError(response: { statusCode: number; json: <T>() => T }, status: number, code: string) {
  expect(response.statusCode).toBe(status);
  const body = response.json<ErrorResponse>();
  expect(Object.keys(body).sort()).toEqual(['code', 'message']);
  expect(body.code).toBe(code);
  return body;
}

describe('text no column can hold', () => {
  it('refuses a NUL byte in a JSON body, and stores nothing', async () => {
    const response = await t.app.inject({
      method: 'POST',
      url: '/api/accounts',
      headers: admin,
      payload: { name: 'Bar\u0000' },
    });
    expect(expectError(response, 400, 'InvalidInput').message).toMatch(/^name contains a NUL byte/);
    const names = await t.db.selectFrom('accounts').select('name').where('name', 'like', 'Bar%').execute();
    expect(names).toEqual([]);
  });

  it("answers with the field's own code, as a schema failure would", async () => {
    const payload = { email: 'a\u0000@example.com', password: 'x' };
    expectError(await t.app.inject({ method: 'POST', url: '/api/auth/signin', payload }), 400, 'InvalidEmail');
    const amount = { amount: '1\u0000' };
    const url = `/api/bpts/${bpt.id}/invoices`;
    expectError(await t.app.inject({ method: 'POST', url, headers: admin, payload: amount }), 400, 'InvalidAmount');
  });

  it('refuses a NUL byte in a path parameter or a query string', async () => {
    const token = `${bpt.shareToken}%00`;
    expectError(await t.app.inject({ method: 'GET', url: `/api/terminal/${token}` }), 400, 'InvalidInput');
    const url = `/api/bpts/${bpt.id}/transactions?limit=%00`;
    expectError(await t.app.inject({ method: 'GET', url, headers: admin }), 400, 'InvalidInput');
  });

  it('refuses lone UTF-16 surrogates, and NUL in keys and nested values', async () => {
    const headers = { ...admin, 'content-type': 'application/json' };
    const cases: Array<[string, string, string]> = [
      [`/api/accounts/${account.id}`, '{"name":"x\\ud800"}', 'InvalidInput'],
      [`/api/accounts/${account.id}`, '{"name":"ok","\\u0000":1}', 'InvalidInput'],
      // internalCode fails like a code, as its schema failures do (SPEC §8).
      [`/api/accounts/${account.id}`, '{"internalCode":"\\udfff"}', 'InvalidCode'],
      [
        '/api/bpts',
        `{"name":"T","accountId":"${account.id}","currency":"GTQ","channel":{"a":["\\u0000"]}}`,
        'InvalidInput',
      ],
    ];
    for (const [url, payload, code] of cases) {
      const method = url === '/api/bpts' ? 'POST' : 'PATCH';
      expectError(await t.app.inject({ method, url, headers, payload }), 400, code);
    }
    const row = await t.db
      .selectFrom('accounts')
      .select(['name', 'internal_code'])
      .where('id', '=', account.id)
      .executeTakeFirst();
    expect(row).toEqual({ name: 'Counter', internal_code: null });
  });
});

describe('deeply nested JSON', () => {
  const nested = (levels: number, inner = '0') => `${'['.repeat(levels)}${inner}${']'.repeat(levels)}`;
  const json = { 'content-type': 'application/json' };

  it('refuses thousands of levels on a public route with a 400, not a 500 or a stalled server', async () => {
    // 7,000 levels overflowed the recursive walk of the text check (a 500 'Maximum call stack size
    // exceeded'); 6,000 levels in 12 KB cost it over 100 ms of the event loop per request.
    for (const url of ['/api/auth/signup', '/api/auth/signin', `/api/terminal/${bpt.shareToken}/invoices`]) {
      for (const payload of [nested(7000), `{"email":${nested(6000, '"a\\u0000"')}}`]) {
        const response = await t.app.inject({ method: 'POST', url, headers: json, payload });
        expect(expectError(response, 400, 'InvalidInput').message).toBe('The JSON body nests deeper than 32 levels');
      }
    }
  });

  it('refuses one level past the limit, counting objects and arrays but not brackets inside strings', async () => {
    const url = `/api/accounts/${account.id}`;
    const deep = `{"name":"x","internalCode":${nested(32)}}`;
    expectError(
      await t.app.inject({ method: 'PATCH', url, headers: { ...admin, ...json }, payload: deep }),
      400,
      'InvalidInput',
    );
    // 32 levels pass the parser and meet the schema, which refuses the field as usual.
    const allowed = `{"name":"x","internalCode":${nested(31)}}`;
    const answer = await t.app.inject({ method: 'PATCH', url, headers: { ...admin, ...json }, payload: allowed });
    expectError(answer, 400, 'InvalidCode');
    const brackets = JSON.stringify({ name: `[{\\"${'['.repeat(60)}` });
    const renamed = await t.app.inject({ method: 'PATCH', url, headers: { ...admin, ...json }, payload: brackets });
    expect(renamed.statusCode, renamed.body).toBe(200);
    await t.app.inject({ method: 'PATCH', url, headers: admin, payload: { name: 'Counter' } });
  });
});

describe('updates that change nothing', () => {
  it.each([
    ['an account', () => `/api/accounts/${account.id}`],
    ['a terminal', () => `/api/bpts/${bpt.id}`],
  ])('refuses an empty update of %s with a clear 400', async (_, url) => {
    const response = await t.app.inject({ method: 'PATCH', url: url(), headers: admin, payload: {} });
    expect(expectError(response, 400, 'InvalidInput').message).toBe(
      'The request is not valid: Name at least one field to change',
    );
  });
});

describe('dashboard periods', () => {
  it.each([
    ['an end past the year 9999', 'start=0&end=253402300801'],
    ['a start past what a date holds', 'start=8640000000001'],
    ['the largest safe integer', 'start=9007199254740991'],
    ['a negative start', 'start=-1'],
    ['an exponent', 'end=1e400'],
    ['an end before the start', 'start=1700000000&end=1600000000'],
  ])('refuses %s', async (_, query) => {
    for (const path of ['', '/sum', '/series', '/csv', `/sum/${account.id}`]) {
      const response = await t.app.inject({
        method: 'GET',
        url: `/api/dashboard/transactions${path}?${query}`,
        headers: admin,
      });
      expectError(response, 400, 'InvalidInput');
    }
  });

  it('answers a page far past the ledger with an empty page', async () => {
    const url = `/api/dashboard/transactions?page=${Number.MAX_SAFE_INTEGER}&limit=500`;
    const response = await t.app.inject({ method: 'GET', url, headers: admin });
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json()).toMatchObject({ transactions: [] });
  });

  it('answers the whole range it takes', async () => {
    const url = '/api/dashboard/transactions/series?start=0&end=253402300800&bucket=month';
    expect((await t.app.inject({ method: 'GET', url, headers: admin })).statusCode).toBe(200);
  });
});

describe("Fastify's own refusals", () => {
  it('answers an overlong path parameter and a malformed URL with { code, message }', async () => {
    expectError(await t.app.inject({ method: 'GET', url: `/api/terminal/${'a'.repeat(200)}` }), 414, 'InvalidInput');
    expectError(await t.app.inject({ method: 'GET', url: '/api/terminal/%E0%A4%A' }), 400, 'InvalidInput');
  });
});
