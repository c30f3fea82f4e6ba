/**
 * What a Core Lightning rune allows, read from the rune itself, so that Rayo can say at start which
 * method it is missing instead of failing at the first payout. A rune is not encrypted: it is
 * base64url of a 32-byte authentication code followed by its restrictions as text
 * (ccan/ccan/rune/{rune,coding}.c, doc/schemas/createrune.json): `&` between restrictions (all must
 * hold), `|` between alternatives (one must hold), `\` escaping those characters in values, and the
 * unique id as the first restriction (`=<id>`).
 */

/** One alternative: a field, a condition (ccan/ccan/rune/rune.h enum rune_condition) and a value. */
export type RuneAlternative = { field: string; condition: string; value: string };

const CONDITIONS = '!=/^$~<>{}#';

function parseAlternative(text: string): RuneAlternative | null {
  const at = [...text].findIndex((char) => /[\p{P}\p{S}]/u.test(char));
  if (at === -1) return null;
  const condition = text[at] ?? '';
  if (!CONDITIONS.includes(condition)) return null;
  return { field: text.slice(0, at), condition, value: text.slice(at + 1) };
}

/** Splits restriction text on unescaped `&` and `|`, unescaping values (coding.c rune_altern_decode). */
export function parseRuneRestrictions(text: string): RuneAlternative[][] | null {
  const restrictions: RuneAlternative[][] = [];
  let alternatives: RuneAlternative[] = [];
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

/** rune.c rune_alt_single: null when the alternative holds for `actual`, else why not. */
export function testRuneAlternative(alternative: RuneAlternative, actual: string | undefined): string | null {
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

/** The rune's text: its restrictions, the unique id first; null when it is not a rune. */
export function runeRestrictionText(rune: string): string | null {
  if (!/^[A-Za-z0-9_-]+=*$/.test(rune)) return null;
  const bytes = Buffer.from(rune.replace(/=+$/, ''), 'base64url');
  return bytes.length > 32 ? bytes.subarray(32).toString('utf8') : null;
}

/**
 * The methods of `methods` the rune refuses whatever the call's parameters, or null when this
 * code cannot read the rune (then the node's own answers are the only check). An alternative on
 * any field but `method` (a parameter, the time, the rate) may hold for some call, so only a
 * restriction made of `method` alternatives that all fail refuses a method for certain.
 */
export function methodsRuneRefuses(rune: string, methods: readonly string[]): string[] | null {
  const text = runeRestrictionText(rune);
  const restrictions = text === null ? null : parseRuneRestrictions(text);
  const uniqueId = restrictions?.[0]?.[0];
  if (!restrictions || uniqueId?.field !== '' || uniqueId.condition !== '=') return null;
  return methods.filter((method) =>
    restrictions
      .slice(1)
      .some((alternatives) =>
        alternatives.every(
          (alternative) => alternative.field === 'method' && testRuneAlternative(alternative, method) !== null,
        ),
      ),
  );
}
