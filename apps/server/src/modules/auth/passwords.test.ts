import { scryptSync } from 'node:crypto';
import { AppError } from '@rayo/shared';
import { describe, expect, it } from 'vitest';
import { hashPassword, SCRYPT_CONCURRENCY, SCRYPT_QUEUE, unmatchableHash, verifyPassword } from './passwords.ts';

describe('password hashes', () => {
  it('are scrypt at N=2^15, r=8, p=1 unless a cost is given, and verify at the cost they carry', async () => {
    const stored = await hashPassword('Right-password-1');
    const [scheme, n, r, p, salt = '', hash = ''] = stored.split('$');
    expect([scheme, n, r, p]).toEqual(['scrypt', '32768', '8', '1']);
    // The same derivation by Node's scrypt directly: the format is what it says.
    const key = scryptSync('Right-password-1', Buffer.from(salt, 'base64url'), 32, {
      N: 32768,
      r: 8,
      p: 1,
      maxmem: 64 * 1024 * 1024,
    });
    expect(key.toString('base64url')).toBe(hash);
    expect(unmatchableHash.split('$').slice(0, 4)).toEqual(['scrypt', '32768', '8', '1']);
    const cheap = await hashPassword('Right-password-1', { n: 16, r: 1, p: 1 });
    expect(cheap.split('$').slice(0, 4)).toEqual(['scrypt', '16', '1', '1']);
    expect(await verifyPassword('Right-password-1', cheap)).toBe(true);
    expect(await verifyPassword('Wrong-password-1', cheap)).toBe(false);
  });
});

describe('scrypt runs behind a bounded queue', () => {
  it('refuses the calls past the running and waiting ones with ServiceUnavailable, and takes calls again after', async () => {
    // Tiny cost parameters, so that many checks take no time; verify reads them from the hash.
    const stored = await hashPassword('Right-password-1', { n: 16, r: 1, p: 1 });
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
