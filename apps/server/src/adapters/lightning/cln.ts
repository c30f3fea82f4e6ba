import { createHash, randomUUID } from 'node:crypto';
import { fetch as undiciFetch } from 'undici';
import { methodsRuneRefuses } from './cln-rune.ts';
import {
  AnswerTooLarge,
  Backoff,
  createDispatcher,
  deadline,
  describeFailure,
  type Fetch,
  HandlerFailure,
  pause,
  readText,
} from './http.ts';
import {
  type CreatedInvoice,
  type DecodedInvoice,
  describesByHash,
  type InvoiceLookup,
  type LightningBackend,
  LightningBackendError,
  lookupInvoicesOneByOne,
  type PaymentLookup,
  type PaymentResult,
  type Settlement,
} from './types.ts';

export type ClnBackendOptions = {
  /** clnrest's listener, e.g. `https://127.0.0.1:3010`. */
  restUrl: string;
  /** A rune allowing `RUNE_METHODS` (`CREATERUNE_COMMAND`). */
  rune: string;
  /** clnrest's `ca.pem`, trusted as the only CA; without it the system CAs must vouch for the node. */
  tlsCaPem?: string;
  fetch?: Fetch;
  /** Deadline of every call except the long poll and payments. Default 30 s. */
  requestTimeoutMs?: number;
  /** `timeout` of each `waitanyinvoice` long poll. Default 30 s. */
  waitTimeoutSeconds?: number;
  /** First wait before retrying a failed long poll, doubling up to `maxReconnectDelayMs`. Default 1 s / 60 s. */
  reconnectDelayMs?: number;
  maxReconnectDelayMs?: number;
  /** Hears of every failed long poll before the adapter retries, so the caller can log it. */
  onStreamError?: (error: LightningBackendError, retryInMs: number) => void;
  /** Hears of what works but not fully at start, e.g. a rune that cannot send payouts. */
  onWarning?: (message: string) => void;
};

/** The methods taking payments needs; without one of them Rayo does not start. */
const RECEIVING_METHODS = ['getinfo', 'invoice', 'listinvoices', 'waitanyinvoice', 'decode'];
/** The methods Lightning payouts add. */
const PAYOUT_METHODS = ['pay', 'listpays'];
/** Every method Rayo calls. */
export const RUNE_METHODS = [...RECEIVING_METHODS, ...PAYOUT_METHODS];

/** A rune for Rayo: one restriction whose alternatives are its methods (doc/schemas/createrune.json). */
export const CREATERUNE_COMMAND = `lightning-cli createrune restrictions='[[${RUNE_METHODS.map((method) => `"method=${method}"`).join(',')}]]'`;

/** `network` of `getinfo`; Liquid and other chains are not supported. */
const NETWORKS: Record<string, LightningBackend['network']> = {
  bitcoin: 'mainnet',
  testnet: 'testnet',
  testnet4: 'testnet',
  signet: 'signet',
  regtest: 'regtest',
};

/** `waitanyinvoice` answers this code when its `timeout` passes with no payment. */
const WAIT_TIMED_OUT = 904;
/** How much longer than the node's own limit (`timeout`, `retry_for`) a call may take to answer. */
const GRACE_MS = 15_000;

type Json = Record<string, unknown>;

/** A node error answered as `{code, message}`; the code tells a long-poll timeout from a failure. */
class ClnError extends LightningBackendError {
  readonly code: number | undefined;

  constructor(message: string, code: number | undefined) {
    super(message);
    this.code = code;
  }
}

/**
 * Refuses, before any call, a rune that cannot take payments, naming the methods it lacks; one that
 * cannot send payouts is only reported. clnrest's own refusal names only the first restriction
 * that failed, and a payout's lookup would fail only when its outcome was lost.
 */
function checkRune(options: ClnBackendOptions): void {
  const refused = methodsRuneRefuses(options.rune, RUNE_METHODS);
  if (refused === null) return;
  const receiving = refused.filter((method) => RECEIVING_METHODS.includes(method));
  if (receiving.length > 0) {
    throw new LightningBackendError(
      `The Core Lightning rune does not allow ${receiving.join(', ')}, which taking payments needs. ` +
        `Create a rune with: ${CREATERUNE_COMMAND}`,
    );
  }
  const payouts = refused.filter((method) => PAYOUT_METHODS.includes(method));
  if (payouts.length > 0) {
    options.onWarning?.(
      `The Core Lightning rune does not allow ${payouts.join(', ')}: Lightning payouts cannot be sent. ` +
        `Create a rune with: ${CREATERUNE_COMMAND}`,
    );
  }
}

/**
 * The Lightning backend over Core Lightning's clnrest plugin (reference/protocols.md §5).
 *
 * Reads the rune's restrictions, then asks `getinfo` for the network before answering, so a wrong
 * URL, CA or rune stops the server at boot instead of at the first payment.
 */
export async function createClnBackend(options: ClnBackendOptions): Promise<LightningBackend> {
  checkRune(options);
  const call = createCaller(options);
  const info = await call('getinfo', {});
  const network = typeof info.network === 'string' ? NETWORKS[info.network] : undefined;
  if (!network)
    throw new LightningBackendError(`Core Lightning runs on an unsupported network: ${String(info.network)}`);
  const waitTimeoutSeconds = options.waitTimeoutSeconds ?? 30;

  const backend: LightningBackend = {
    name: 'cln',
    network,

    async createInvoice(request): Promise<CreatedInvoice> {
      const { amountMsat, description, expirySeconds } = request;
      if (amountMsat <= 0n) throw new RangeError('An invoice amount must be positive');
      if (!Number.isSafeInteger(expirySeconds) || expirySeconds < 1) {
        throw new RangeError('An invoice expiry must be a whole number of seconds, at least 1');
      }
      const answer = await call('invoice', {
        amount_msat: amountMsat,
        // Labels must be unique per node and mean nothing to us: the payment hash is our key.
        label: `rayo-${randomUUID()}`,
        description,
        expiry: expirySeconds,
        // CLN hashes the description itself and puts only the hash in the invoice: for LNURL-pay
        // metadata, and for text longer than a BOLT11 field holds, which lightningd refuses.
        ...(describesByHash(request) ? { deschashonly: true } : {}),
      });
      return {
        paymentHash: checkHash(answer.payment_hash),
        paymentRequest: text(answer.bolt11, 'bolt11'),
        expiresAt: seconds(answer.expires_at, 'expires_at'),
      };
    },

    async lookupInvoice(paymentHash): Promise<InvoiceLookup> {
      const hash = checkHash(paymentHash);
      const answer = await call('listinvoices', { payment_hash: hash });
      if (!Array.isArray(answer.invoices)) {
        throw new LightningBackendError('Core Lightning listinvoices answered without a list');
      }
      const invoice = answer.invoices[0] as Json | undefined;
      if (!invoice) throw new LightningBackendError(`Core Lightning has no invoice with payment hash ${hash}`);
      switch (invoice.status) {
        case 'paid':
          return { paymentHash: hash, state: 'settled', settlement: toSettlement(invoice) };
        case 'unpaid':
          return { paymentHash: hash, state: 'open', settlement: null };
        case 'expired':
          return { paymentHash: hash, state: 'expired', settlement: null };
        default:
          throw new LightningBackendError(
            `Core Lightning answered an unknown invoice status: ${String(invoice.status)}`,
          );
      }
    },

    lookupInvoices: (paymentHashes) => lookupInvoicesOneByOne(backend, paymentHashes),

    async subscribeSettlements(afterIndex, onSettlement, signal): Promise<void> {
      let last = afterIndex;
      const delays = new Backoff(options.reconnectDelayMs ?? 1000, options.maxReconnectDelayMs ?? 60_000);
      while (!signal.aborted) {
        let failure: LightningBackendError;
        try {
          const invoice = await call(
            'waitanyinvoice',
            { lastpay_index: last, timeout: waitTimeoutSeconds },
            { signal, timeoutMs: waitTimeoutSeconds * 1000 + GRACE_MS },
          );
          delays.reset();
          // An expired invoice carries no pay_index and moves nothing in the paid sequence, so the
          // next poll asks again after the same index. Any other status is a broken answer.
          if (invoice.status === 'expired') continue;
          if (invoice.status !== 'paid') {
            throw new LightningBackendError(
              `Core Lightning waitanyinvoice answered an unknown status: ${String(invoice.status)}`,
            );
          }
          const settlement = toSettlement(invoice);
          if (settlement.settleIndex <= last) continue;
          try {
            await onSettlement(settlement);
          } catch (error) {
            throw new HandlerFailure(error);
          }
          last = settlement.settleIndex;
          continue;
        } catch (error) {
          if (error instanceof HandlerFailure) throw error.error;
          if (signal.aborted) return;
          if (error instanceof ClnError && error.code === WAIT_TIMED_OUT) {
            delays.reset();
            continue;
          }
          failure =
            error instanceof LightningBackendError
              ? error
              : new LightningBackendError(`Core Lightning waitanyinvoice failed: ${describeFailure(error)}`, {
                  cause: error,
                });
        }
        const wait = delays.next();
        options.onStreamError?.(failure, wait);
        if (!(await pause(wait, signal))) return;
      }
    },

    async payInvoice(paymentRequest, { maxFeeMsat, timeoutSeconds, description }): Promise<PaymentResult> {
      if (maxFeeMsat < 0n) throw new RangeError('A fee limit cannot be negative');
      if (!Number.isSafeInteger(timeoutSeconds) || timeoutSeconds < 1) {
        throw new RangeError('A payment timeout must be a whole number of seconds, at least 1');
      }
      let answer: Json;
      try {
        answer = await call(
          'pay',
          {
            bolt11: paymentRequest,
            maxfee: maxFeeMsat,
            retry_for: timeoutSeconds,
            ...(description === undefined ? {} : { description }),
          },
          { timeoutMs: timeoutSeconds * 1000 + GRACE_MS },
        );
      } catch (error) {
        if (error instanceof ClnError) throw error;
        throw new LightningBackendError(
          `Core Lightning pay got no final answer, so the payment may still be in flight: ${(error as Error).message}`,
          { cause: error },
        );
      }
      if (answer.status !== 'complete') {
        throw new LightningBackendError(
          `Core Lightning pay ended ${String(answer.status)}${answer.status === 'pending' ? ': the payment may still complete' : ''}`,
        );
      }
      const paymentHash = checkHash(answer.payment_hash);
      const preimage = text(answer.payment_preimage, 'payment_preimage').toLowerCase();
      if (
        !/^[0-9a-f]{64}$/.test(preimage) ||
        createHash('sha256').update(Buffer.from(preimage, 'hex')).digest('hex') !== paymentHash
      ) {
        throw new LightningBackendError('Core Lightning reported a payment whose preimage does not match its hash');
      }
      const feeMsat = exact(answer.amount_sent_msat, 'amount_sent_msat') - exact(answer.amount_msat, 'amount_msat');
      return { paymentHash, preimage, feeMsat };
    },

    async lookupPayment(paymentHash): Promise<PaymentLookup> {
      const answer = await call('listpays', { payment_hash: checkHash(paymentHash) });
      // An answer without a list must not read as "never paid", which would let a payout pay again.
      if (!Array.isArray(answer.pays))
        throw new LightningBackendError('Core Lightning listpays answered without a list');
      const pays = answer.pays as Json[];
      // doc/schemas/listpays.json: pending, complete or failed; anything else must not read as failed.
      const unknown = pays.find((pay) => !['pending', 'complete', 'failed'].includes(pay.status as string));
      if (unknown) {
        throw new LightningBackendError(
          `Core Lightning listpays answered an unknown status: ${String(unknown.status)}`,
        );
      }
      const complete = pays.find((pay) => pay.status === 'complete');
      if (complete) {
        const preimage = text(complete.preimage, 'preimage').toLowerCase();
        if (
          !/^[0-9a-f]{64}$/.test(preimage) ||
          createHash('sha256').update(Buffer.from(preimage, 'hex')).digest('hex') !== paymentHash
        ) {
          throw new LightningBackendError('Core Lightning listed a payment whose preimage does not match its hash');
        }
        const feeMsat =
          exact(complete.amount_sent_msat, 'amount_sent_msat') - exact(complete.amount_msat, 'amount_msat');
        return { state: 'succeeded', preimage, feeMsat };
      }
      if (pays.some((pay) => pay.status === 'pending')) return { state: 'in_flight' };
      return pays.length > 0 ? { state: 'failed' } : { state: 'unknown' };
    },

    async decodeInvoice(paymentRequest): Promise<DecodedInvoice> {
      const decoded = await call('decode', { string: paymentRequest });
      if (decoded.valid !== true) throw new LightningBackendError('Core Lightning found the invoice invalid');
      if (decoded.type !== 'bolt11 invoice') {
        throw new LightningBackendError(`Expected a BOLT11 invoice, Core Lightning decoded a ${String(decoded.type)}`);
      }
      const createdAt = whole(decoded.created_at, 'created_at');
      // BOLT11: an invoice without an expiry field expires after 3600 s.
      const expiry = decoded.expiry === undefined ? 3600 : whole(decoded.expiry, 'expiry');
      return {
        paymentHash: checkHash(decoded.payment_hash),
        amountMsat: decoded.amount_msat === undefined ? null : exact(decoded.amount_msat, 'amount_msat'),
        description: typeof decoded.description === 'string' && decoded.description !== '' ? decoded.description : null,
        expiresAt: new Date((createdAt + expiry) * 1000),
        payee: text(decoded.payee, 'payee'),
      };
    },
  };
  return backend;
}

type Caller = (method: string, params: Json, call?: { signal?: AbortSignal; timeoutMs?: number }) => Promise<Json>;

function createCaller(options: ClnBackendOptions): Caller {
  const base = new URL(options.restUrl);
  const fetch = options.fetch ?? undiciFetch;
  const dispatcher = createDispatcher(options.tlsCaPem);
  const requestTimeoutMs = options.requestTimeoutMs ?? 30_000;

  return async (method, params, call = {}) => {
    let response: Awaited<ReturnType<Fetch>>;
    let body: string;
    try {
      response = await fetch(new URL(`/v1/${method}`, base), {
        method: 'POST',
        headers: { Rune: options.rune, 'content-type': 'application/json' },
        body: toJson(params),
        signal: deadline(call.timeoutMs ?? requestTimeoutMs, call.signal),
        dispatcher,
      });
      body = await readText(response.body);
    } catch (error) {
      if (call.signal?.aborted) throw error;
      throw new LightningBackendError(
        error instanceof AnswerTooLarge
          ? `Core Lightning ${method} gave an unreadable answer: ${error.message}`
          : `Core Lightning ${method}: no answer from ${base.origin}: ${describeFailure(error)}`,
        { cause: error },
      );
    }
    let answer: unknown;
    try {
      answer = parseJson(body);
    } catch (error) {
      answer = undefined;
      if (response.ok) {
        throw new LightningBackendError(
          `Core Lightning ${method} gave an unreadable answer: ${describeFailure(error)}`,
          {
            cause: error,
          },
        );
      }
    }
    const isObject = typeof answer === 'object' && answer !== null && !Array.isArray(answer);
    const fields = (isObject ? answer : {}) as Json;
    if (response.ok) {
      if (!isObject)
        throw new LightningBackendError(`Core Lightning ${method} answered something other than an object`);
      return fields;
    }
    const code = typeof fields.code === 'number' ? fields.code : undefined;
    const message = typeof fields.message === 'string' ? fields.message : body.slice(0, 200) || '(empty body)';
    const runeRefused = response.status === 401 || response.status === 403;
    const what = runeRefused ? 'refused the rune' : response.status === 404 ? 'does not know the method' : 'failed';
    throw new ClnError(
      `Core Lightning ${method} ${what} (HTTP ${response.status}${code === undefined ? '' : `, code ${code}`}): ${message}` +
        (runeRefused ? `. Create a rune with: ${CREATERUNE_COMMAND}` : ''),
      code,
    );
  };
}

/** `JSON.rawJSON` (Node ≥ 21), missing from TypeScript's lib: writes a bigint as a bare JSON integer. */
const rawJson = (JSON as unknown as { rawJSON(text: string): unknown }).rawJSON;

/** CLN's msat inputs are JSON integers; bigints go out digit for digit, never through a float. */
function toJson(params: Json): string {
  return JSON.stringify(params, (_key, value: unknown) =>
    typeof value === 'bigint' ? rawJson(value.toString()) : value,
  );
}

/** Fields read as exact bigints: CLN's `msat` type and the pay index, which is our settle cursor. */
const EXACT_FIELD = /_msat$|^pay_index$/;

/**
 * Parses an answer keeping msat amounts exact: `JSON.parse` turns integers into doubles, which are
 * exact only up to 2^53 (about 90,000 BTC in msat), so the reviver reads those fields from their
 * source text instead (JSON.parse source text access, Node ≥ 21). The deprecated `"…msat"` string
 * form is accepted too.
 */
function parseJson(body: string): unknown {
  return JSON.parse(body, (key: string, value: unknown, context?: { source?: string }) => {
    if (!EXACT_FIELD.test(key)) return value;
    if (typeof value === 'number' && context?.source !== undefined && /^\d+$/.test(context.source)) {
      return BigInt(context.source);
    }
    if (typeof value === 'string' && /^\d+msat$/.test(value)) return BigInt(value.slice(0, -4));
    return value;
  });
}

function toSettlement(invoice: Json): Settlement {
  return {
    paymentHash: checkHash(invoice.payment_hash),
    settleIndex: exact(invoice.pay_index, 'pay_index'),
    amountPaidMsat: exact(invoice.amount_received_msat, 'amount_received_msat'),
    settledAt: seconds(invoice.paid_at, 'paid_at'),
  };
}

/** A field `parseJson` made exact; anything else there (a fraction, a negative) is invalid. */
function exact(value: unknown, field: string): bigint {
  if (typeof value === 'bigint') return value;
  throw new LightningBackendError(`Core Lightning answered an invalid ${field}`);
}

function whole(value: unknown, field: string): number {
  if (typeof value === 'number' && Number.isSafeInteger(value) && value >= 0) return value;
  throw new LightningBackendError(`Core Lightning answered an invalid ${field}`);
}

function seconds(value: unknown, field: string): Date {
  return new Date(whole(value, field) * 1000);
}

function text(value: unknown, field: string): string {
  if (typeof value === 'string' && value !== '') return value;
  throw new LightningBackendError(`Core Lightning answered without ${field}`);
}

function checkHash(value: unknown): string {
  if (typeof value === 'string' && /^[0-9a-fA-F]{64}$/.test(value)) return value.toLowerCase();
  throw new LightningBackendError('A payment hash must be 64 hex characters');
}
