import net from 'node:net';
import { isPublicAddress } from './ip-address.ts';

export type WebhookUrlCheck = { ok: true; url: URL } | { ok: false; reason: string };

function isLoopback(hostname: string): boolean {
  const literal = hostname.replace(/^\[(.*)\]$/, '$1');
  if (hostname === 'localhost') return true;
  return net.isIP(literal) !== 0 && (literal === '::1' || literal.startsWith('127.'));
}

/**
 * Whether a merchant may register `raw` as a webhook endpoint: an https URL without credentials
 * whose host is not a literal private address. A name is resolved, and refused if it leads to a
 * private address, at each delivery (adapters/lnurl/safe-fetch.ts). With `allowPrivate` (tests,
 * local devnet setups), plain http to loopback and private hosts is accepted too.
 */
export function checkWebhookUrl(raw: string, allowPrivate: boolean): WebhookUrlCheck {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return { ok: false, reason: 'The webhook URL is not a valid URL' };
  }
  if (url.username || url.password) return { ok: false, reason: 'The webhook URL may not carry credentials' };
  const literal = url.hostname.replace(/^\[(.*)\]$/, '$1');
  const privateLiteral = net.isIP(literal) !== 0 && !isPublicAddress(literal);
  if (allowPrivate) {
    if (url.protocol === 'https:') return { ok: true, url };
    if (url.protocol === 'http:' && (privateLiteral || isLoopback(url.hostname))) return { ok: true, url };
    return { ok: false, reason: 'The webhook URL must use https' };
  }
  if (url.protocol !== 'https:') return { ok: false, reason: 'The webhook URL must use https' };
  if (privateLiteral || url.hostname === 'localhost') {
    return { ok: false, reason: 'The webhook URL must point to a public address' };
  }
  return { ok: true, url };
}
