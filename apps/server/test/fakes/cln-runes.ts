import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { parseRuneRestrictions, testRuneAlternative } from '../../src/adapters/lightning/cln-rune.ts';

/**
 * Runes as lightningd issues and checks them (ccan/ccan/rune/{rune,coding}.c, lightningd/runes.c,
 * doc/schemas/createrune.json), with the restriction text read and tested as Rayo reads it at start
 * (cln-rune.ts). The code here is an HMAC of the text under the node's secret instead of ccan's
 * SHA-256 chain: the same runes verify, and the same changed runes fail.
 */

/** A refusal as clnrest answers it: HTTP status and the RPC error of `checkrune`. */
export type RuneRefusal = { httpStatus: 401 | 403; code: number; message: string };

function escapeValue(value: string): string {
  return value.replace(/[\\|&]/g, (char) => `\\${char}`);
}

/** The value a field names for a call (lightningd/runes.c check_condition): method, pnum, pname<param>. */
function fieldValue(field: string, method: string, params: Record<string, unknown>): string | undefined {
  if (field === 'method') return method;
  if (field === 'pnum') return String(Object.keys(params).length);
  if (field.startsWith('pname')) {
    const value = params[field.slice('pname'.length)];
    if (value === undefined) return undefined;
    return typeof value === 'string'
      ? value
      : JSON.stringify(value, (_k, v) => (typeof v === 'bigint' ? Number(v) : v));
  }
  return undefined;
}

export function createRuneMaster() {
  const secret = randomBytes(32);
  let uniqueId = 0;
  const authCode = (text: string) => createHmac('sha256', secret).update(text).digest();

  return {
    /** `createrune restrictions=[[alternative, …], …]`, each alternative like `method=invoice`. */
    create(restrictions: readonly (readonly string[])[]): string {
      const text = [
        `=${uniqueId}`,
        ...restrictions.map((alternatives) => alternatives.map(escapeValue).join('|')),
      ].join('&');
      uniqueId += 1;
      const encoded = Buffer.concat([authCode(text), Buffer.from(text)]).toString('base64url');
      // ccan's base64 writes the padding.
      return encoded.padEnd(Math.ceil(encoded.length / 4) * 4, '=');
    },

    /**
     * clnrest's verify_rune (plugins/rest-plugin/src/shared.rs): no `Rune` header is 403 with
     * 1501; a rune `checkrune` refuses is 401 with checkrune's error, 1501 for one this node did not
     * make and 1502 "Not permitted: …" for a restriction that fails.
     */
    check(rune: string | undefined, method: string, params: Record<string, unknown>): RuneRefusal | null {
      if (rune === undefined) return { httpStatus: 403, code: 1501, message: 'Not authorized: Missing rune' };
      const bytes = Buffer.from(rune.replace(/=+$/, ''), 'base64url');
      const text = bytes.subarray(32).toString('utf8');
      const restrictions = bytes.length >= 32 ? parseRuneRestrictions(text) : null;
      const first = restrictions?.[0]?.[0];
      if (!restrictions || first?.field !== '' || first.condition !== '=') {
        return { httpStatus: 401, code: -32602, message: 'rune: should be base64 string' };
      }
      const expected = authCode(text);
      if (!timingSafeEqual(expected, bytes.subarray(0, 32))) {
        return { httpStatus: 401, code: 1501, message: 'Not authorized: Not derived from master' };
      }
      for (const alternatives of restrictions.slice(1)) {
        const reasons = alternatives.map((alternative) =>
          testRuneAlternative(alternative, fieldValue(alternative.field, method, params)),
        );
        if (reasons.every((reason) => reason !== null)) {
          return { httpStatus: 401, code: 1502, message: `Not permitted: ${reasons.join(' AND ')}` };
        }
      }
      return null;
    },
  };
}
