import { AppError } from '@rayo/shared';
import { bech32 } from '@scure/base';

/** LNURL links (protocols.md §2, LUD-01 and LUD-17). */

export type LnurlOptions = {
  /**
   * Lets links point at `http://127.0.0.1` or `http://localhost`, where the devnet services and
   * test servers listen without TLS. Off, only HTTPS (or HTTP to an onion service) is accepted.
   */
  allowInsecureLoopback?: boolean;
};

const LOOPBACK_HOSTS = new Set(['127.0.0.1', 'localhost']);

function invalid(reason: string): AppError {
  return new AppError('InvalidLnurlWithdraw', reason);
}

function isOnion(url: URL): boolean {
  return url.hostname.endsWith('.onion');
}

function isLoopback(url: URL): boolean {
  return LOOPBACK_HOSTS.has(url.hostname);
}

/** Whether LNURL may talk to this URL: HTTPS, HTTP to an onion service, or allowed loopback HTTP. */
export function isAllowedLnurlTarget(url: URL, options: LnurlOptions = {}): boolean {
  if (url.protocol === 'https:') return true;
  if (url.protocol !== 'http:') return false;
  return isOnion(url) || (options.allowInsecureLoopback === true && isLoopback(url));
}

function parseUrl(text: string): URL {
  try {
    return new URL(text);
  } catch {
    throw invalid('The link is not a valid URL');
  }
}

function fromBech32(text: string): string {
  if (text !== text.toLowerCase() && text !== text.toUpperCase()) {
    throw invalid('The LNURL mixes upper and lower case');
  }
  try {
    const { prefix, words } = bech32.decode(text.toLowerCase() as `${string}1${string}`, false);
    if (prefix !== 'lnurl') throw new Error(prefix);
    return new TextDecoder('utf-8', { fatal: true }).decode(bech32.fromWords(words));
  } catch {
    throw invalid('The LNURL is not valid bech32');
  }
}

/**
 * The URL behind an LNURL given as bech32 `lnurl1…` (any case, with or without `lightning:`),
 * as a LUD-17 `lnurlw://` link, or as a plain URL, possibly in the LUD-01 fallback form
 * `https://…?lightning=LNURL1…`.
 */
export function decodeLnurl(input: string, options: LnurlOptions = {}): string {
  const text = input.trim().replace(/^lightning:/i, '');
  let url: URL;
  if (/^lnurl1/i.test(text)) {
    url = parseUrl(fromBech32(text));
  } else if (/^lnurlw:\/\//i.test(text)) {
    url = parseUrl(`https://${text.slice('lnurlw://'.length)}`);
    // LUD-17 maps the scheme to HTTP for onion services; devnet and tests serve loopback without TLS.
    if (isOnion(url) || (options.allowInsecureLoopback && isLoopback(url))) url.protocol = 'http:';
  } else if (/^https?:\/\//i.test(text)) {
    url = parseUrl(text);
    const fallback = url.searchParams.get('lightning');
    if (fallback && /^lnurl1/i.test(fallback)) url = parseUrl(fromBech32(fallback));
  } else {
    throw invalid('This is not an LNURL-withdraw link');
  }
  if (!isAllowedLnurlTarget(url, options)) {
    throw invalid(`LNURL links must use HTTPS (or HTTP to an onion service), not ${url.protocol}//${url.host}`);
  }
  return url.toString();
}

/** The bech32 form of a URL, in upper case as QR codes prefer. */
export function encodeLnurl(url: string): string {
  return bech32.encode('lnurl', bech32.toWords(new TextEncoder().encode(url)), false).toUpperCase();
}
