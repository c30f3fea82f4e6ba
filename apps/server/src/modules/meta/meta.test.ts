import type { DemoDataState, ErrorResponse } from '@rayo/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/test-app.ts';
import { buildApp } from '../../app.ts';

describe('meta routes', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await createTestApp({ SUPPORT_EMAIL: 'help@shop.example' });
  });
  afterAll(() => t?.close());

  it('answers /api/health', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/api/health' });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ status: 'ok' });
  });

  it('answers /api/ready once the database is reachable', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/api/ready' });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ status: 'ready' });
  });

  it('says on a demo server whether the demo data is still being prepared', async () => {
    const demoData: { state: DemoDataState } = { state: 'preparing' };
    const app = await buildApp({ ...t.runtime.deps, demoData });
    try {
      const preparing = await app.inject({ method: 'GET', url: '/api/ready' });
      expect(preparing.json()).toEqual({ status: 'ready', demoData: 'preparing' });
      demoData.state = 'ready';
      const ready = await app.inject({ method: 'GET', url: '/api/ready' });
      expect(ready.json()).toEqual({ status: 'ready', demoData: 'ready' });
    } finally {
      await app.close();
    }
  });

  it('answers /api/ready with 503 once shutdown begins, so a load balancer stops sending requests', async () => {
    const lifecycle = { draining: false };
    const app = await buildApp({ ...t.runtime.deps, lifecycle });
    try {
      expect((await app.inject({ method: 'GET', url: '/api/ready' })).statusCode).toBe(200);
      lifecycle.draining = true;
      const draining = await app.inject({ method: 'GET', url: '/api/ready' });
      expect(draining.statusCode).toBe(503);
      expect(draining.json<ErrorResponse>().code).toBe('ServiceUnavailable');
      // Still serving meanwhile.
      expect((await app.inject({ method: 'GET', url: '/api/health' })).statusCode).toBe(200);
    } finally {
      await app.close();
    }
  });

  it('answers /api/public-config with the support address and what the Ecwid page loads', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/api/public-config' });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({
      supportEmail: 'help@shop.example',
      devnet: true,
      ecwid: {
        sdkUrl: 'https://djqizrxa6f10j.cloudfront.net/ecwid-sdk/js/1.3.0/ecwid-app.js',
        cssUrl: 'https://d35z3p2poghz10.cloudfront.net/ecwid-sdk/css/1.3.19/ecwid-app-ui.css',
        appId: 'rayo-payments',
      },
    });
  });

  it("lets only the Ecwid page be framed by Ecwid's admin and load Ecwid's SDK and styles", async () => {
    const ecwid = await t.app.inject({ method: 'GET', url: '/ecommerce/ecwid?lang=en' });
    const policy = String(ecwid.headers['content-security-policy']);
    expect(policy).toContain("script-src 'self' https://djqizrxa6f10j.cloudfront.net;");
    expect(policy).toContain("style-src 'self' 'unsafe-inline' https://d35z3p2poghz10.cloudfront.net;");
    expect(policy).toContain('frame-ancestors https://my.ecwid.com https://my.shopsettings.com');
    expect(ecwid.headers['x-frame-options']).toBeUndefined();
    const other = await t.app.inject({ method: 'GET', url: '/ecommerce/shopify' });
    const otherPolicy = String(other.headers['content-security-policy']);
    expect(otherPolicy).toContain("script-src 'self';");
    expect(otherPolicy).toContain("frame-ancestors 'none'");
  });

  it('publishes an OpenAPI document of the API', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/api/docs/json' });
    expect(response.statusCode).toBe(200);
    const document = response.json<{ openapi: string; paths: Record<string, Record<string, unknown>> }>();
    expect(document.openapi).toMatch(/^3\./);
    expect(document.paths['/api/auth/signin']).toHaveProperty('post');
    expect(document.paths['/api/account/all']).toHaveProperty('get');
  });

  it('serves the API documentation page without sign-in', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/api/docs/' });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toMatch(/^text\/html/);
  });

  it('answers an unknown API path with a JSON 404', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/api/xyz?x=1' });
    expect(response.statusCode).toBe(404);
    expect(response.json<ErrorResponse>()).toEqual({ code: 'NotFound', message: 'No route GET /api/xyz' });
  });

  it('sends security headers with a strict Content-Security-Policy', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/api/health' });
    const csp = String(response.headers['content-security-policy']);
    expect(csp).toContain("default-src 'self'");
    expect(csp).toContain("script-src 'self'");
    expect(csp).not.toMatch(/script-src[^;]*'unsafe-inline'/);
    expect(csp).toContain("object-src 'none'");
    expect(csp).toContain("frame-ancestors 'none'");
    expect(response.headers['x-content-type-options']).toBe('nosniff');
    expect(response.headers['referrer-policy']).toBe('strict-origin-when-cross-origin');
    expect(response.headers['strict-transport-security']).toContain('max-age=');
    expect(response.headers['x-frame-options']).toBe('SAMEORIGIN');
    expect(response.headers['x-powered-by']).toBeUndefined();
  });
});
