import { AppError } from '@rayo/shared';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Db } from '../db/database.ts';
import type { Clock } from '../domain/clock.ts';
import { addressOwner } from '../domain/ip-address.ts';
import { rateLimitRefusals } from '../metrics.ts';
import { countHit, deleteHitsBefore, uncountHit } from './rate-limit.repo.ts';

/** What a limit needs: the shared counters and the time. */
export type RateLimitDeps = { db: Db; clock: Clock };

export type RateLimitRule = { name: string; limit: number; windowSeconds: number };

/** One counted hit, as `forgiveRateLimitHits` needs it to take the hit back. */
export type RateLimitHit = { key: string; windowStart: Date };

/**
 * The caller a limit counts a request against: its client address, with every IPv6 address of a
 * /64 counted as one (`addressOwner`), so that one line cannot bring a fresh address to each try.
 */
export function clientOf(request: FastifyRequest): string {
  return addressOwner(request.ip);
}

/**
 * Fixed-window limits counted in PostgreSQL, so they hold across every server process.
 * Throws `TooManyRequests` (429, with Retry-After) once a key passes its rule's limit.
 */
export async function enforceRateLimit(
  deps: RateLimitDeps,
  reply: FastifyReply,
  rule: RateLimitRule,
  subject: string,
): Promise<RateLimitHit> {
  const now = deps.clock();
  const windowMs = rule.windowSeconds * 1000;
  const windowStart = new Date(Math.floor(now.getTime() / windowMs) * windowMs);
  const key = `${rule.name}:${subject}`;
  const hits = await countHit(deps.db, key, windowStart);
  if (hits > rule.limit) {
    const retryAfter = Math.ceil((windowStart.getTime() + windowMs - now.getTime()) / 1000);
    reply.header('retry-after', String(retryAfter));
    rateLimitRefusals.inc({ rule: rule.name });
    throw new AppError('TooManyRequests', 'Too many attempts, try again later');
  }
  return { key, windowStart };
}

/**
 * Takes back hits of an attempt that succeeded, for limits that count failures only. The hit
 * is counted before the attempt rather than after a failure, so that a burst of attempts sent
 * at once cannot all pass the limit while the first are still being checked.
 */
export async function forgiveRateLimitHits(db: Db, hits: RateLimitHit[]): Promise<void> {
  for (const hit of hits) await uncountHit(db, hit.key, hit.windowStart);
}

export async function pruneRateLimits(db: Db, now = new Date()): Promise<void> {
  await deleteHitsBefore(db, new Date(now.getTime() - 24 * 60 * 60 * 1000));
}
