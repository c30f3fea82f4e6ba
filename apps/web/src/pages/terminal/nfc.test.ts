import { describe, expect, it } from 'vitest';
import { firstRecordText, isLnurlWithdraw } from './nfc.ts';

function record(recordType: string, text: string) {
  return { recordType, data: new DataView(new TextEncoder().encode(text).buffer) };
}

describe('card records', () => {
  it('reads the first url or text record', () => {
    const records = [record('mime', 'x'), record('url', 'lnurlw://card.example/ln?p=AB&c=CD'), record('text', 'no')];
    expect(firstRecordText(records)).toBe('lnurlw://card.example/ln?p=AB&c=CD');
    expect(firstRecordText([record('empty', '')])).toBeNull();
  });

  it('accepts the LNURL-withdraw forms a terminal meets', () => {
    for (const text of ['lnurlw://card.example/ln?p=1', 'LIGHTNING:LNURL1DP68GURN', 'lnurl1dp68gurn', 'LNURL1DP68']) {
      expect(isLnurlWithdraw(text)).toBe(true);
    }
    for (const text of ['https://example.com', 'lnbc10u1p…', 'hello']) expect(isLnurlWithdraw(text)).toBe(false);
  });
});
