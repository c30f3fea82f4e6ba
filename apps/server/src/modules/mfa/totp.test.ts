import { Secret, TOTP } from 'otpauth';
import { describe, expect, it } from 'vitest';
import { hashRecoveryCode, newRecoveryCodes, newTotpSecret, timeStepOfCode } from './totp.ts';

const secret = newTotpSecret();
const totp = new TOTP({ secret: Secret.fromBase32(secret) });
const now = new Date('2026-05-01T12:00:10Z');
const step = Math.floor(now.getTime() / 30_000);
const codeAt = (offsetSteps: number) => totp.generate({ timestamp: now.getTime() + offsetSteps * 30_000 });

describe('timeStepOfCode', () => {
  it('accepts the codes of the previous, current and next 30 s window, naming their step', () => {
    expect(timeStepOfCode(secret, codeAt(-1), now)).toBe(step - 1);
    expect(timeStepOfCode(secret, codeAt(0), now)).toBe(step);
    expect(timeStepOfCode(secret, ` ${codeAt(1).slice(0, 3)} ${codeAt(1).slice(3)} `, now)).toBe(step + 1);
  });

  it('refuses codes two windows away and anything that is not digits', () => {
    for (const offset of [-2, 2]) {
      const code = codeAt(offset);
      // Skip the rare case where a far code equals a near one.
      if (![-1, 0, 1].some((near) => codeAt(near) === code)) expect(timeStepOfCode(secret, code, now)).toBeNull();
    }
    expect(timeStepOfCode(secret, 'abcdef', now)).toBeNull();
    expect(timeStepOfCode(secret, '', now)).toBeNull();
  });
});

describe('recovery codes', () => {
  it('are ten distinct codes whose hash ignores case, spaces and dashes', () => {
    const codes = newRecoveryCodes();
    expect(new Set(codes).size).toBe(10);
    const [code = ''] = codes;
    expect(hashRecoveryCode(code)).toBe(hashRecoveryCode(` ${code.toUpperCase().replaceAll('-', ' ')} `));
    expect(hashRecoveryCode(code)).not.toBe(hashRecoveryCode(codes[1] ?? ''));
  });
});
