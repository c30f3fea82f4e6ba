import { MFA_CODE_DIGITS, MFA_RECOVERY_CODE_COUNT } from '@rayo/shared';
import { Secret, TOTP } from 'otpauth';
import { sha256Hex } from '../auth/tokens.ts';

// RFC 6238 as every authenticator app reads an otpauth URI by default: SHA1, 6 digits, 30 s.
const ISSUER = 'Rayo';
const PERIOD_SECONDS = 30;
/** Time steps accepted either side of now, for clocks a little off and codes typed slowly. */
const DRIFT_STEPS = 1;

function totpOf(secretBase32: string, account = ''): TOTP {
  return new TOTP({
    issuer: ISSUER,
    label: account,
    algorithm: 'SHA1',
    digits: MFA_CODE_DIGITS,
    period: PERIOD_SECONDS,
    secret: Secret.fromBase32(secretBase32),
  });
}

/** A new 160-bit secret (RFC 4226's recommended size), in base32. */
export function newTotpSecret(): string {
  return new Secret({ size: 20 }).base32;
}

export function otpauthUriOf(secretBase32: string, account: string): string {
  return totpOf(secretBase32, account).toString();
}

/**
 * The time step `code` was generated for, looking one step either side of `now`; null when it
 * matches none. Callers refuse steps at or before the last one used, so a code works once.
 */
export function timeStepOfCode(secretBase32: string, code: string, now: Date): number | null {
  const token = code.replace(/\s/g, '');
  if (!/^\d+$/.test(token)) return null;
  const totp = totpOf(secretBase32);
  const timestamp = now.getTime();
  const delta = totp.validate({ token, timestamp, window: DRIFT_STEPS });
  return delta === null ? null : totp.counter({ timestamp }) + delta;
}

/**
 * Recovery codes: 80 random bits each, written as four groups of four base32 characters.
 * That entropy is why a plain SHA-256 (rather than a slow password hash) is enough to store them.
 */
export function newRecoveryCodes(): string[] {
  return Array.from({ length: MFA_RECOVERY_CODE_COUNT }, () =>
    (new Secret({ size: 10 }).base32.toLowerCase().match(/.{4}/g) ?? []).join('-'),
  );
}

/** Case, spaces and dashes do not matter when a code is typed back. */
export function hashRecoveryCode(code: string): string {
  return sha256Hex(code.toLowerCase().replace(/[^a-z2-7]/g, ''));
}
