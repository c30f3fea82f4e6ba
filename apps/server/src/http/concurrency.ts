import { AppError } from '@rayo/shared';

export type ConcurrencyLimits = {
  perKey: number;
  total: number;
  /**
   * From this many held in all, a key is refused once it holds its fair share of them (this
   * number split evenly among the keys holding any), so that a few keys cannot fill `total` and
   * shut every other one out: a newcomer holding none is still let in, up to `total`.
   */
  fairShareFrom?: number;
};

/** What a refused caller reads: past its key's cap, and past the process's. */
export type ConcurrencyRefusals = { perKey: string; total: string };

/**
 * Caps the things of one kind held open in this process, per key (the client address) and in all:
 * public calls that hold an outbound connection while they wait, or event streams that hold a
 * socket for as long as a page stays open. A rate limit bounds how often they start, not how many
 * are open at once. Past the key's cap (or its fair share) the caller gets 429
 * `TooManyRequests`, past the process's 503 `ServiceUnavailable`.
 */
export function createConcurrencyLimit(limits: ConcurrencyLimits, refusals: ConcurrencyRefusals) {
  const byKey = new Map<string, number>();
  let total = 0;

  /** Takes a place for `key`, or throws; answers its release, which frees the place once however often it is called. */
  function admit(key: string): () => void {
    const held = byKey.get(key) ?? 0;
    if (held >= limits.perKey) throw new AppError('TooManyRequests', refusals.perKey);
    if (total >= limits.total) throw new AppError('ServiceUnavailable', refusals.total);
    const { fairShareFrom } = limits;
    if (fairShareFrom !== undefined && total >= fairShareFrom) {
      const keys = byKey.size + (held === 0 ? 1 : 0);
      if (held >= Math.max(1, Math.floor(fairShareFrom / keys))) throw new AppError('TooManyRequests', refusals.perKey);
    }
    byKey.set(key, held + 1);
    total += 1;
    let released = false;
    return () => {
      if (released) return;
      released = true;
      total -= 1;
      const left = (byKey.get(key) ?? 1) - 1;
      if (left === 0) byKey.delete(key);
      else byKey.set(key, left);
    };
  }

  /** Runs `run` holding a place for `key`, freed when it settles. */
  async function withSlot<T>(key: string, run: () => Promise<T>): Promise<T> {
    const release = admit(key);
    try {
      return await run();
    } finally {
      release();
    }
  }

  return { admit, withSlot };
}
