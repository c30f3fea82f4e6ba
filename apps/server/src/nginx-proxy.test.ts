import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import type { Account, Bpt, Invoice } from '@rayo/shared';
import { Agent, fetch } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { selfSignedCertificate } from '../test/fakes/tls.ts';
import { createTestApp, openTestShop, type TestApp } from '../test/test-app.ts';
import { waitFor } from '../test/wait-for.ts';
import { freePort } from './ports.ts';

/** Debian's nginx, or undefined where it is not installed. */
function findNginx(): string | undefined {
  for (const candidate of [process.env.NGINX_PATH, '/usr/sbin/nginx']) {
    if (!candidate) continue;
    try {
      execFileSync(candidate, ['-v'], { stdio: 'ignore' });
      return candidate;
    } catch {
      // Not this one.
    }
  }
  return undefined;
}

const nginx = findNginx();
if (!nginx && process.env.CI) throw new Error('nginx is missing: apt-get install nginx-light (.ci/run does)');
if (!nginx) console.warn('Skipping the nginx test: nginx is not installed (apt-get install nginx-light)');

/**
 * The TLS server block of docs/deploy.md's nginx example, word for word but for where it listens,
 * its certificate and Rayo's port, inside the few lines nginx needs to run from a temporary folder.
 */
async function configFromDeployDoc(options: { dir: string; port: number; appPort: number }): Promise<string> {
  const doc = await readFile(path.join(import.meta.dirname, '../../../docs/deploy.md'), 'utf8');
  const example = /```nginx\n([\s\S]*?)```/.exec(doc)?.[1];
  const tlsServer = example?.split(/^server \{$/m)[2];
  if (!tlsServer) throw new Error('docs/deploy.md has no nginx server block with TLS');
  const server = `server {${tlsServer}`
    .replace(/listen 443 ssl http2;/, `listen 127.0.0.1:${options.port} ssl http2;`)
    .replace(/\/etc\/letsencrypt\/live\/[^/]+\/fullchain\.pem/, path.join(options.dir, 'cert.pem'))
    .replace(/\/etc\/letsencrypt\/live\/[^/]+\/privkey\.pem/, path.join(options.dir, 'key.pem'))
    .replaceAll('127.0.0.1:8080', `127.0.0.1:${options.appPort}`);
  const temp = (name: string) => `  ${name}_temp_path ${path.join(options.dir, name)};`;
  return [
    `pid ${path.join(options.dir, 'nginx.pid')};`,
    `error_log ${path.join(options.dir, 'error.log')};`,
    'events { worker_connections 64; }',
    'http {',
    `  access_log ${path.join(options.dir, 'access.log')};`,
    ...['client_body', 'proxy', 'fastcgi', 'uwsgi', 'scgi'].map(temp),
    server,
    '}',
    '',
  ].join('\n');
}

describe.skipIf(!nginx)("docs/deploy.md's nginx in front of Rayo", () => {
  let t: TestApp;
  let dir = '';
  let child: ChildProcess | undefined;
  let base = '';
  let agent: Agent;

  beforeAll(async () => {
    t = await createTestApp({}, { jobs: true });
    await t.app.listen({ host: '127.0.0.1', port: 0 });
    const appPort = (t.app.server.address() as AddressInfo).port;
    dir = await mkdtemp(path.join(os.tmpdir(), 'rayo-nginx-'));
    const tls = await selfSignedCertificate();
    await writeFile(path.join(dir, 'cert.pem'), tls.cert);
    await writeFile(path.join(dir, 'key.pem'), tls.key, { mode: 0o600 });
    const port = await freePort();
    const file = path.join(dir, 'nginx.conf');
    await writeFile(file, await configFromDeployDoc({ dir, port, appPort }));
    child = spawn(nginx as string, ['-c', file, '-p', dir, '-g', 'daemon off;'], { stdio: 'ignore' });
    base = `https://127.0.0.1:${port}`;
    agent = new Agent({ connect: { ca: tls.cert } });
    await waitFor(() =>
      fetch(`${base}/api/health`, { dispatcher: agent }).then(
        (response) => response.ok,
        () => false,
      ),
    );
  });
  afterAll(async () => {
    child?.kill('SIGTERM');
    await agent?.close();
    await t?.close();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it('passes each event of an invoice stream on over TLS as it comes, while the stream stays open', async () => {
    const shop = await openTestShop(t);
    const post = async <T>(url: string, payload: object, headers: Record<string, string> = shop.admin) => {
      const response = await t.app.inject({ method: 'POST', url, headers, payload });
      expect(response.statusCode, response.body).toBeLessThan(300);
      return response.json<T>();
    };
    const account = await post<Account>('/api/accounts', { name: 'Counter' });
    const bpt = await post<Bpt>('/api/bpts', { name: 'Till', accountId: account.id, currency: 'USD' });
    const invoice = await post<Invoice>(`/api/bpts/${bpt.id}/invoices`, { amount: '2.50' });

    const controller = new AbortController();
    const response = await fetch(`${base}/api/invoices/${invoice.id}/events`, {
      dispatcher: agent,
      signal: controller.signal,
      headers: { accept: 'text/event-stream' },
    });
    expect(response.status).toBe(200);
    expect(response.headers.get('server')).toMatch(/^nginx/);
    const reader = (response.body as ReadableStream<Uint8Array>).pipeThrough(new TextDecoderStream()).getReader();
    let text = '';
    const readUntil = async (needle: string) => {
      while (!text.includes(needle)) {
        const { value, done } = await reader.read();
        if (done) throw new Error(`the stream ended before ${needle}: ${text}`);
        text += value;
      }
    };
    try {
      await readUntil('"status":"pending"');
      await post('/api/devnet/pay', { paymentRequest: invoice.paymentRequest }, {});
      // Buffered, the settled event would wait for the buffer to fill or the stream to end.
      await readUntil('"status":"settled"');
    } finally {
      controller.abort();
    }
  });
});
