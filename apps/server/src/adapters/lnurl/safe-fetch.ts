import dns from 'node:dns';
import net from 'node:net';
import { Agent, fetch } from 'undici';
import { isPublicAddress } from '../../domain/ip-address.ts';
import { describeFailure } from '../lightning/http.ts';
import { readCapped } from '../read-capped.ts';

/**
 * A request to a URL someone else chose (a card's withdraw link, a merchant's Lightning address, webhook endpoint or shop),
 * made so that it cannot be turned against the host's own network: only public addresses
 * (literal or resolved), the connection pinned to the address checked, no redirect followed (its
 * target would need the same checks, and LNURL services have no reason to redirect), a deadline
 * from the caller's signal and a bounded answer. Callers answer with their own fixed texts and
 * log `details`; nothing of the remote answer reaches their caller.
 */

/** An LNURL answer is a few hundred bytes; more is cut off while it arrives, not after. */
export const MAX_ANSWER_BYTES = 64 * 1024;

export type SafeFetchPolicy = {
  /** The deadline, shared by every request of one exchange. */
  signal: AbortSignal;
  /** Lets the URL resolve to loopback and private addresses: tests and local devnet setups only. */
  allowPrivateAddresses: boolean;
  /** An origin (`http://127.0.0.1:8080`) reached whatever its address, as if it were public. */
  trustedOrigin?: string | undefined;
};

export type SafeFetchFailure = 'unreachable' | 'timeout' | 'invalid';

export class SafeFetchError extends Error {
  readonly failure: SafeFetchFailure;
  /** What to log: never shown to the caller, whose URL may point anywhere. */
  readonly details: Record<string, unknown>;

  constructor(failure: SafeFetchFailure, details: Record<string, unknown>) {
    super(`safe fetch failed: ${failure}`);
    this.failure = failure;
    this.details = details;
  }
}

class NonPublicAddressError extends Error {
  readonly code = 'ENONPUBLIC';
}

/**
 * `net.connect`'s `lookup`: resolves like the default one, then refuses unless every address is
 * public. The socket connects to an address checked here, so a name that answers differently the
 * second time (DNS rebinding) cannot slip a private address past the check.
 */
const publicOnlyLookup: net.LookupFunction = (hostname, options, callback) => {
  dns.lookup(hostname, { ...options, all: true }, (error, addresses) => {
    if (error) return callback(error, '');
    const first = addresses[0];
    if (!first || !addresses.every(({ address }) => isPublicAddress(address))) {
      const listed = addresses.map(({ address }) => address).join(', ');
      return callback(new NonPublicAddressError(`${hostname} resolves to ${listed || 'nothing'}`), '');
    }
    if (options.all) return callback(null, addresses);
    return callback(null, first.address, first.family);
  });
};

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * The dispatcher for one exchange with `url`: pinned to public addresses unless `policy` opens
 * private ones; throws at once for a literal address that is not public.
 */
function guardedDispatcher(url: URL, policy: SafeFetchPolicy): Agent {
  const allowPrivate = policy.allowPrivateAddresses || url.origin === policy.trustedOrigin;
  const literal = url.hostname.replace(/^\[(.*)\]$/, '$1');
  if (!allowPrivate && net.isIP(literal) !== 0 && !isPublicAddress(literal)) {
    throw new SafeFetchError('unreachable', { reason: 'not a public address' });
  }
  return new Agent(allowPrivate ? {} : { connect: { lookup: publicOnlyLookup } });
}

function transportFailure(error: unknown, policy: SafeFetchPolicy): SafeFetchError {
  return policy.signal.aborted
    ? new SafeFetchError('timeout', {})
    : new SafeFetchError('unreachable', { reason: describeFailure(error) });
}

/** GETs `url` under `policy` and answers its body as a JSON object, whatever the HTTP status (LUD-01). */
export async function getJsonObjectSafely(url: URL, policy: SafeFetchPolicy): Promise<Record<string, unknown>> {
  const dispatcher = guardedDispatcher(url, policy);
  try {
    let response: Awaited<ReturnType<typeof fetch>>;
    try {
      response = await fetch(url, {
        headers: { accept: 'application/json' },
        redirect: 'manual',
        signal: policy.signal,
        dispatcher,
      });
    } catch (error) {
      throw transportFailure(error, policy);
    }
    const status = response.status;
    if (status >= 300 && status < 400)
      throw new SafeFetchError('unreachable', { reason: 'redirect not followed', status });
    let body: string | undefined;
    try {
      body = await readCapped(response.body, MAX_ANSWER_BYTES);
    } catch (error) {
      throw transportFailure(error, policy);
    }
    if (body === undefined)
      throw new SafeFetchError('invalid', { reason: `answer over ${MAX_ANSWER_BYTES} bytes`, status });
    let answer: unknown;
    try {
      answer = JSON.parse(body);
    } catch {
      throw new SafeFetchError('invalid', { reason: 'not JSON', status });
    }
    if (!isObject(answer)) throw new SafeFetchError('invalid', { reason: 'not a JSON object', status });
    return answer;
  } finally {
    await dispatcher.destroy();
  }
}

/**
 * POSTs `body` to `url` under `policy` (a merchant's webhook endpoint) and answers the HTTP
 * status; the answer's body is read up to `MAX_ANSWER_BYTES` and dropped. A redirect is an
 * answer like any other: it is not followed.
 */
export async function postSafely(
  url: URL,
  request: { body: string; headers: Record<string, string> },
  policy: SafeFetchPolicy,
): Promise<number> {
  const dispatcher = guardedDispatcher(url, policy);
  try {
    try {
      const response = await fetch(url, {
        method: 'POST',
        headers: request.headers,
        body: request.body,
        redirect: 'manual',
        signal: policy.signal,
        dispatcher,
      });
      await readCapped(response.body, MAX_ANSWER_BYTES);
      return response.status;
    } catch (error) {
      throw transportFailure(error, policy);
    }
  } finally {
    await dispatcher.destroy();
  }
}

/**
 * Sends a JSON request to `url` under `policy` (a shop platform's API: its host comes from a
 * merchant's input, such as a Shopify store domain) and answers the HTTP status with the answer
 * parsed as JSON, or null when it is not JSON. A redirect is not followed.
 */
export async function sendJsonSafely(
  url: URL,
  request: { method: 'GET' | 'POST' | 'PUT'; body?: string; headers: Record<string, string> },
  policy: SafeFetchPolicy,
): Promise<{ status: number; answer: unknown }> {
  const dispatcher = guardedDispatcher(url, policy);
  try {
    let response: Awaited<ReturnType<typeof fetch>>;
    let body: string | undefined;
    try {
      response = await fetch(url, {
        method: request.method,
        headers: {
          ...(request.body === undefined ? {} : { 'content-type': 'application/json' }),
          accept: 'application/json',
          ...request.headers,
        },
        ...(request.body === undefined ? {} : { body: request.body }),
        redirect: 'manual',
        signal: policy.signal,
        dispatcher,
      });
      body = await readCapped(response.body, MAX_ANSWER_BYTES);
    } catch (error) {
      throw transportFailure(error, policy);
    }
    if (body === undefined) {
      throw new SafeFetchError('invalid', { reason: `answer over ${MAX_ANSWER_BYTES} bytes`, status: response.status });
    }
    let answer: unknown = null;
    try {
      answer = JSON.parse(body);
    } catch {
      answer = null;
    }
    return { status: response.status, answer };
  } finally {
    await dispatcher.destroy();
  }
}
