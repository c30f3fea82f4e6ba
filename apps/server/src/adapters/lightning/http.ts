import { setTimeout as sleep } from 'node:timers/promises';
import { Agent, type fetch } from 'undici';

/** undici's fetch; the adapters accept another one (a proxying fetch, say) with the same signature. */
export type Fetch = typeof fetch;

/**
 * The connection pool of one backend. `caPem` replaces the system CAs, so only the node's own
 * certificate (lnd's `tls.cert`, CLN's `ca.pem`) is trusted. The settle stream and CLN's long poll
 * stay silent for long stretches, which undici's default 300 s header and body timeouts would cut,
 * so those are off here and every call sets its own deadline instead.
 */
export function createDispatcher(caPem: string | undefined): Agent {
  return new Agent({ headersTimeout: 0, bodyTimeout: 0, ...(caPem === undefined ? {} : { connect: { ca: caPem } }) });
}

/** A deadline for one call that also ends when `signal` (if any) aborts. */
export function deadline(ms: number, signal?: AbortSignal): AbortSignal {
  const timeout = AbortSignal.timeout(ms);
  return signal ? AbortSignal.any([signal, timeout]) : timeout;
}

/**
 * Why a request got no HTTP answer, from undici's error chain (`fetch failed` → the socket or
 * TLS error with its code, e.g. `DEPTH_ZERO_SELF_SIGNED_CERT` or `ECONNREFUSED`).
 */
export function describeFailure(error: unknown): string {
  if (error instanceof DOMException && error.name === 'TimeoutError') return 'no answer before the deadline';
  const reasons: string[] = [];
  let current: unknown = error;
  while (current instanceof Error && reasons.length < 4) {
    const code = (current as { code?: unknown }).code;
    reasons.push(typeof code === 'string' ? `${code}: ${current.message}` : current.message);
    current = current.cause;
  }
  return reasons.length > 0 ? reasons.join(' ← ') : String(error);
}

/** Waits `ms`, or less if `signal` aborts; says whether the full wait happened. */
export async function pause(ms: number, signal: AbortSignal): Promise<boolean> {
  try {
    await sleep(ms, undefined, { signal });
    return true;
  } catch {
    return false;
  }
}

/** Reconnect delays: doubling from `initialMs` up to `maxMs`, back to `initialMs` after progress. */
export class Backoff {
  readonly initialMs: number;
  readonly maxMs: number;
  #nextMs: number;

  constructor(initialMs: number, maxMs: number) {
    this.initialMs = initialMs;
    this.maxMs = Math.max(initialMs, maxMs);
    this.#nextMs = initialMs;
  }

  next(): number {
    const current = this.#nextMs;
    this.#nextMs = Math.min(this.#nextMs * 2, this.maxMs);
    return current;
  }

  reset(): void {
    this.#nextMs = this.initialMs;
  }
}

/**
 * Wraps an error thrown by the caller's settlement handler, so the reconnect loop can tell it from
 * a transport failure: the handler's errors end the subscription, transport failures are retried.
 */
export class HandlerFailure {
  readonly error: unknown;

  constructor(error: unknown) {
    this.error = error;
  }
}

/** Splits a chunked body into its newline-delimited JSON values (lnd's streaming REST calls). */
export async function* jsonLines(body: AsyncIterable<Uint8Array>): AsyncGenerator<unknown> {
  const decoder = new TextDecoder();
  let buffered = '';
  for await (const chunk of body) {
    buffered += decoder.decode(chunk, { stream: true });
    let newline = buffered.indexOf('\n');
    while (newline !== -1) {
      const line = buffered.slice(0, newline).trim();
      buffered = buffered.slice(newline + 1);
      if (line !== '') yield JSON.parse(line);
      newline = buffered.indexOf('\n');
    }
  }
  const rest = (buffered + decoder.decode()).trim();
  if (rest !== '') yield JSON.parse(rest);
}
