import dns from 'node:dns';
import net from 'node:net';
import { AppError } from '@rayo/shared';
import { Agent, fetch } from 'undici';
import { isPublicAddress } from '../../domain/ip-address.ts';
import { decodeLnurl, isAllowedLnurlTarget } from '../../domain/lnurl.ts';
import { describeFailure } from '../lightning/http.ts';

/** Where the details of a refusal go: never to the caller, whose link may point anywhere. */
export type LnurlLog = { debug: (details: object, message: string) => void };

export type RedeemLnurlWithdrawInput = {
  /** What the card or QR code gave: `lnurlw://…`, `lnurl1…`, `lightning:…` or an https URL. */
  lnurl: string;
  /** Our own invoice, which the withdraw service is asked to pay. */
  paymentRequest: string;
  amountMsat: bigint;
  /** Lets the service sit at `http://127.0.0.1` or `http://localhost`: devnet and tests only. */
  allowInsecureLoopback?: boolean;
  /** Lets the service sit at loopback and private addresses: tests and local devnet setups only. */
  allowPrivateAddresses?: boolean;
  /** An origin (`http://127.0.0.1:8080`) reached whatever its address, as if it were public. */
  trustedOrigin?: string;
  /** Deadline of the whole exchange, both requests. Default 5 s. */
  timeoutMs?: number;
  log: LnurlLog;
};

const DEFAULT_TIMEOUT_MS = 5_000;
/** A withdraw offer is a few hundred bytes; more is cut off while it arrives, not after. */
export const MAX_ANSWER_BYTES = 64 * 1024;

type Step = 'card read' | 'payment request';

type Exchange = {
  signal: AbortSignal;
  allowPrivateAddresses: boolean;
  trustedOrigin: string | undefined;
  log: LnurlLog;
};

function refuse(reason: string): AppError {
  return new AppError('InvalidLnurlWithdraw', reason);
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
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

/** Reads the body up to `MAX_ANSWER_BYTES`; undefined once it grows past them. */
async function readCapped(body: AsyncIterable<Uint8Array> | null): Promise<string | undefined> {
  if (!body) return '';
  const chunks: Uint8Array[] = [];
  let size = 0;
  for await (const chunk of body) {
    size += chunk.byteLength;
    // Leaving the loop cancels the stream, which closes the connection.
    if (size > MAX_ANSWER_BYTES) return undefined;
    chunks.push(chunk);
  }
  return Buffer.concat(chunks).toString('utf8');
}

/**
 * One GET of the LNURL exchange. The link comes from whoever calls our public API, so the request
 * goes only to public addresses (literal or resolved), follows no redirect (its target would need
 * the same checks, and LNURL services have no reason to redirect), shares the exchange's deadline
 * and reads a bounded answer. The caller learns only our own fixed texts; the details are logged.
 */
async function getLnurlJson(url: URL, exchange: Exchange, step: Step): Promise<Record<string, unknown>> {
  const fail = (message: string, details: object): AppError => {
    // Only the origin: the rest of a withdraw link (k1, the card's one-time values) spends money.
    exchange.log.debug({ origin: url.origin, step, ...details }, 'LNURL-withdraw refused');
    return refuse(message);
  };
  const unreachable = `The card's service could not be reached for the ${step}`;
  const invalid = `The card's service gave an invalid answer to the ${step}`;

  const allowPrivate = exchange.allowPrivateAddresses || url.origin === exchange.trustedOrigin;
  const literal = url.hostname.replace(/^\[(.*)\]$/, '$1');
  if (!allowPrivate && net.isIP(literal) !== 0 && !isPublicAddress(literal)) {
    throw fail(unreachable, { reason: 'not a public address' });
  }
  const dispatcher = new Agent(allowPrivate ? {} : { connect: { lookup: publicOnlyLookup } });
  const transportFailure = (error: unknown): AppError =>
    exchange.signal.aborted
      ? fail(`The card's service did not answer the ${step} in time`, {})
      : fail(unreachable, { reason: describeFailure(error) });
  try {
    let response: Awaited<ReturnType<typeof fetch>>;
    try {
      response = await fetch(url, {
        headers: { accept: 'application/json' },
        redirect: 'manual',
        signal: exchange.signal,
        dispatcher,
      });
    } catch (error) {
      throw transportFailure(error);
    }
    const status = response.status;
    if (status >= 300 && status < 400) throw fail(unreachable, { reason: 'redirect not followed', status });
    let body: string | undefined;
    try {
      body = await readCapped(response.body);
    } catch (error) {
      throw transportFailure(error);
    }
    if (body === undefined) throw fail(invalid, { reason: `answer over ${MAX_ANSWER_BYTES} bytes`, status });
    let answer: unknown;
    try {
      answer = JSON.parse(body);
    } catch {
      throw fail(invalid, { reason: 'not JSON', status });
    }
    if (!isObject(answer)) throw fail(invalid, { reason: 'not a JSON object', status });
    // LNURL answers are JSON whatever their HTTP status (LUD-01), and `{status:"ERROR"}` is a refusal.
    if (answer.status === 'ERROR') {
      throw fail(`The card's service refused the ${step}`, { reason: String(answer.reason).slice(0, 200) });
    }
    return answer;
  } finally {
    await dispatcher.destroy();
  }
}

function msatField(answer: Record<string, unknown>, name: string): bigint {
  const value = answer[name];
  if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < 0) {
    throw refuse(`The card's service sent an invalid ${name}`);
  }
  return BigInt(value);
}

/**
 * The terminal side of LUD-03 (protocols.md §3): reads the withdraw link of a Bolt Card or QR code
 * and asks its service to pay our invoice. Success only means the service accepted the request;
 * the sale is paid when our node reports the invoice settled.
 */
export async function redeemLnurlWithdraw(input: RedeemLnurlWithdrawInput): Promise<void> {
  const policy = { allowInsecureLoopback: input.allowInsecureLoopback === true };
  const link = new URL(decodeLnurl(input.lnurl, policy));
  const exchange: Exchange = {
    signal: AbortSignal.timeout(input.timeoutMs ?? DEFAULT_TIMEOUT_MS),
    allowPrivateAddresses: input.allowPrivateAddresses === true,
    trustedOrigin: input.trustedOrigin,
    log: input.log,
  };

  const offer = await getLnurlJson(link, exchange, 'card read');
  if (offer.tag !== 'withdrawRequest') throw refuse('This link is not for withdrawing');
  if (typeof offer.k1 !== 'string' || offer.k1 === '') throw refuse("The card's service sent no k1");
  if (typeof offer.callback !== 'string') throw refuse("The card's service sent no callback");
  let callback: URL;
  try {
    callback = new URL(offer.callback);
  } catch {
    throw refuse("The card's service sent a callback that is not a URL");
  }
  if (!isAllowedLnurlTarget(callback, policy)) throw refuse("The card's service sent a callback that is not HTTPS");

  const min = msatField(offer, 'minWithdrawable');
  const max = msatField(offer, 'maxWithdrawable');
  if (input.amountMsat > max) throw refuse('This sale is above what the card allows');
  if (input.amountMsat < min) throw refuse('This sale is below what the card requires');
  // LUD-21's pinLimit: this terminal cannot collect a PIN, so say so instead of sending a request
  // the service will refuse.
  if (offer.pinLimit !== undefined && input.amountMsat >= msatField(offer, 'pinLimit')) {
    throw refuse('The card asks for a PIN for this amount, which this terminal cannot collect');
  }

  // Appended as text so that a query the callback already has reaches its service unchanged.
  const ours = `k1=${encodeURIComponent(offer.k1)}&pr=${encodeURIComponent(input.paymentRequest)}`;
  callback.search = callback.search ? `${callback.search}&${ours}` : `?${ours}`;
  const result = await getLnurlJson(callback, exchange, 'payment request');
  if (result.status !== 'OK') throw refuse("The card's service did not confirm the payment request");
}
