/** A small closed-loop load generator: `concurrency` workers call `request` until `total` calls are done. */
export type LoadResult = {
  requests: number;
  seconds: number;
  perSecond: number;
  p50Ms: number;
  p95Ms: number;
  p99Ms: number;
};

export function percentile(sortedMs: number[], p: number): number {
  if (sortedMs.length === 0) return 0;
  const index = Math.min(sortedMs.length - 1, Math.ceil((p / 100) * sortedMs.length) - 1);
  return sortedMs[Math.max(0, index)] as number;
}

export function summarize(latenciesMs: number[], seconds: number): LoadResult {
  const sorted = [...latenciesMs].sort((a, b) => a - b);
  return {
    requests: sorted.length,
    seconds,
    perSecond: sorted.length / seconds,
    p50Ms: percentile(sorted, 50),
    p95Ms: percentile(sorted, 95),
    p99Ms: percentile(sorted, 99),
  };
}

export async function runLoad(total: number, concurrency: number, request: () => Promise<void>): Promise<LoadResult> {
  const latencies: number[] = [];
  let started = 0;
  const begin = performance.now();
  const worker = async () => {
    while (started < total) {
      started += 1;
      const t0 = performance.now();
      await request();
      latencies.push(performance.now() - t0);
    }
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
  return summarize(latencies, (performance.now() - begin) / 1000);
}

/**
 * An open-loop generator: sends `ratePerSecond` calls a second for `seconds`, each on schedule
 * whether or not earlier ones have answered, as a till's customers would. Each latency runs from
 * the call's scheduled time, so a stalled server is charged for the calls it kept waiting.
 */
export async function runFixedRate(
  ratePerSecond: number,
  seconds: number,
  request: () => Promise<void>,
): Promise<LoadResult & { errors: number }> {
  const total = Math.round(ratePerSecond * seconds);
  const intervalMs = 1000 / ratePerSecond;
  const latencies: number[] = [];
  let errors = 0;
  const calls: Promise<void>[] = [];
  const begin = performance.now();
  for (let i = 0; i < total; i += 1) {
    const due = begin + i * intervalMs;
    const wait = due - performance.now();
    if (wait > 1) await new Promise((resolve) => setTimeout(resolve, wait));
    calls.push(
      request().then(
        () => {
          latencies.push(performance.now() - due);
        },
        () => {
          errors += 1;
        },
      ),
    );
  }
  await Promise.all(calls);
  return { ...summarize(latencies, (performance.now() - begin) / 1000), errors };
}

export function formatResult(name: string, result: LoadResult): string {
  return `| ${name} | ${result.requests} | ${result.perSecond.toFixed(0)} | ${result.p50Ms.toFixed(2)} | ${result.p95Ms.toFixed(2)} | ${result.p99Ms.toFixed(2)} |`;
}
