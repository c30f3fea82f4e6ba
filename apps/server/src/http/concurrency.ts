import { AppError } from '@rayo/shared';

export type ConcurrencyLimits = { perKey: number; total: number };

/**
 * Caps the calls of one kind in flight in this process, per key (the client address) and in all.
 * Meant for public calls that hold an outbound connection open while they wait, which a rate
 * limit alone does not bound: past the key's cap the caller gets 429 `TooManyRequests`, past the
 * process's 503 `ServiceUnavailable`.
 */
export function createConcurrencyLimit(limits: ConcurrencyLimits) {
  const byKey = new Map<string, number>();
  let total = 0;

  return async function withSlot<T>(key: string, run: () => Promise<T>): Promise<T> {
    const held = byKey.get(key) ?? 0;
    if (held >= limits.perKey) throw new AppError('TooManyRequests', 'Too many requests at once, try again shortly');
    if (total >= limits.total) throw new AppError('ServiceUnavailable', 'Too busy right now, try again shortly');
    byKey.set(key, held + 1);
    total += 1;
    try {
      return await run();
    } finally {
      total -= 1;
      const left = (byKey.get(key) ?? 1) - 1;
      if (left === 0) byKey.delete(key);
      else byKey.set(key, left);
    }
  };
}
