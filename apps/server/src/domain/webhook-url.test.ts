import { describe, expect, it } from 'vitest';
import { checkWebhookUrl } from './webhook-url.ts';

const reasonOf = (url: string, allowPrivate = false) => {
  const check = checkWebhookUrl(url, allowPrivate);
  return check.ok ? 'ok' : check.reason;
};

describe('checkWebhookUrl', () => {
  it('accepts https to a public host', () => {
    expect(reasonOf('https://shop.example/hooks?x=1')).toBe('ok');
    expect(reasonOf('https://8.8.8.8/hooks')).toBe('ok');
  });

  it('refuses other schemes, credentials and what is not a URL', () => {
    expect(reasonOf('http://shop.example/hooks')).toBe('The webhook URL must use https');
    expect(reasonOf('ftp://shop.example/hooks')).toBe('The webhook URL must use https');
    expect(reasonOf('shop.example/hooks')).toBe('The webhook URL is not a valid URL');
    expect(reasonOf('https://a:b@shop.example/')).toBe('The webhook URL may not carry credentials');
  });

  it('refuses loopback, private, link-local and IPv6 loopback literals, and localhost', () => {
    for (const url of [
      'https://127.0.0.1/',
      'https://10.0.0.8/',
      'https://192.168.1.1/',
      'https://169.254.169.254/',
      'https://[::1]/',
      'https://[fd00::1]/',
      'https://localhost/',
      'https://0.0.0.0/',
    ]) {
      expect(reasonOf(url), url).toBe('The webhook URL must point to a public address');
    }
  });

  it('with private hosts allowed, takes plain http only to loopback and private hosts', () => {
    expect(reasonOf('http://127.0.0.1:8080/hooks', true)).toBe('ok');
    expect(reasonOf('http://localhost:8080/hooks', true)).toBe('ok');
    expect(reasonOf('http://10.0.0.8/hooks', true)).toBe('ok');
    expect(reasonOf('https://127.0.0.1/hooks', true)).toBe('ok');
    expect(reasonOf('http://shop.example/hooks', true)).toBe('The webhook URL must use https');
  });
});
