import { AppError } from '@rayo/shared';
import { decodeLnurl, isAllowedLnurlTarget } from '../../domain/lnurl.ts';

export type RedeemLnurlWithdrawInput = {
  /** What the card or QR code gave: `lnurlw://…`, `lnurl1…`, `lightning:…` or an https URL. */
  lnurl: string;
  /** Our own invoice, which the withdraw service is asked to pay. */
  paymentRequest: string;
  amountMsat: bigint;
  /** Lets the service sit at `http://127.0.0.1` or `http://localhost`: devnet and tests only. */
  allowInsecureLoopback?: boolean;
  /** Deadline of each of the two requests. Default 10 s. */
  timeoutMs?: number;
};

const DEFAULT_TIMEOUT_MS = 10_000;
/** Remote reasons are shown to the merchant; a service must not flood the screen. */
const MAX_REASON_LENGTH = 200;

function refuse(reason: string): AppError {
  return new AppError('InvalidLnurlWithdraw', reason);
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** LNURL answers are JSON whatever their HTTP status (LUD-01), and `{status:"ERROR"}` is a refusal. */
async function getLnurlJson(url: URL, timeoutMs: number, step: string): Promise<Record<string, unknown>> {
  let response: Response;
  let body: string;
  try {
    response = await fetch(url, {
      headers: { accept: 'application/json' },
      // A redirect could lead to plain HTTP past the scheme check; its non-JSON body refuses it.
      redirect: 'manual',
      signal: AbortSignal.timeout(timeoutMs),
    });
    body = await response.text();
  } catch (error) {
    if ((error as { name?: unknown } | null)?.name === 'TimeoutError') {
      throw refuse(`The card's service did not answer the ${step} within ${timeoutMs / 1000} s`);
    }
    throw refuse(`The card's service at ${url.host} could not be reached for the ${step}`);
  }
  let answer: unknown;
  try {
    answer = JSON.parse(body);
  } catch {
    throw refuse(`The card's service answered the ${step} with something other than JSON (HTTP ${response.status})`);
  }
  if (!isObject(answer)) throw refuse(`The card's service answered the ${step} with something other than an object`);
  if (answer.status === 'ERROR') {
    const reason = typeof answer.reason === 'string' && answer.reason.trim() ? answer.reason.trim() : 'no reason given';
    throw refuse(`The card's service refused: ${reason.slice(0, MAX_REASON_LENGTH)}`);
  }
  return answer;
}

function msatField(answer: Record<string, unknown>, name: string): bigint {
  const value = answer[name];
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 0) {
    throw refuse(`The card's service sent an invalid ${name}`);
  }
  return BigInt(value);
}

function formatSats(msat: bigint): string {
  return `${msat / 1000n}${msat % 1000n === 0n ? '' : `.${(msat % 1000n).toString().padStart(3, '0')}`} sat`;
}

/**
 * The terminal side of LUD-03 (protocols.md §3): reads the withdraw link of a Bolt Card or QR code
 * and asks its service to pay our invoice. Success only means the service accepted the request;
 * the sale is paid when our node reports the invoice settled.
 */
export async function redeemLnurlWithdraw(input: RedeemLnurlWithdrawInput): Promise<void> {
  const timeoutMs = input.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const policy = { allowInsecureLoopback: input.allowInsecureLoopback === true };
  const link = new URL(decodeLnurl(input.lnurl, policy));

  const offer = await getLnurlJson(link, timeoutMs, 'card read');
  if (offer.tag !== 'withdrawRequest') {
    throw refuse(`This link is not for withdrawing (its tag is ${JSON.stringify(offer.tag ?? null)})`);
  }
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
  if (input.amountMsat > max) {
    throw refuse(`The card allows at most ${formatSats(max)}; this sale is ${formatSats(input.amountMsat)}`);
  }
  if (input.amountMsat < min) {
    throw refuse(`The card requires at least ${formatSats(min)}; this sale is ${formatSats(input.amountMsat)}`);
  }
  // LUD-21's pinLimit: this terminal cannot collect a PIN, so say so instead of sending a request
  // the service will refuse.
  if (offer.pinLimit !== undefined && input.amountMsat >= msatField(offer, 'pinLimit')) {
    throw refuse('The card asks for a PIN for this amount, which this terminal cannot collect');
  }

  // Appended as text so that a query the callback already has reaches its service unchanged.
  const ours = `k1=${encodeURIComponent(offer.k1)}&pr=${encodeURIComponent(input.paymentRequest)}`;
  callback.search = callback.search ? `${callback.search}&${ours}` : `?${ours}`;
  const result = await getLnurlJson(callback, timeoutMs, 'payment request');
  if (result.status !== 'OK') throw refuse("The card's service did not confirm the payment request");
}
