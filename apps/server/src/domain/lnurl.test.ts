import { AppError } from '@rayo/shared';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { decodeLnurl, encodeLnurl } from './lnurl.ts';

// The example of LUD-01.
const SPEC_LNURL =
  'LNURL1DP68GURN8GHJ7UM9WFMXJCM99E3K7MF0V9CXJ0M385EKVCENXC6R2C35XVUKXEFCV5MKVV34X5EKZD3EV56NYD3HXQURZEPEXEJXXEPNXSCRVWFNV9NXZCN9XQ6XYEFHVGCXXCMYXYMNSERXFQ5FNS';
const SPEC_URL = 'https://service.com/api?q=3fc3645b439ce8e7f2553a69e5267081d96dcd340693afabe04be7b0ccd178df';

function rejection(input: string, options = {}): string {
  try {
    decodeLnurl(input, options);
  } catch (error) {
    expect(error).toBeInstanceOf(AppError);
    expect((error as AppError).code).toBe('InvalidLnurlWithdraw');
    return (error as AppError).message;
  }
  return expect.fail(`accepted ${input}`);
}

describe('decodeLnurl', () => {
  it('decodes the LUD-01 example in upper case, lower case and behind lightning:', () => {
    expect(decodeLnurl(SPEC_LNURL)).toBe(SPEC_URL);
    expect(decodeLnurl(SPEC_LNURL.toLowerCase())).toBe(SPEC_URL);
    expect(decodeLnurl(`lightning:${SPEC_LNURL}`)).toBe(SPEC_URL);
    expect(decodeLnurl(`  LIGHTNING:${SPEC_LNURL.toLowerCase()}\n`)).toBe(SPEC_URL);
  });

  it('turns a Bolt Card lnurlw:// link into https://, and into http:// for an onion service', () => {
    expect(decodeLnurl('lnurlw://card.example.com/ln?p=4E2E289D945A66BB13377A728884E867&c=E19CCB1FED8892CE')).toBe(
      'https://card.example.com/ln?p=4E2E289D945A66BB13377A728884E867&c=E19CCB1FED8892CE',
    );
    expect(decodeLnurl('LNURLW://card.example.com/ln')).toBe('https://card.example.com/ln');
    expect(decodeLnurl('lnurlw://abcdefgh.onion/w/1')).toBe('http://abcdefgh.onion/w/1');
  });

  it('takes a plain https:// URL, http:// to an onion service, and the ?lightning= fallback form', () => {
    expect(decodeLnurl('https://service.com/w/1?x=1')).toBe('https://service.com/w/1?x=1');
    expect(decodeLnurl('http://abcdefgh.onion/w/1')).toBe('http://abcdefgh.onion/w/1');
    expect(decodeLnurl(`https://service.com/withdraw?lightning=${SPEC_LNURL}`)).toBe(SPEC_URL);
  });

  it('allows plain HTTP to 127.0.0.1 and localhost only when asked', () => {
    const options = { allowInsecureLoopback: true };
    expect(rejection('http://127.0.0.1:8080/w')).toMatch(/HTTPS/);
    expect(decodeLnurl('http://127.0.0.1:8080/w', options)).toBe('http://127.0.0.1:8080/w');
    expect(decodeLnurl('lnurlw://localhost:8080/api/devnet/lnurlw/ab', options)).toBe(
      'http://localhost:8080/api/devnet/lnurlw/ab',
    );
    expect(decodeLnurl('lnurlw://localhost:8080/w')).toBe('https://localhost:8080/w');
    expect(decodeLnurl(encodeLnurl('http://localhost:3000/w'), options)).toBe('http://localhost:3000/w');
    expect(rejection('http://example.com/w', options)).toMatch(/HTTPS/);
    expect(rejection('http://127.0.0.2/w', options)).toMatch(/HTTPS/);
  });

  it.each([
    ['an empty string', ''],
    ['a Lightning invoice', 'lnbc2500u1pvjluezpp5qqqsyqcyq5rqwzqfqqqsyqcyq5rqwzqfqqqsyqcyq5rqwzqfqypq'],
    ['a pay link', 'lnurlp://service.com/pay'],
    ['an FTP URL', 'ftp://service.com/w'],
    ['a bad checksum', `${SPEC_LNURL.slice(0, -1)}T`],
    ['mixed case', `${SPEC_LNURL.slice(0, 20)}${SPEC_LNURL.slice(20).toLowerCase()}`],
    ['bech32 of another prefix', 'bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kv8f3t4'],
    ['an http:// URL inside the bech32', encodeLnurl('http://service.com/w')],
    ['not a URL inside the bech32', encodeLnurl('not a url')],
    ['an lnurlw:// link without a host', 'lnurlw://'],
  ])('rejects %s', (_, input) => {
    rejection(input);
  });
});

describe('encodeLnurl', () => {
  it('encodes the LUD-01 example', () => {
    expect(encodeLnurl(SPEC_URL)).toBe(SPEC_LNURL);
  });

  it('round-trips any https URL', () => {
    fc.assert(
      fc.property(fc.webUrl({ validSchemes: ['https'], withQueryParameters: true, withFragments: true }), (url) => {
        const encoded = encodeLnurl(url);
        expect(encoded).toBe(encoded.toUpperCase());
        expect(decodeLnurl(encoded)).toBe(new URL(url).toString());
      }),
      { numRuns: 50 },
    );
  });
});
