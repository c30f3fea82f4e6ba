import { AppError } from '@rayo/shared';
import { isAllowedLnurlTarget, type LnurlOptions } from './lnurl.ts';

/** LUD-16 Lightning addresses (protocols.md §2): `user@domain`, resolved over LNURL-pay. */

export type LightningAddress = { user: string; domain: string; address: string };

/**
 * The parts of `user@domain`, lowercased. The user is LUD-16's `a-z0-9-_.` with an optional
 * `+tag`; the domain is a host name, with a port only for local setups.
 */
export function parseLightningAddress(text: string): LightningAddress {
  const invalid = () => new AppError('InvalidLightningAddress', 'A Lightning address looks like name@domain.com');
  const match = /^([a-z0-9\-_.+]+)@([a-z0-9\-.:[\]]+)$/.exec(text.trim().toLowerCase());
  if (!match) throw invalid();
  const [, user = '', domain = ''] = match;
  let url: URL;
  try {
    url = new URL(`https://${domain}`);
  } catch {
    throw invalid();
  }
  if (url.host !== domain || user.startsWith('+')) throw invalid();
  return { user, domain, address: `${user}@${domain}` };
}

/** Where LUD-16 resolves the address: HTTPS, HTTP for an onion service or allowed loopback. */
export function lightningAddressUrl(address: LightningAddress, options: LnurlOptions = {}): URL {
  const url = new URL(`https://${address.domain}/.well-known/lnurlp/${encodeURIComponent(address.user)}`);
  const insecure = new URL(url);
  insecure.protocol = 'http:';
  if (url.hostname.endsWith('.onion') || isAllowedLnurlTarget(insecure, options)) return insecure;
  return url;
}

export type PayRequest = { callback: string; minSendableMsat: bigint; maxSendableMsat: bigint; metadata: string };

function isMetadataEntry(entry: unknown): entry is [string, string] {
  return Array.isArray(entry) && entry.length === 2 && typeof entry[0] === 'string' && typeof entry[1] === 'string';
}

function msat(value: unknown): bigint | undefined {
  return typeof value === 'number' && Number.isSafeInteger(value) && value >= 1 ? BigInt(value) : undefined;
}

/**
 * LUD-06's first answer, or why it is not one: tag `payRequest`, a callback we may call, sendable
 * amounts with min ≤ max, and metadata that is a JSON array of pairs with one `text/plain`.
 */
export function readPayRequest(answer: Record<string, unknown>, options: LnurlOptions = {}): PayRequest | string {
  if (answer.tag !== 'payRequest') return 'not a payRequest';
  if (typeof answer.callback !== 'string') return 'no callback';
  let callback: URL;
  try {
    callback = new URL(answer.callback);
  } catch {
    return 'callback is not a URL';
  }
  if (!isAllowedLnurlTarget(callback, options)) return 'callback is not HTTPS';
  const min = msat(answer.minSendable);
  const max = msat(answer.maxSendable);
  if (min === undefined || max === undefined || max < min) return 'invalid sendable amounts';
  if (typeof answer.metadata !== 'string') return 'no metadata';
  let entries: unknown;
  try {
    entries = JSON.parse(answer.metadata);
  } catch {
    return 'metadata is not JSON';
  }
  if (!Array.isArray(entries) || !entries.every(isMetadataEntry)) return 'metadata is not a list of pairs';
  if (entries.filter(([type]) => type === 'text/plain').length !== 1) return 'metadata has no single text/plain';
  return { callback: callback.toString(), minSendableMsat: min, maxSendableMsat: max, metadata: answer.metadata };
}
