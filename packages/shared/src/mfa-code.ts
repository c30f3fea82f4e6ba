// The codes of multi-factor authentication (DESIGN §6), apart from the wire schemas of mfa.ts
// and free of zod, for the sign-in screen checks a code's shape before the rest of the app loads.

/** The header that carries a code on sensitive changes when the caller has MFA on. */
export const MFA_CODE_HEADER = 'mfa-code';
export const MFA_CODE_DIGITS = 6;
export const MFA_RECOVERY_CODE_COUNT = 10;

/** Six digits, as an authenticator app shows them; the web app checks this before sending. */
export function isMfaCodeShaped(code: string): boolean {
  return new RegExp(`^\\d{${MFA_CODE_DIGITS}}$`).test(code.trim());
}
