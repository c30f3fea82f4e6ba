import { regexes } from 'zod/v4/core';

// SPEC §5's rules for emails and passwords, free of zod's schemas so that the login screen checks
// what is typed without loading them; validation.ts builds the API's schemas from the same pieces.

/** SPEC §5: at least 8 characters with an uppercase, a lowercase, a number and a special character. */
export function isStrongPassword(password: string): boolean {
  return (
    password.length >= 8 &&
    /[A-Z]/.test(password) &&
    /[a-z]/.test(password) &&
    /[0-9]/.test(password) &&
    /[^A-Za-z0-9]/.test(password)
  );
}

/** RFC 5321's limit on an address's length. */
export const EMAIL_MAX_LENGTH = 254;

/** zod's own email pattern, the one `EmailSchema` checks with. */
export const EMAIL_PATTERN = regexes.email;

/** Whether `EmailSchema` accepts the address. */
export function isEmail(email: string): boolean {
  return email.length <= EMAIL_MAX_LENGTH && EMAIL_PATTERN.test(email);
}
