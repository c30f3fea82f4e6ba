import { describe, expect, it } from 'vitest';
import { createSecretCipher } from './secret-cipher.ts';

const key = 'a-key-of-at-least-thirty-two-characters';

describe('createSecretCipher', () => {
  it('opens what it sealed, for the same user, and seals differently every time', () => {
    const cipher = createSecretCipher(key);
    const sealed = cipher.seal('JBSWY3DPEHPK3PXP', 'user-1');
    expect(sealed).not.toContain('JBSWY3DPEHPK3PXP');
    expect(cipher.seal('JBSWY3DPEHPK3PXP', 'user-1')).not.toBe(sealed);
    expect(cipher.open(sealed, 'user-1')).toBe('JBSWY3DPEHPK3PXP');
  });

  it('refuses another user, another key and a tampered ciphertext', () => {
    const sealed = createSecretCipher(key).seal('JBSWY3DPEHPK3PXP', 'user-1');
    expect(() => createSecretCipher(key).open(sealed, 'user-2')).toThrow();
    expect(() => createSecretCipher(`${key}!`).open(sealed, 'user-1')).toThrow();
    const [version, iv, tag, ciphertext = ''] = sealed.split('.');
    const flipped = `${ciphertext.charAt(0) === 'A' ? 'B' : 'A'}${ciphertext.slice(1)}`;
    expect(() => createSecretCipher(key).open([version, iv, tag, flipped].join('.'), 'user-1')).toThrow();
    expect(() => createSecretCipher(key).open('garbage', 'user-1')).toThrow(/malformed/);
  });
});
