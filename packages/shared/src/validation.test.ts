import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { EmailSchema, isStrongPassword, StrongPasswordSchema } from './validation.ts';

const upper = fc.constantFrom(...'ABCDEFGHIJKLMNOPQRSTUVWXYZ');
const lower = fc.constantFrom(...'abcdefghijklmnopqrstuvwxyz');
const digit = fc.constantFrom(...'0123456789');
const special = fc.constantFrom(...'!@#$%^&*()-_=+[]{};:\'",.<>/?\\|`~ ');
const classes = { upper, lower, digit, special };
type CharClass = keyof typeof classes;

/** A shuffled password holding at least one character of each given class and `length` characters overall. */
function passwordOf(required: CharClass[], allowed: CharClass[], minLength: number, maxLength: number) {
  const anyAllowed = fc.oneof(...allowed.map((name) => classes[name]));
  return fc
    .tuple(
      fc.tuple(...required.map((name) => classes[name])),
      fc.array(anyAllowed, {
        minLength: Math.max(0, minLength - required.length),
        maxLength: maxLength - required.length,
      }),
    )
    .chain(([mandatory, rest]) =>
      fc.shuffledSubarray([...mandatory, ...rest], { minLength: mandatory.length + rest.length }),
    )
    .map((chars) => chars.join(''));
}

const allClasses: CharClass[] = ['upper', 'lower', 'digit', 'special'];

describe('isStrongPassword (SPEC §5)', () => {
  it.each(['Rayo-demo-2026!', 'Aa1!aaaa', 'P@ssw0rd', 'ñandú-Z9'])('accepts %s', (password) => {
    expect(isStrongPassword(password)).toBe(true);
  });

  it.each([
    ['too short', 'Aa1!aaa'],
    ['no uppercase', 'aa1!aaaa'],
    ['no lowercase', 'AA1!AAAA'],
    ['no number', 'Aaa!aaaa'],
    ['no special character', 'Aa1aaaaa'],
    ['empty', ''],
  ])('refuses a password with %s', (_reason, password) => {
    expect(isStrongPassword(password)).toBe(false);
  });

  it('accepts any password of 8+ characters holding every class', () => {
    fc.assert(fc.property(passwordOf(allClasses, allClasses, 8, 40), (password) => isStrongPassword(password)));
  });

  it('refuses any password shorter than 8 characters', () => {
    fc.assert(fc.property(passwordOf(allClasses, allClasses, 4, 7), (password) => !isStrongPassword(password)));
  });

  it.each(allClasses)('refuses any password without a %s character', (missing) => {
    const others = allClasses.filter((name) => name !== missing);
    fc.assert(fc.property(passwordOf(others, others, 8, 40), (password) => !isStrongPassword(password)));
  });

  it('StrongPasswordSchema agrees with isStrongPassword up to its length cap', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 256 }), (password) => {
        expect(StrongPasswordSchema.safeParse(password).success).toBe(isStrongPassword(password));
      }),
    );
    expect(StrongPasswordSchema.safeParse(`Aa1!${'a'.repeat(253)}`).success).toBe(false);
  });
});

describe('EmailSchema (SPEC §5)', () => {
  it('accepts a valid email and refuses an invalid one', () => {
    expect(EmailSchema.safeParse('admin@rayo.local').success).toBe(true);
    expect(EmailSchema.safeParse('not-an-email').success).toBe(false);
    expect(EmailSchema.safeParse('').success).toBe(false);
  });
});
