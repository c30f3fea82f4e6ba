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

/**
 * The most of one answer (or one message of a stream) Rayo reads from a node. Real answers are far
 * smaller: a page of 1000 lnd invoices is about 2 MB. A longer one is refused instead of read into
 * memory without end.
 */
export const MAX_ANSWER_BYTES = 16 * 1024 * 1024;

/** An answer, or a message of a stream, longer than `MAX_ANSWER_BYTES`. */
export class AnswerTooLarge extends Error {
  constructor() {
    super(`the answer is longer than ${MAX_ANSWER_BYTES} bytes`);
    this.name = 'AnswerTooLarge';
  }
}

/** A body as text, refused past `limit` bytes. */
export async function readText(
  body: AsyncIterable<Uint8Array> | null,
  limit: number = MAX_ANSWER_BYTES,
): Promise<string> {
  if (body === null) return '';
  const decoder = new TextDecoder();
  let text = '';
  let bytes = 0;
  for await (const chunk of body) {
    bytes += chunk.byteLength;
    if (bytes > limit) throw new AnswerTooLarge();
    text += decoder.decode(chunk, { stream: true });
  }
  return text + decoder.decode();
}

/** Splits a chunked body into its newline-delimited JSON values (lnd's streaming REST calls). */
export async function* jsonLines(
  body: AsyncIterable<Uint8Array>,
  limit: number = MAX_ANSWER_BYTES,
): AsyncGenerator<unknown> {
  const decoder = new TextDecoder();
  let buffered = '';
  for await (const chunk of body) {
    const text = decoder.decode(chunk, { stream: true });
    buffered += text;
    if (!text.includes('\n')) {
      // A message still without its newline past the limit will not end well; stop reading it.
      if (buffered.length > limit) throw new AnswerTooLarge();
      continue;
    }
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
