import { describe, expect, it } from 'vitest';
import { RUNE_METHODS } from './cln.ts';
import { methodsRuneRefuses, parseRuneRestrictions, runeRestrictionText } from './cln-rune.ts';

// Runes lightningd issued, from the examples of Core Lightning's doc/schemas/createrune.json.
const UNRESTRICTED = '7cKJyALVY0_LLVV-AB9oetXjipOdyt0EhOuYrSS42fM9MA==';
const READONLY =
  '0VIVf0M4jMlGNIwNM3sTpBextINe4_VBGZnBMM82kR49MCZtZXRob2RebGlzdHxtZXRob2ReZ2V0fG1ldGhvZD1zdW1tYXJ5Jm1ldGhvZC9saXN0ZGF0YXN0b3Jl';
const PAY_UNDER_10000 = 'a0noy2CAu8-s2xSgJuBW09hqB_YsqLkwIDy5qkftGMk9MiZtZXRob2Q9cGF5JnBuYW1lYW1vdW50bXNhdDwxMDAwMA==';
const READONLY_AND_LIMITED_PAY =
  's9ADu3o6N8KvZLDJ6dnsSnaXKUtlr0_fDEzbI6TYCsw9NSZtZXRob2RebGlzdHxtZXRob2ReZ2V0fG1ldGhvZD1zdW1tYXJ5fG1ldGhvZD1wYXl8bWV0aG9kPXhwYXkmbWV0aG9kL2xpc3RkYXRhc3RvcmUmbWV0aG9kL3BheXxwZXI9MWRheSZtZXRob2QvcGF5fHBuYW1lYW1vdW50X21zYXQ8MTAwMDAwMDAxJm1ldGhvZC94cGF5fHBlcj0xZGF5Jm1ldGhvZC94cGF5fHBuYW1lYW1vdW50X21zYXQ8MTAwMDAwMDAx';

describe('reading a Core Lightning rune', () => {
  it('reads the restrictions lightningd wrote into its runes', () => {
    expect(runeRestrictionText(UNRESTRICTED)).toBe('=0');
    expect(runeRestrictionText(READONLY)).toBe('=0&method^list|method^get|method=summary&method/listdatastore');
    expect(parseRuneRestrictions(runeRestrictionText(PAY_UNDER_10000) ?? '')).toEqual([
      [{ field: '', condition: '=', value: '2' }],
      [{ field: 'method', condition: '=', value: 'pay' }],
      [{ field: 'pnameamountmsat', condition: '<', value: '10000' }],
    ]);
  });

  it('names the methods a rune refuses whatever the parameters', () => {
    expect(methodsRuneRefuses(UNRESTRICTED, RUNE_METHODS)).toEqual([]);
    expect(methodsRuneRefuses(READONLY, RUNE_METHODS)).toEqual(['invoice', 'waitanyinvoice', 'decode', 'pay']);
    // A parameter restriction may hold for some calls: only the method restriction refuses for certain.
    expect(methodsRuneRefuses(PAY_UNDER_10000, RUNE_METHODS)).toEqual(
      RUNE_METHODS.filter((method) => method !== 'pay'),
    );
    // `method/pay|per=1day` may hold for pay (its other alternative is a rate), so pay is not refused.
    const limitedPay = Buffer.concat([
      Buffer.alloc(32),
      Buffer.from('=5&method^list|method^get|method=pay&method/pay|per=1day'),
    ]).toString('base64url');
    expect(methodsRuneRefuses(limitedPay, RUNE_METHODS)).toEqual(['invoice', 'waitanyinvoice', 'decode']);
  });

  it('leaves to the node a rune it cannot read', () => {
    // ccan's decoder ends a field name at any punctuation, `_` included, so the docs' rune with
    // `pnameamount_msat<…` reads as the unknown condition `_`: lightningd cannot decode it either.
    expect(methodsRuneRefuses(READONLY_AND_LIMITED_PAY, RUNE_METHODS)).toBeNull();
    expect(methodsRuneRefuses('not a rune!', RUNE_METHODS)).toBeNull();
    expect(methodsRuneRefuses(Buffer.alloc(32).toString('base64url'), RUNE_METHODS)).toBeNull();
    expect(
      methodsRuneRefuses(
        Buffer.concat([Buffer.alloc(32), Buffer.from('method=pay')]).toString('base64url'),
        RUNE_METHODS,
      ),
    ).toBeNull();
    expect(
      methodsRuneRefuses(
        Buffer.concat([Buffer.alloc(32), Buffer.from('=0&method\\')]).toString('base64url'),
        RUNE_METHODS,
      ),
    ).toBeNull();
  });
});
