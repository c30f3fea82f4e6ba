import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { brotliCompressSync, brotliDecompressSync, gunzipSync, gzipSync } from 'node:zlib';
import type { ErrorResponse } from '@rayo/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../test/test-app.ts';

const indexHtml = '<!doctype html><html><head><script type="module" src="/assets/app.js"></script></head></html>';
const appJs = 'console.log("rayo");';

describe('the built web app', () => {
  let distDir: string;
  let t: TestApp;

  beforeAll(async () => {
    distDir = await mkdtemp(path.join(os.tmpdir(), 'rayo-web-dist-'));
    await mkdir(path.join(distDir, 'assets'));
    await writeFile(path.join(distDir, 'index.html'), indexHtml);
    await writeFile(path.join(distDir, 'assets', 'app.js'), appJs);
    // The web build writes each asset compressed beside it, as the precompressed copies below.
    await writeFile(path.join(distDir, 'assets', 'app.js.br'), brotliCompressSync(appJs));
    await writeFile(path.join(distDir, 'assets', 'app.js.gz'), gzipSync(appJs));
    t = await createTestApp({ WEB_DIST_DIR: distDir });
  });
  afterAll(async () => {
    await t?.close();
    await rm(distDir, { recursive: true, force: true });
  });

  it.each(['/', '/some/deep/link', '/login?redirect=%2Fsettings', '/ecommerce/checkout/abc'])(
    'answers index.html for %s so the client router takes over',
    async (url) => {
      const response = await t.app.inject({ method: 'GET', url });
      expect(response.statusCode).toBe(200);
      expect(response.headers['content-type']).toMatch(/^text\/html/);
      expect(response.headers['cache-control']).toBe('no-cache');
      expect(response.body).toBe(indexHtml);
      expect(response.headers['content-security-policy']).toContain("script-src 'self'");
    },
  );

  it('serves hashed assets as immutable files', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/assets/app.js' });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toMatch(/javascript/);
    expect(response.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(response.body).toBe(appJs);
  });

  it.each([
    ['br, gzip', 'br', brotliDecompressSync],
    ['gzip', 'gzip', gunzipSync],
  ] as const)('sends an asset precompressed to a browser accepting %s', async (accepted, encoding, decompress) => {
    const response = await t.app.inject({
      method: 'GET',
      url: '/assets/app.js',
      headers: { 'accept-encoding': accepted },
    });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-encoding']).toBe(encoding);
    expect(response.headers.vary).toMatch(/accept-encoding/i);
    expect(response.headers['content-type']).toMatch(/javascript/);
    expect(response.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(decompress(response.rawPayload).toString()).toBe(appJs);
  });

  it.each(['/api/nope', '/api'])('answers %s, an unknown API path, with a JSON 404', async (url) => {
    const response = await t.app.inject({ method: 'GET', url });
    expect(response.statusCode).toBe(404);
    expect(response.json<ErrorResponse>().code).toBe('NotFound');
  });

  it('still answers the API', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/api/health' });
    expect(response.json()).toEqual({ status: 'ok' });
  });
});
