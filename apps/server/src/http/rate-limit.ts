import { AppError } from '@rayo/shared';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Db } from '../db/database.ts';
import type { Clock } from '../domain/clock.ts';
import { addressOwner } from '../domain/ip-address.ts';
import { rateLimitRefusals } from '../metrics.ts';
import { countHit, deleteHitsBefore, readHits, uncountHit } from './rate-limit.repo.ts';

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

type CountedHit = RateLimitHit & { hits: number; retryAfterSeconds: number };

/** Counts one hit of `subject` in the rule's current window. */
async function countRuleHit(deps: RateLimitDeps, rule: RateLimitRule, subject: string): Promise<CountedHit> {
  const now = deps.clock();
  const windowMs = rule.windowSeconds * 1000;
  const windowStart = new Date(Math.floor(now.getTime() / windowMs) * windowMs);
  const key = `${rule.name}:${subject}`;
  const hits = await countHit(deps.db, key, windowStart);
  const retryAfterSeconds = Math.ceil((windowStart.getTime() + windowMs - now.getTime()) / 1000);
  return { key, windowStart, hits, retryAfterSeconds };
}

function refuse(reply: FastifyReply, ruleName: string, hit: CountedHit): never {
  reply.header('retry-after', String(hit.retryAfterSeconds));
  rateLimitRefusals.inc({ rule: ruleName });
  throw new AppError('TooManyRequests', 'Too many attempts, try again later');
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
  const hit = await countRuleHit(deps, rule, subject);
  if (hit.hits > rule.limit) refuse(reply, rule.name, hit);
  return { key: hit.key, windowStart: hit.windowStart };
}

/**
 * A budget that everyone who reaches one public link shares (a shared terminal, a store's
 * checkout button, a donation link): `perCaller` per client on the link, `perLink` in all, and,
 * once the link's budget is spent, each caller still gets a fair share of it: the larger of
 * `guaranteed` and `perLink` split evenly among the callers of the window.
 */
export type SharedLimitRule = {
  name: string;
  perCaller: number;
  perLink: number;
  guaranteed: number;
  windowSeconds: number;
};

/**
 * Counts a call to `link` by `caller` against a shared budget, throwing `TooManyRequests` past
 * the caller's own limit, or past its fair share once the link's budget is spent. So a few
 * addresses that use the whole budget do not shut out the cashier or the merchant's customers,
 * who ask a few times each: they are refused only past their share, which the callers who spent
 * the budget have long passed. Callers are counted once per window, on their first call. Once a
 * link's budget is spent it admits at most `guaranteed` more calls per caller, so many callers
 * get more in all than `perLink`; each still has its own limit.
 */
export async function enforceSharedLimit(
  deps: RateLimitDeps,
  reply: FastifyReply,
  rule: SharedLimitRule,
  link: string,
  caller: string,
): Promise<void> {
  const { name, windowSeconds } = rule;
  const own = await countRuleHit(
    deps,
    { name: `${name}-caller`, limit: rule.perCaller, windowSeconds },
    `${link}:${caller}`,
  );
  if (own.hits > rule.perCaller) refuse(reply, name, own);
  const callersRule = { name: `${name}-callers`, limit: Number.POSITIVE_INFINITY, windowSeconds };
  if (own.hits === 1) await countRuleHit(deps, callersRule, link);
  const all = await countRuleHit(deps, { name, limit: rule.perLink, windowSeconds }, link);
  if (all.hits <= rule.perLink) return;
  const callers = await readHits(deps.db, `${callersRule.name}:${link}`, all.windowStart);
  const share = Math.max(rule.guaranteed, Math.floor(rule.perLink / Math.max(callers, 1)));
  if (own.hits > share) refuse(reply, name, own);
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
