import { errorCodes } from '@rayo/shared';
import { describe, expect, it } from 'vitest';
import en from '../i18n/en.json';
import es from '../i18n/es.json';
import { errorMessageKey } from './error-messages.ts';

function lookup(resources: unknown, key: string): unknown {
  return key
    .split('.')
    .reduce<unknown>((node, part) => (node as Record<string, unknown> | undefined)?.[part], resources);
}

describe('errorMessageKey', () => {
  it('gives every error code its own message rather than the generic one', () => {
    const generic = errorCodes.filter((code) => code !== 'Default' && errorMessageKey(code) === 'errors.default');
    expect(generic).toEqual([]);
  });

  it.each([...errorCodes, 'Network' as const])('names a text in English and Spanish for %s', (code) => {
    const key = errorMessageKey(code);
    expect(typeof lookup(en, key), `en ${key}`).toBe('string');
    expect(typeof lookup(es, key), `es ${key}`).toBe('string');
  });
});
