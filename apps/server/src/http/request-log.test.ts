import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../test/test-app.ts';
import { redactUrl } from './request-log.ts';

describe('request logs', () => {
  let t: TestApp;
  const logged: string[] = [];

  beforeAll(async () => {
    t = await createTestApp({ LOG_LEVEL: 'info' }, { logDestination: { write: (line) => void logged.push(line) } });
  });
  afterAll(() => t?.close());

  async function logOf(url: string): Promise<string> {
    const since = logged.length;
    await t.app.inject({ method: 'GET', url });
    return logged.slice(since).join('');
  }

  it('keep the codes of mailed links out', async () => {
    const onboard = await logOf('/onboard?code=SECRET-ONBOARD');
    expect(onboard).toContain('"url":"/onboard?code=[redacted]"');
    const reset = await logOf('/confirm-forgot-password?email=owner%40shop.example&code=SECRET-RESET');
    expect(reset).toContain('"url":"/confirm-forgot-password?email=[redacted]&code=[redacted]"');
    const api = await logOf('/api/anything?token=SECRET-QUERY&period=today');
    expect(api).toContain('"url":"/api/anything?token=[redacted]&period=today"');
    for (const log of [onboard, reset, api]) expect(log).not.toContain('SECRET');
    expect(reset).not.toContain('owner');
  });

  it('keep shared terminal tokens and withdrawal keys out, and the rest of the path in', async () => {
    const page = await logOf('/bpts/SECRET-SHARE-TOKEN');
    expect(page).toContain('"url":"/bpts/[redacted]"');
    const api = await logOf('/api/terminal/SECRET-SHARE-TOKEN/transactions?limit=5');
    expect(api).toContain('"url":"/api/terminal/[redacted]/transactions?limit=5"');
    const withdrawal = await logOf('/api/devnet/lnurlw/SECRET-K1/callback?k1=SECRET-K1&pr=lnbcrt1');
    expect(withdrawal).toContain('"url":"/api/devnet/lnurlw/[redacted]/callback?k1=[redacted]&pr=lnbcrt1"');
    for (const log of [page, api, withdrawal]) expect(log).not.toContain('SECRET');
  });

  it('leave URLs without secrets as they are', () => {
    for (const url of [
      '/bpts/3f2a/terminal',
      '/api/bpts/3f2a/share-token',
      '/api/dashboard/summary?period=today',
      '/',
    ]) {
      expect(redactUrl(url)).toBe(url);
    }
    expect(redactUrl('/onboard?SECRET')).toBe('/onboard?[redacted]');
  });
});
