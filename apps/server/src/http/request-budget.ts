import { monitorEventLoopDelay } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import { AppError } from '@rayo/shared';
import type { FastifyInstance, FastifyReply } from 'fastify';
import type { BudgetRule, RequestBudgetLimits } from '../config.ts';
import type { Clock } from '../domain/clock.ts';
import { rateLimitRefusals } from '../metrics.ts';
import type { TokenIssuer } from '../modules/auth/tokens.ts';
import { verifiedCallerOf } from './access.ts';
import { clientOf } from './rate-limit.ts';

/**
 * While the loop lags an anonymous request costs this many of its caller's tokens, so that an
 * address that kept sending soon runs dry while one that asks now and then still has plenty.
 */
const LAG_COST = 4;

type Bucket = { tokens: number; atMs: number };

/** Idle buckets (full again) are forgotten this often, so that a process does not keep every address it has seen. */
const SWEEP_INTERVAL_MS = 60_000;

/**
 * In-memory token buckets: what a request costs its key, and how long until it could pay.
 * Each process counts on its own; the limits kept in PostgreSQL (`rate-limit.ts`) are the ones
 * that hold across processes.
 */
export function createTokenBuckets(now: () => number) {
  const buckets = new Map<string, Bucket & { rule: BudgetRule }>();

  function level(key: string, rule: BudgetRule, atMs: number): number {
    const bucket = buckets.get(key);
    if (!bucket) return rule.burst;
    return Math.min(rule.burst, bucket.tokens + ((atMs - bucket.atMs) / 1000) * rule.perSecond);
  }

  /** Takes `cost` tokens of `key`: answers 0 when taken, else the seconds until they would be there. */
  function take(key: string, rule: BudgetRule, cost = 1): number {
    const atMs = now();
    const tokens = level(key, rule, atMs);
    if (tokens < cost) {
      buckets.set(key, { tokens, atMs, rule });
      return Math.max(1, Math.ceil((cost - tokens) / rule.perSecond));
    }
    buckets.set(key, { tokens: tokens - cost, atMs, rule });
    return 0;
  }

  /** What share of its burst `key` has left, 1 for a key not seen lately. */
  function fullness(key: string, rule: BudgetRule): number {
    return level(key, rule, now()) / rule.burst;
  }

  function sweep(): void {
    const atMs = now();
    for (const [key, bucket] of buckets) {
      if (level(key, bucket.rule, atMs) >= bucket.rule.burst) buckets.delete(key);
    }
  }

  return { take, fullness, sweep, size: () => buckets.size };
}

/**
 * Who a request is counted as, and whether it may go on: 0 when it may, else the seconds to
 * wait. Signed-in users and anonymous addresses have buckets of their own, so a flood of
 * anonymous requests from a few addresses never spends a merchant's. While the event loop lags,
 * anonymous requests cost more, and a caller that has spent over half its burst also needs a
 * place in a small shared share; signed-in requests are never shed for lag.
 */
export function createRequestBudget(limits: RequestBudgetLimits, now: () => number, lagging: () => boolean) {
  const buckets = createTokenBuckets(now);
  const share: BudgetRule = { perSecond: limits.anonymousShareUnderLag, burst: limits.anonymousShareUnderLag };

  function admitSignedIn(userId: string): number {
    return buckets.take(`user:${userId}`, limits.signedIn);
  }

  function admitAnonymous(client: string): number {
    const key = `address:${client}`;
    if (!lagging()) return buckets.take(key, limits.anonymous);
    const wait = buckets.take(key, limits.anonymous, LAG_COST);
    if (wait > 0 || buckets.fullness(key, limits.anonymous) >= 0.5) return wait;
    return buckets.take('anonymous-share', share);
  }

  return { admitSignedIn, admitAnonymous, sweep: buckets.sweep, size: buckets.size };
}

/**
 * Whether the event loop's delay (its 99th percentile, sampled each second) is past `thresholdMs`.
 * `stop` ends the sampling.
 */
export function watchEventLoopLag(thresholdMs: number): { lagging: () => boolean; stop: () => void } {
  const histogram = monitorEventLoopDelay({ resolution: 10 });
  histogram.enable();
  let lagging = false;
  const sample = setInterval(() => {
    lagging = histogram.percentile(99) / 1e6 > thresholdMs;
    histogram.reset();
  }, 1000);
  sample.unref();
  return {
    lagging: () => lagging,
    stop: () => {
      clearInterval(sample);
      histogram.disable();
    },
  };
}

export type RequestBudgetDeps = {
  tokens: TokenIssuer;
  clock: Clock;
  config: { requestBudget: RequestBudgetLimits };
};

/**
 * How long a refusal is held before it is sent, at most. A client that sends again as soon as it
 * is answered would otherwise be refused hundreds of times a second, each refusal costing the
 * event loop a little; held, it sends about once a second on each connection it holds, and those
 * are capped per address (`CONNECTIONS_PER_ADDRESS`). A held refusal costs a timer.
 */
const REFUSAL_HOLD_MS = 1000;

async function refuse(reply: FastifyReply, rule: string, waitSeconds: number): Promise<never> {
  rateLimitRefusals.inc({ rule });
  await sleep(Math.min(REFUSAL_HOLD_MS, waitSeconds * 1000));
  reply.header('retry-after', String(waitSeconds));
  // A client that sends again at once without reading the answer reconnects first.
  reply.header('connection', 'close');
  throw new AppError('TooManyRequests', 'Too many requests from your address, try again later');
}

/**
 * Counts every request against its caller's budget before its body is read or any route runs,
 * and refuses it with 429 `TooManyRequests` and `Retry-After` once the budget is spent. Must be
 * registered after the security headers (so a refusal has them) and before everything else.
 */
export function registerRequestBudget(app: FastifyInstance, deps: RequestBudgetDeps): void {
  const limits = deps.config.requestBudget;
  const lag = limits.lagMs > 0 ? watchEventLoopLag(limits.lagMs) : { lagging: () => false, stop: () => {} };
  const budget = createRequestBudget(limits, () => deps.clock().getTime(), lag.lagging);
  const sweep = setInterval(budget.sweep, SWEEP_INTERVAL_MS);
  sweep.unref();
  app.addHook('onClose', async () => {
    clearInterval(sweep);
    lag.stop();
  });
  app.addHook('onRequest', async (request, reply) => {
    const caller = await verifiedCallerOf(request, deps.tokens);
    if (caller) {
      const wait = budget.admitSignedIn(caller.userId);
      if (wait > 0) await refuse(reply, 'request-budget-signed-in', wait);
      return;
    }
    const wait = budget.admitAnonymous(clientOf(request));
    if (wait > 0) await refuse(reply, 'request-budget-anonymous', wait);
  });
}
