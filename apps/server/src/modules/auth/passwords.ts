import { randomBytes, scrypt, timingSafeEqual } from 'node:crypto';
import { AppError } from '@rayo/shared';

/** scrypt's cost parameters: CPU/memory cost, block size, parallelism. */
export type ScryptCost = { n: number; r: number; p: number };

// The cost is stored with each hash, so it can be raised without a migration and a hash is
// verified at the cost it was made with.
const COST: ScryptCost = { n: 2 ** 15, r: 8, p: 1 };
const KEY_LENGTH = 32;
const MAX_MEMORY = 256 * COST.n * COST.r;

/**
 * Each scrypt takes 32 MB and tens of milliseconds on libuv's thread pool (4 threads by default),
 * which file reads and DNS lookups share. Sign-in, sign-up and resets are public, so a flood of
 * them must not take every thread: at most SCRYPT_CONCURRENCY run at once and SCRYPT_QUEUE wait
 * their turn; past that a caller is answered 503 at once rather than joining an ever longer queue.
 */
export const SCRYPT_CONCURRENCY = 2;
export const SCRYPT_QUEUE = 64;
let running = 0;
const waiting: Array<() => void> = [];

async function withScryptSlot<T>(run: () => Promise<T>): Promise<T> {
  if (running < SCRYPT_CONCURRENCY) running += 1;
  else if (waiting.length < SCRYPT_QUEUE) await new Promise<void>((resolve) => waiting.push(resolve));
  else throw new AppError('ServiceUnavailable', 'Too many password checks at once, try again shortly');
  try {
    return await run();
  } finally {
    // A finished call hands its slot straight to the next in line, so `running` stays the same.
    const next = waiting.shift();
    if (next) next();
    else running -= 1;
  }
}

function derive(password: string, salt: Buffer, n: number, r: number, p: number): Promise<Buffer> {
  return withScryptSlot(
    () =>
      new Promise((resolve, reject) => {
        scrypt(password, salt, KEY_LENGTH, { N: n, r, p, maxmem: Math.max(MAX_MEMORY, 256 * n * r) }, (err, key) =>
          err ? reject(err) : resolve(key),
        );
      }),
  );
}

/** `scrypt$N$r$p$salt$hash`, salt and hash in base64url; `cost` is for tests' own stored users only. */
export async function hashPassword(password: string, cost: ScryptCost = COST): Promise<string> {
  const salt = randomBytes(16);
  const key = await derive(password, salt, cost.n, cost.r, cost.p);
  return ['scrypt', cost.n, cost.r, cost.p, salt.toString('base64url'), key.toString('base64url')].join('$');
}

export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const [scheme, n, r, p, salt, hash] = stored.split('$');
  if (scheme !== 'scrypt' || !salt || !hash) return false;
  const expected = Buffer.from(hash, 'base64url');
  const key = await derive(password, Buffer.from(salt, 'base64url'), Number(n), Number(r), Number(p));
  return key.length === expected.length && timingSafeEqual(key, expected);
}

/** A hash no password matches, verified against when an email is unknown so both paths cost the same. */
export const unmatchableHash = `scrypt$${COST.n}$${COST.r}$${COST.p}$${Buffer.alloc(16).toString('base64url')}$${Buffer.alloc(KEY_LENGTH).toString('base64url')}`;
