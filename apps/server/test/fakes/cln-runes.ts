import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

/**
 * Runes as lightningd issues and checks them (ccan/ccan/rune/{rune,coding}.c, lightningd/runes.c,
 * doc/schemas/createrune.json): base64url of a 32-byte authentication code followed by the
 * restrictions as text, `&` between restrictions (all must hold), `|` between alternatives (one
 * must hold), `\` escaping those characters in values, and the unique id as the first restriction
 * (`=<id>`). The code here is an HMAC of the text under the node's secret instead of ccan's SHA-256
 * chain: the same runes verify, and the same changed runes fail.
 */

/** A refusal as clnrest answers it: HTTP status and the RPC error of `checkrune`. */
export type RuneRefusal = { httpStatus: 401 | 403; code: number; message: string };

/** The conditions of an alternative (ccan/ccan/rune/rune.h enum rune_condition). */
const CONDITIONS = '!=/^$~<>{}#';

type Alternative = { field: string; condition: string; value: string };

function escapeValue(value: string): string {
  return value.replace(/[\\|&]/g, (char) => `\\${char}`);
}

function parseAlternative(text: string): Alternative | null {
  const at = [...text].findIndex((char) => /[\p{P}\p{S}]/u.test(char));
  if (at === -1) return null;
  const condition = text[at] ?? '';
  if (!CONDITIONS.includes(condition)) return null;
  return { field: text.slice(0, at), condition, value: text.slice(at + 1) };
}

/** Splits restriction text on unescaped `&` and `|`, unescaping values (coding.c rune_altern_decode). */
function parseRestrictions(text: string): Alternative[][] | null {
  const restrictions: Alternative[][] = [];
  let alternatives: Alternative[] = [];
  let current = '';
  const close = (endsRestriction: boolean): boolean => {
    const alternative = parseAlternative(current);
    if (!alternative) return false;
    alternatives.push(alternative);
    current = '';
    if (endsRestriction) {
      restrictions.push(alternatives);
      alternatives = [];
    }
    return true;
  };
  for (let i = 0; i < text.length; i += 1) {
    const char = text[i];
    if (char === '\\') {
      i += 1;
      if (i >= text.length) return null;
      current += text[i];
    } else if (char === '|') {
      if (!close(false)) return null;
    } else if (char === '&') {
      if (!close(true)) return null;
    } else {
      current += char;
    }
  }
  if (text !== '' && !close(true)) return null;
  return restrictions;
}

/** rune.c rune_alt_single: null when the alternative holds, else why not. */
function testAlternative(alternative: Alternative, actual: string | undefined): string | null {
  const { field, condition, value } = alternative;
  if (condition === '#') return null;
  if (condition === '!') return actual === undefined ? null : `${field} is present`;
  if (actual === undefined) return `${field} not present`;
  const fails = (holds: boolean, complaint: string) => (holds ? null : `${field} ${complaint} ${value}`);
  switch (condition) {
    case '=':
      return fails(actual === value, 'is not equal to');
    case '/':
      return fails(actual !== value, 'is equal to');
    case '^':
      return fails(actual.startsWith(value), 'does not start with');
    case '$':
      return fails(actual.endsWith(value), 'does not end with');
    case '~':
      return fails(actual.includes(value), 'does not contain');
    case '<':
      return fails(Number(actual) < Number(value), 'is greater or equal to');
    case '>':
      return fails(Number(actual) > Number(value), 'is less or equal to');
    case '{':
      return fails(actual < value, 'is equal to or ordered after');
    default:
      return fails(actual > value, 'is equal to or ordered before');
  }
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
      const restrictions = bytes.length >= 32 ? parseRestrictions(text) : null;
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
          testAlternative(alternative, fieldValue(alternative.field, method, params)),
        );
        if (reasons.every((reason) => reason !== null)) {
          return { httpStatus: 401, code: 1502, message: `Not permitted: ${reasons.join(' AND ')}` };
        }
      }
      return null;
    },
  };
}
