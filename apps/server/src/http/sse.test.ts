import type { Bpt, ErrorResponse, Invoice } from '@rayo/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openSse } from '../../test/sse.ts';
import {
  bearer,
  createTestAccount,
  createTestApp,
  createTestOrganization,
  createTestUser,
  signIn,
  type TestApp,
} from '../../test/test-app.ts';
import { waitFor } from '../../test/wait-for.ts';
import { buildApp } from '../app.ts';
import { STREAM_LIMITS } from './sse.ts';

describe('invoice event streams over HTTP', () => {
  let t: TestApp;
  let base: string;
  let invoice: Invoice;

  beforeAll(async () => {
    t = await createTestApp();
    const organization = await createTestOrganization(t.db);
    const accountId = (await createTestAccount(t.db, organization.id, 'Counter')).id;
    const user = await createTestUser(t.db, { role: 'admin', organizationId: organization.id });
    const admin = bearer((await signIn(t.app, user.email, user.password)).accessToken);
    const payload = { name: 'Till', accountId, currency: 'SAT' };
    const bpt = (await t.app.inject({ method: 'POST', url: '/api/bpts', headers: admin, payload })).json<Bpt>();
    const url = `/api/bpts/${bpt.id}/invoices`;
    invoice = (await t.app.inject({ method: 'POST', url, headers: admin, payload: { amount: '100' } })).json<Invoice>();
    base = await t.app.listen({ host: '127.0.0.1', port: 0 });
  });
  afterAll(() => t?.close());

  it(`lets one address hold ${STREAM_LIMITS.perKey} open, refuses the next with 429, and takes one again once one closes`, async () => {
    const url = `${base}/api/invoices/${invoice.id}/events`;
    const open = await Promise.all(Array.from({ length: STREAM_LIMITS.perKey }, () => openSse(url)));
    for (const stream of open) expect((await stream.next()).data).toEqual({ id: invoice.id, status: 'pending' });

    const refused = await fetch(url);
    expect(refused.status).toBe(429);
    expect((await refused.json()) as ErrorResponse).toMatchObject({ code: 'TooManyRequests' });
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);

    open.pop()?.close();
    // The server frees the place when it sees the connection close, a moment after the client.
    const again = await waitFor(async () => {
      const response = await fetch(url);
      if (response.status !== 429) return response;
      await response.body?.cancel();
      return undefined;
    });
    expect(again.status).toBe(200);
    await again.body?.cancel();
    for (const stream of open) stream.close();
  });
});

describe('closing the app', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t?.close());

  it('ends its event streams with a hint to reconnect, instead of waiting on them', async () => {
    const organization = await createTestOrganization(t.db);
    const accountId = (await createTestAccount(t.db, organization.id, 'Counter')).id;
    const user = await createTestUser(t.db, { role: 'admin', organizationId: organization.id });
    const admin = bearer((await signIn(t.app, user.email, user.password)).accessToken);
    const payload = { name: 'Till', accountId, currency: 'SAT' };
    const bpt = (await t.app.inject({ method: 'POST', url: '/api/bpts', headers: admin, payload })).json<Bpt>();
    const url = `/api/bpts/${bpt.id}/invoices`;
    const invoice = (
      await t.app.inject({ method: 'POST', url, headers: admin, payload: { amount: '100' } })
    ).json<Invoice>();
    // A second app over the same runtime, as one server process among several.
    const app = await buildApp(t.runtime.deps);
    const base = await app.listen({ host: '127.0.0.1', port: 0 });
    const streams = await Promise.all(
      [1, 2, 3].map(async () => {
        const response = await fetch(`${base}/api/invoices/${invoice.id}/events`);
        const reader = (response.body as ReadableStream<Uint8Array>).pipeThrough(new TextDecoderStream()).getReader();
        let text = '';
        while (!text.includes('"pending"')) text += (await reader.read()).value ?? '';
        return { reader, text };
      }),
    );
    await app.close();
    for (const stream of streams) {
      let { text } = stream;
      for (;;) {
        const { value, done } = await stream.reader.read();
        if (done) break;
        text += value;
      }
      // The last thing each client reads is when to come back: between 2 and 5 seconds.
      const retry = Number(/retry: (\d+)\n\n$/.exec(text)?.[1]);
      expect(retry).toBeGreaterThanOrEqual(2000);
      expect(retry).toBeLessThan(5000);
    }
  });
});
