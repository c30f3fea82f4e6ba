import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { EMAIL_MAX_LENGTH, isEmail, isStrongPassword } from './credentials.ts';
import { EmailSchema, StrongPasswordSchema } from './validation.ts';

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

/** Local part and domain that the pattern accepts, padded to an address of `length` characters. */
const addressOf = (length: number) => `${'a'.repeat(length - '@rayo.local'.length)}@rayo.local`;

describe('isEmail, the login form’s check', () => {
  it.each([
    ['admin@rayo.local', true],
    ['first.last+tag@mail.example.com', true],
    ["o'neil_2@sub-domain.example.io", true],
    ['UPPER@EXAMPLE.COM', true],
    ['a@b.co', true],
    [addressOf(EMAIL_MAX_LENGTH), true],
    [addressOf(EMAIL_MAX_LENGTH + 1), false],
    ['not-an-email', false],
    ['', false],
    ['@rayo.local', false],
    ['admin@', false],
    ['admin@rayo', false],
    ['admin@rayo.l', false],
    ['.admin@rayo.local', false],
    ['ad..min@rayo.local', false],
    ['admin.@rayo.local', false],
    ['admin@-rayo.local', false],
    ['admin@rayo..local', false],
    ['admin@@rayo.local', false],
    [' admin@rayo.local', false],
    ['admin@rayo.local ', false],
    ['ad min@rayo.local', false],
    ['"admin"@rayo.local', false],
    ['admin@[127.0.0.1]', false],
    ['ñandú@rayo.local', false],
    ['admin@rayo.local\n', false],
  ])('says %j is an email: %s, as EmailSchema does', (email, expected) => {
    expect(isEmail(email)).toBe(expected);
    expect(EmailSchema.safeParse(email).success).toBe(expected);
  });

  it('agrees with EmailSchema, and with zod’s own email check, on generated addresses and strings', () => {
    const zodEmail = z.email().max(EMAIL_MAX_LENGTH);
    const candidates = fc.oneof(
      fc.emailAddress(),
      fc.emailAddress().map((email) => email.toUpperCase()),
      fc.string({ unit: fc.constantFrom(...'ab1.-_+@\'" ñ'), maxLength: 30 }),
      fc.string({ unit: fc.constantFrom(..."aZ9._'+-@"), maxLength: 16 }).map((local) => `${local}@rayo.local`),
      fc.string({ unit: fc.constantFrom(...'a9.-@'), maxLength: 16 }).map((domain) => `admin@${domain}`),
      fc.integer({ min: EMAIL_MAX_LENGTH - 2, max: EMAIL_MAX_LENGTH + 2 }).map(addressOf),
    );
    fc.assert(
      fc.property(candidates, (email) => {
        const accepted = zodEmail.safeParse(email).success;
        expect(isEmail(email)).toBe(accepted);
        expect(EmailSchema.safeParse(email).success).toBe(accepted);
      }),
      { numRuns: 5000 },
    );
  });
});
