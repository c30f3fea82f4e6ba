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

/**
 * SPEC §5's valid email, the rule `EmailSchema` checks with: dot-separated runs of letters,
 * digits and `_ ' + -` before the `@`, not ending in an apostrophe; after it, labels of letters,
 * digits and hyphens that start with a letter or digit, then a top-level domain of two or more
 * letters. It accepts what zod's email check accepts (validation.test.ts), written here so the
 * login form checks an address without loading zod.
 */
export const EMAIL_PATTERN =
  /^[A-Za-z0-9_'+-]+(?:\.[A-Za-z0-9_'+-]+)*(?<!')@(?:[A-Za-z0-9][A-Za-z0-9-]*\.)+[A-Za-z]{2,}$/;

/** Whether `EmailSchema` accepts the address. */
export function isEmail(email: string): boolean {
  return email.length <= EMAIL_MAX_LENGTH && EMAIL_PATTERN.test(email);
}
