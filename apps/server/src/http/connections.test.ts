import { type ErrorResponse, isErrorCode } from '@rayo/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openRawConnection, type RawAnswer, rawExchange } from '../../test/raw-http.ts';
import {
  bearer,
  createTestApp,
  createTestOrganization,
  createTestUser,
  signIn,
  TEST_PASSWORD,
  type TestApp,
} from '../../test/test-app.ts';
import { waitFor } from '../../test/wait-for.ts';

/**
 * What reaches Rayo below the routes: refusals Node's HTTP parser makes before Fastify sees a
 * request, connections that trickle, and the caching of API answers.
 */

const PER_ADDRESS = 6;
let t: TestApp;
/** The security headers of an ordinary answer, which every raw refusal must carry too. */
let securityHeaders: Record<string, string>;

beforeAll(async () => {
  t = await createTestApp({
    CONNECTIONS_PER_ADDRESS: String(PER_ADDRESS),
    HTTP_HEADERS_TIMEOUT_SECONDS: '1',
    HTTP_REQUEST_TIMEOUT_SECONDS: '2',
  });
  await t.app.listen({ host: '127.0.0.1', port: 0 });
  const ok = await rawExchange(t.app, 'GET /api/health HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n', false);
  expect(ok?.status).toBe(200);
  securityHeaders = Object.fromEntries(
    Object.entries(ok?.headers ?? {}).filter(([name]) =>
      /^(content-security-policy|strict-transport-security|x-|referrer-policy|cross-origin-)/.test(name),
    ),
  );
  expect(Object.keys(securityHeaders).length).toBeGreaterThan(8);
});
afterAll(() => t?.close());

function expectRefusal(answer: RawAnswer | undefined, status: number, code: string) {
  expect(answer?.status, answer?.body).toBe(status);
  const body = JSON.parse(answer?.body ?? '') as ErrorResponse;
  expect(Object.keys(body).sort()).toEqual(['code', 'message']);
  expect(isErrorCode(body.code) && body.code).toBe(code);
  for (const [name, value] of Object.entries(securityHeaders)) expect(answer?.headers[name], name).toBe(value);
  return body;
}

describe("refusals of Node's HTTP parser", () => {
  it('answers headers too large with 431 in our shape, with the security headers', async () => {
    const request = `GET /api/health HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`;
    const body = expectRefusal(await rawExchange(t.app, request, false), 431, 'InvalidInput');
    expect(body.message).toBe('The request headers are too large');
  });

  it('answers Content-Length beside chunked with 400 in our shape, with the security headers', async () => {
    const request =
      'POST /api/auth/signin HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n' +
      'Content-Length: 5\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n';
    const body = expectRefusal(await rawExchange(t.app, request, false), 400, 'InvalidInput');
    expect(body.message).toMatch(/^The request is not valid HTTP/);
  });
});

describe('connections that trickle', () => {
  it('closes a request whose body stops coming, with 408 in our shape', async () => {
    const connection = openRawConnection(t.app);
    connection.write('POST /api/auth/signin HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n');
    connection.write('Content-Length: 100\r\n\r\n{"email":');
    expectRefusal(await connection.answer, 408, 'InvalidInput');
    await connection.closed;
  });

  it('closes a request whose headers stop coming', async () => {
    const connection = openRawConnection(t.app);
    connection.write('GET /api/health HTTP/1.1\r\nHost: x\r\n');
    expectRefusal(await connection.answer, 408, 'InvalidInput');
    await connection.closed;
  });

  it(`holds at most ${PER_ADDRESS} connections of one address open, and takes new ones as they close`, async () => {
    const held = Array.from({ length: PER_ADDRESS }, () => openRawConnection(t.app));
    await Promise.all(held.map((connection) => connection.connected));
    for (const connection of held) connection.write('GET /api/health HTTP/1.1\r\nHost: x\r\n');
    const refused = await rawExchange(t.app, 'GET /api/health HTTP/1.1\r\nHost: x\r\n\r\n', false);
    const body = expectRefusal(refused, 429, 'TooManyRequests');
    expect(body.message).toBe('Too many open connections from your address');
    expect(refused?.headers['retry-after']).toBe('5');
    for (const connection of held) connection.destroy();
    // The server sees the closes a moment after the client made them.
    const health = 'GET /api/health HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n';
    await waitFor(async () => (await rawExchange(t.app, health, false))?.status === 200);
  });
});

describe('caching of API answers', () => {
  it('forbids keeping a signed-in answer or a session, and leaves public files their own caching', async () => {
    const organization = await createTestOrganization(t.db);
    const user = await createTestUser(t.db, { role: 'admin', organizationId: organization.id });
    const session = await t.app.inject({
      method: 'POST',
      url: '/api/auth/signin',
      payload: { email: user.email, password: TEST_PASSWORD },
    });
    expect(session.headers['cache-control']).toBe('no-store');
    const admin = bearer((await signIn(t.app, user.email, TEST_PASSWORD)).accessToken);
    for (const url of ['/api/settings/banking-info/all', '/api/accounts', '/api/organization/current', '/api/nope']) {
      const answer = await t.app.inject({ method: 'GET', url, headers: admin });
      expect(answer.headers['cache-control'], url).toBe('no-store');
    }
    const unauthorized = await t.app.inject({ method: 'GET', url: '/api/accounts' });
    expect(unauthorized.headers['cache-control']).toBe('no-store');
    const countries = await t.app.inject({ method: 'GET', url: '/api/countries' });
    expect(countries.headers['cache-control']).toBe('public, max-age=3600');
  });
});
