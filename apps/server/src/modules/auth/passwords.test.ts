import { randomBytes, scryptSync } from 'node:crypto';
import { AppError } from '@rayo/shared';
import { describe, expect, it } from 'vitest';
import { hashPassword, SCRYPT_CONCURRENCY, SCRYPT_QUEUE, verifyPassword } from './passwords.ts';

/** A stored hash with tiny cost parameters, so that many checks take no time; verify reads them from it. */
function cheapHash(password: string): string {
  const salt = randomBytes(16);
  const key = scryptSync(password, salt, 32, { N: 16, r: 1, p: 1 });
  return ['scrypt', 16, 1, 1, salt.toString('base64url'), key.toString('base64url')].join('$');
}

describe('scrypt runs behind a bounded queue', () => {
  it('refuses the calls past the running and waiting ones with ServiceUnavailable, and takes calls again after', async () => {
    const stored = cheapHash('Right-password-1');
    const extra = 5;
    // Started in one go, as a flood of sign-ins would: the first run, the next wait, the rest are refused.
    const checks = Array.from({ length: SCRYPT_CONCURRENCY + SCRYPT_QUEUE + extra }, () =>
      verifyPassword('Right-password-1', stored),
    );
    const results = await Promise.allSettled(checks);
    const refused = results.filter((result) => result.status === 'rejected');
    expect(refused).toHaveLength(extra);
    for (const { reason } of refused) {
      expect(reason).toBeInstanceOf(AppError);
      expect((reason as AppError).code).toBe('ServiceUnavailable');
    }
    // The waiting checks ran in turn and gave the right answer.
    expect(results.filter((result) => result.status === 'fulfilled' && result.value)).toHaveLength(
      SCRYPT_CONCURRENCY + SCRYPT_QUEUE,
    );
    // The queue drained: a real hash and check go through.
    const hash = await hashPassword('Later-password-1');
    expect(await verifyPassword('Later-password-1', hash)).toBe(true);
    expect(await verifyPassword('Wrong-password-1', stored)).toBe(false);
  });
});
