import { AppError } from '@rayo/shared';
import type { FastifyReply } from 'fastify';
import type { Db } from '../db/database.ts';
import { countHit, deleteHitsBefore } from './rate-limit.repo.ts';

export type RateLimitRule = { name: string; limit: number; windowSeconds: number };

/**
 * Fixed-window limits counted in PostgreSQL, so they hold across every server process.
 * Throws `TooManyRequests` (429, with Retry-After) once a key passes its rule's limit.
 */
export async function enforceRateLimit(
  db: Db,
  reply: FastifyReply,
  rule: RateLimitRule,
  subject: string,
  now = new Date(),
): Promise<void> {
  const windowMs = rule.windowSeconds * 1000;
  const windowStart = new Date(Math.floor(now.getTime() / windowMs) * windowMs);
  const hits = await countHit(db, `${rule.name}:${subject}`, windowStart);
  if (hits > rule.limit) {
    const retryAfter = Math.ceil((windowStart.getTime() + windowMs - now.getTime()) / 1000);
    reply.header('retry-after', String(retryAfter));
    throw new AppError('TooManyRequests', 'Too many attempts, try again later');
  }
}

export async function pruneRateLimits(db: Db, now = new Date()): Promise<void> {
  await deleteHitsBefore(db, new Date(now.getTime() - 24 * 60 * 60 * 1000));
}
