import type { OutgoingHttpHeaders } from 'node:http';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  bearer,
  createTestApp,
  createTestOrganization,
  createTestUser,
  signIn,
  TEST_PASSWORD,
  type TestApp,
} from '../../test/test-app.ts';

/** The headers `security.ts` sets; every answer must carry the same ones. */
const SECURITY_HEADERS = [
  'content-security-policy',
  'cross-origin-opener-policy',
  'cross-origin-resource-policy',
  'origin-agent-cluster',
  'referrer-policy',
  'strict-transport-security',
  'x-content-type-options',
  'x-dns-prefetch-control',
  'x-download-options',
  'x-frame-options',
  'x-permitted-cross-domain-policies',
  'x-xss-protection',
];

function securityHeadersOf(headers: OutgoingHttpHeaders): Record<string, unknown> {
  return Object.fromEntries(SECURITY_HEADERS.map((name) => [name, headers[name]]));
}

describe('security headers', () => {
  let t: TestApp;
  let manager: { authorization: string };

  beforeAll(async () => {
    t = await createTestApp();
    const organization = await createTestOrganization(t.db);
    const user = await createTestUser(t.db, { role: 'manager', organizationId: organization.id });
    manager = bearer((await signIn(t.app, user.email, TEST_PASSWORD)).accessToken);
  });
  afterAll(() => t.close());

  it('are the same on refusals and errors as on a success', async () => {
    const ok = await t.app.inject({ method: 'GET', url: '/api/health' });
    expect(ok.statusCode).toBe(200);
    const expected = securityHeadersOf(ok.headers);
    expect(expected['content-security-policy']).toContain("default-src 'self'");
    expect(expected['x-frame-options']).toBe('SAMEORIGIN');

    const answers: Array<[number, LightMyRequestResponse]> = [
      // The access hook refuses these before any route runs.
      [401, await t.app.inject({ method: 'GET', url: '/api/bpts' })],
      [401, await t.app.inject({ method: 'GET', url: '/api/bpts', headers: { authorization: 'Bearer forged' } })],
      [403, await t.app.inject({ method: 'POST', url: '/api/accounts', headers: manager, payload: { name: 'No' } })],
      [404, await t.app.inject({ method: 'GET', url: '/api/no-such-route' })],
      [400, await t.app.inject({ method: 'POST', url: '/api/auth/signin', payload: { email: 'not an email' } })],
      // Fastify answers a malformed URL before any hook runs.
      [400, await t.app.inject({ method: 'GET', url: '/api/invoices/%E0%A4%A' })],
    ];
    for (const [status, response] of answers) {
      expect(response.statusCode, response.body).toBe(status);
      expect(securityHeadersOf(response.headers), `${status} ${response.body}`).toEqual(expected);
    }
  });
});
