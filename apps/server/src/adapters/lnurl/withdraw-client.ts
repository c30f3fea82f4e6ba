import { AppError } from '@rayo/shared';
import { decodeLnurl, isAllowedLnurlTarget } from '../../domain/lnurl.ts';
import { getJsonObjectSafely, SafeFetchError, type SafeFetchFailure } from './safe-fetch.ts';

export { MAX_ANSWER_BYTES } from './safe-fetch.ts';

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

/**
 * One GET of the LNURL exchange, through `getJsonObjectSafely`: the link comes from whoever calls
 * our public API. The caller learns only our own fixed texts; the details are logged.
 */
async function getLnurlJson(url: URL, exchange: Exchange, step: Step): Promise<Record<string, unknown>> {
  const fail = (message: string, details: object): AppError => {
    // Only the origin: the rest of a withdraw link (k1, the card's one-time values) spends money.
    exchange.log.debug({ origin: url.origin, step, ...details }, 'LNURL-withdraw refused');
    return refuse(message);
  };
  let answer: Record<string, unknown>;
  try {
    answer = await getJsonObjectSafely(url, exchange);
  } catch (error) {
    if (!(error instanceof SafeFetchError)) throw error;
    const messages: Record<SafeFetchFailure, string> = {
      unreachable: `The card's service could not be reached for the ${step}`,
      timeout: `The card's service did not answer the ${step} in time`,
      invalid: `The card's service gave an invalid answer to the ${step}`,
    };
    throw fail(messages[error.failure], error.details);
  }
  // LNURL answers are JSON whatever their HTTP status (LUD-01), and `{status:"ERROR"}` is a refusal.
  if (answer.status === 'ERROR') {
    throw fail(`The card's service refused the ${step}`, { reason: String(answer.reason).slice(0, 200) });
  }
  return answer;
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
