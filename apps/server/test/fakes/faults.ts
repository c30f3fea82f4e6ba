/**
 * What the next answers of a route do wrong, as a broken node, proxy or network would: a body cut
 * short, fields of the wrong types, an answer of tens of megabytes, or no answer at all.
 */
export type Fault = 'truncated' | 'wrong-types' | 'huge' | 'silent';

/** Every string of an answer turned into a number and every number into a string. */
function wrongTypes(value: unknown): unknown {
  if (typeof value === 'string') return 12345;
  if (typeof value === 'number' || typeof value === 'boolean') return 'x';
  if (Array.isArray(value)) return value.map(wrongTypes);
  if (typeof value === 'object' && value !== null) {
    return Object.fromEntries(Object.entries(value).map(([key, field]) => [key, wrongTypes(field)]));
  }
  return value;
}

/** The text of one JSON answer or stream message, spoiled by `fault`. */
export function spoil(json: string, fault: Fault | undefined): string {
  switch (fault) {
    case 'truncated':
      return json.slice(0, Math.floor(json.length / 2));
    case 'wrong-types':
      return JSON.stringify(wrongTypes(JSON.parse(json)));
    case 'huge':
      return `${json.slice(0, -1)},"padding":"${'x'.repeat(20 * 1024 * 1024)}"}`;
    default:
      return json;
  }
}
