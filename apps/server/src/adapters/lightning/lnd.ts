import { createHash } from 'node:crypto';
import { fetch as undiciFetch } from 'undici';
import {
  Backoff,
  createDispatcher,
  deadline,
  describeFailure,
  type Fetch,
  HandlerFailure,
  jsonLines,
  pause,
  readText,
} from './http.ts';
import {
  checkHash,
  errorMessage,
  hashFromBase64,
  int64,
  type Json,
  streamResult,
  text,
  toLookup,
  toPaymentResult,
  toSettlement,
} from './lnd-json.ts';
import {
  callsRefused,
  LND_CALLS,
  type LndCall,
  macaroonPermissions,
  PAYOUT_CALLS,
  permissionsFor,
  RECEIVING_CALLS,
} from './lnd-macaroon.ts';
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

export type LndBackendOptions = {
  /** lnd's REST listener, e.g. `https://127.0.0.1:8080`. */
  restUrl: string;
  /**
   * Hex of the macaroon file's bytes: one baked with `lncli bakemacaroon` and the permissions of
   * `BAKE_COMMAND` (lnd's own `invoice.macaroon` lacks `info:read` and `offchain:read`).
   */
  macaroonHex: string;
  /** lnd's `tls.cert`, trusted as the only CA; without it the system CAs must vouch for the node. */
  tlsCertPem?: string;
  fetch?: Fetch;
  /** Deadline of every call except the settle stream and payments. Default 30 s. */
  requestTimeoutMs?: number;
  /** First wait before the settle stream reconnects, doubling up to `maxReconnectDelayMs`. Default 1 s / 60 s. */
  reconnectDelayMs?: number;
  maxReconnectDelayMs?: number;
  /** Hears of every dropped settle stream before the adapter reconnects, so the caller can log it. */
  onStreamError?: (error: LightningBackendError, retryInMs: number) => void;
  /** Hears of what works but not fully at start, e.g. a macaroon that cannot send payouts. */
  onWarning?: (message: string) => void;
  /** Beyond a payment's own `timeout_seconds`, how long lnd may take to report its final state. Default 30 s. */
  paymentGraceMs?: number;
};

/** The macaroon Rayo needs for taking payments and sending payouts. */
export const BAKE_COMMAND = `lncli bakemacaroon ${permissionsFor([...RECEIVING_CALLS, ...PAYOUT_CALLS]).join(' ')}`;

/** `chains[0].network` of `GET /v1/getinfo`; simnet and other chains are not supported. */
const NETWORKS: Record<string, LightningBackend['network']> = {
  mainnet: 'mainnet',
  testnet: 'testnet',
  testnet4: 'testnet',
  signet: 'signet',
  regtest: 'regtest',
};

/** lnrpc.Invoice.InvoiceState as the REST gateway writes it. */
const INVOICE_STATES = new Set<unknown>(['OPEN', 'SETTLED', 'CANCELED', 'ACCEPTED']);
/** Page size when reading lnd's invoice history for settlements older than any cursor. */
const LIST_PAGE_SIZE = 1000;

/** lnd's bytes in a URL: base64url with its padding, which grpc-gateway's `runtime.Bytes` requires. */
function hashForUrl(paymentHash: string): string {
  return `${Buffer.from(checkHash(paymentHash), 'hex').toString('base64url')}=`;
}

/**
 * Refuses, before any call, a macaroon that cannot take payments, naming what it lacks; one that
 * cannot send payouts is only reported. A macaroon this code cannot read is left to lnd to judge.
 */
function checkMacaroon(options: LndBackendOptions): void {
  const granted = macaroonPermissions(options.macaroonHex);
  if (granted === null) return;
  const receiving = callsRefused(granted, RECEIVING_CALLS);
  if (receiving.length > 0) {
    throw new LightningBackendError(
      `The lnd macaroon lacks ${permissionsFor(receiving).join(', ')}, which taking payments needs ` +
        `(${receiving.map((call) => call.name).join(', ')}). Bake one with: ${BAKE_COMMAND}`,
    );
  }
  const payouts = callsRefused(granted, PAYOUT_CALLS);
  if (payouts.length > 0) {
    options.onWarning?.(
      `The lnd macaroon lacks ${permissionsFor(payouts).join(', ')}: Lightning payouts cannot be sent. ` +
        `Bake one with: ${BAKE_COMMAND}`,
    );
  }
}

/**
 * The Lightning backend over lnd's REST gateway (reference/protocols.md §4).
 *
 * Checks the macaroon's permissions and asks `GET /v1/getinfo` for the network before answering,
 * so a wrong URL, certificate or macaroon stops the server at boot instead of at the first payment.
 */
export async function createLndBackend(options: LndBackendOptions): Promise<LightningBackend> {
  if (!/^(?:[0-9a-fA-F]{2})+$/.test(options.macaroonHex)) {
    throw new LightningBackendError('The lnd macaroon must be the hex of the macaroon file bytes');
  }
  checkMacaroon(options);
  const client = createClient(options);
  const info = await client.json(LND_CALLS.getInfo, '/v1/getinfo');
  const chains = info.chains;
  const chainNetwork =
    Array.isArray(chains) && typeof (chains[0] as Json | undefined)?.network === 'string'
      ? ((chains[0] as Json).network as string)
      : undefined;
  const network = chainNetwork === undefined ? undefined : NETWORKS[chainNetwork];
  if (!network) throw new LightningBackendError(`lnd runs on an unsupported network: ${String(chainNetwork)}`);

  const backend: LightningBackend = {
    name: 'lnd',
    network,

    async createInvoice(request): Promise<CreatedInvoice> {
      const { amountMsat, description, expirySeconds } = request;
      if (amountMsat <= 0n) throw new RangeError('An invoice amount must be positive');
      // lnd reads an expiry of 0 as 86400 s, so a zero must never reach it.
      if (!Number.isSafeInteger(expirySeconds) || expirySeconds < 1) {
        throw new RangeError('An invoice expiry must be a whole number of seconds, at least 1');
      }
      // lnd does not answer the creation time; taking it before the call errs towards an earlier expiry.
      const requestedAt = Date.now();
      const answer = await client.json(LND_CALLS.addInvoice, '/v1/invoices', {
        value_msat: amountMsat.toString(),
        // lnd puts `description_hash` in the invoice instead of the memo: LNURL metadata and any
        // text too long for a BOLT11 field go as their hash alone.
        ...(describesByHash(request)
          ? { description_hash: createHash('sha256').update(description, 'utf8').digest('base64') }
          : { memo: description }),
        expiry: String(expirySeconds),
        // Route hints for unannounced channels: without them a node whose channels are all private
        // (common behind an LSP) issues invoices nobody can find a route to.
        private: true,
      });
      return {
        paymentHash: hashFromBase64(answer.r_hash, 'r_hash'),
        paymentRequest: text(answer.payment_request, 'payment_request'),
        expiresAt: new Date(requestedAt + expirySeconds * 1000),
      };
    },

    async lookupInvoice(paymentHash): Promise<InvoiceLookup> {
      const invoice = await client.json(
        LND_CALLS.lookupInvoice,
        `/v2/invoices/lookup?payment_hash=${encodeURIComponent(hashForUrl(paymentHash))}`,
      );
      return toLookup(invoice, Date.now());
    },

    lookupInvoices: (paymentHashes) => lookupInvoicesOneByOne(backend, paymentHashes),

    async subscribeSettlements(afterIndex, onSettlement, signal): Promise<void> {
      let last = afterIndex;
      const delays = new Backoff(options.reconnectDelayMs ?? 1000, options.maxReconnectDelayMs ?? 60_000);
      const deliver = async (settlement: Settlement) => {
        try {
          await onSettlement(settlement);
        } catch (error) {
          throw new HandlerFailure(error);
        }
        last = settlement.settleIndex;
      };
      while (!signal.aborted) {
        let failure: LightningBackendError;
        try {
          // lnd replays nothing for `settle_index=0`, so settlements from before the first cursor are
          // read from the invoice list; any later index makes the stream replay what it missed.
          if (last === 0n) await deliverHistory(client, signal, deliver);
          if (signal.aborted) return;
          const response = await client.stream(
            LND_CALLS.subscribeInvoices,
            `/v1/invoices/subscribe?settle_index=${last}`,
            signal,
          );
          // Connected: whatever failed before has recovered, so the next drop retries quickly again.
          delays.reset();
          for await (const message of jsonLines(response.body ?? emptyBody())) {
            const invoice = streamResult(message, 'settle stream');
            // The stream also carries new and cancelled invoices; only settlements matter here. A
            // state that is none of lnd's is a broken message, not one to pass over.
            if (!INVOICE_STATES.has(invoice.state)) {
              throw new LightningBackendError(`lnd settle stream sent an unknown state: ${String(invoice.state)}`);
            }
            if (invoice.state !== 'SETTLED') continue;
            const settlement = toSettlement(invoice);
            if (settlement.settleIndex > last) await deliver(settlement);
            if (signal.aborted) return;
          }
          failure = new LightningBackendError('lnd closed the settle stream');
        } catch (error) {
          if (error instanceof HandlerFailure) throw error.error;
          if (signal.aborted) return;
          failure =
            error instanceof LightningBackendError
              ? error
              : new LightningBackendError(`lnd settle stream failed: ${describeFailure(error)}`, { cause: error });
        }
        const wait = delays.next();
        options.onStreamError?.(failure, wait);
        if (!(await pause(wait, signal))) return;
      }
    },

    async payInvoice(paymentRequest, { maxFeeMsat, timeoutSeconds }): Promise<PaymentResult> {
      if (maxFeeMsat < 0n) throw new RangeError('A fee limit cannot be negative');
      // lnd reads 0 as 60 s; the caller's limit must be explicit.
      if (!Number.isSafeInteger(timeoutSeconds) || timeoutSeconds < 1) {
        throw new RangeError('A payment timeout must be a whole number of seconds, at least 1');
      }
      const response = await client.send(
        LND_CALLS.sendPayment,
        '/v2/router/send',
        { payment_request: paymentRequest, fee_limit_msat: maxFeeMsat.toString(), timeout_seconds: timeoutSeconds },
        deadline(timeoutSeconds * 1000 + (options.paymentGraceMs ?? 30_000)),
      );
      try {
        for await (const message of jsonLines(response.body ?? emptyBody())) {
          const payment = streamResult(message, 'payment');
          if (payment.status === 'SUCCEEDED') return toPaymentResult(payment);
          if (payment.status === 'FAILED') {
            throw new LightningBackendError(`lnd could not pay the invoice: ${String(payment.failure_reason)}`);
          }
        }
      } catch (error) {
        if (error instanceof LightningBackendError) throw error;
        throw new LightningBackendError(
          `lnd payment stream broke before a final state, so the payment may still be in flight: ${describeFailure(error)}`,
          { cause: error },
        );
      }
      throw new LightningBackendError(
        'lnd closed the payment stream before a final state, so the payment may still be in flight',
      );
    },

    async lookupPayment(paymentHash): Promise<PaymentLookup> {
      const controller = new AbortController();
      let response: FetchResponse;
      try {
        response = await client.send(
          LND_CALLS.trackPayment,
          `/v2/router/track/${hashForUrl(paymentHash)}?no_inflight_updates=false`,
          undefined,
          deadline(options.requestTimeoutMs ?? 30_000, controller.signal),
        );
      } catch (error) {
        // lnd's ErrPaymentNotInitiated: it has never been asked to pay this hash.
        if (error instanceof LightningBackendError && /isn.t initiated|not initiated/i.test(error.message)) {
          return { state: 'unknown' };
        }
        throw error;
      }
      try {
        // The first update is the payment's state now; later ones are not waited for.
        for await (const message of jsonLines(response.body ?? emptyBody())) {
          const payment = streamResult(message, 'payment tracking');
          if (payment.status === 'SUCCEEDED') {
            const { preimage, feeMsat } = toPaymentResult(payment);
            return { state: 'succeeded', preimage, feeMsat };
          }
          if (payment.status === 'FAILED') return { state: 'failed' };
          if (payment.status === 'IN_FLIGHT' || payment.status === 'INITIATED') return { state: 'in_flight' };
          throw new LightningBackendError(`lnd tracked a payment in an unknown status: ${String(payment.status)}`);
        }
      } catch (error) {
        if (error instanceof LightningBackendError) throw error;
        throw new LightningBackendError(`lnd payment tracking broke: ${describeFailure(error)}`, { cause: error });
      } finally {
        controller.abort();
      }
      throw new LightningBackendError('lnd closed the payment tracking stream without a state');
    },

    async decodeInvoice(paymentRequest): Promise<DecodedInvoice> {
      const payReq = await client.json(LND_CALLS.decodePayReq, `/v1/payreq/${encodeURIComponent(paymentRequest)}`);
      const amountMsat = int64(payReq.num_msat, 'num_msat');
      const description =
        typeof payReq.description === 'string' && payReq.description !== '' ? payReq.description : null;
      const expiresAtSeconds = int64(payReq.timestamp, 'timestamp') + int64(payReq.expiry, 'expiry');
      return {
        paymentHash: checkHash(text(payReq.payment_hash, 'payment_hash')),
        amountMsat: amountMsat === 0n ? null : amountMsat,
        description,
        expiresAt: new Date(Number(expiresAtSeconds) * 1000),
        payee: text(payReq.destination, 'destination'),
      };
    },
  };
  return backend;
}

type LndClient = {
  /** A call answered with one JSON object, within the request deadline or until `signal` aborts. */
  json(call: LndCall, path: string, body?: Json, signal?: AbortSignal): Promise<Json>;
  /** A call whose 2xx response is handed over unread, for the streaming endpoints. */
  send(call: LndCall, path: string, body: Json | undefined, signal: AbortSignal): Promise<FetchResponse>;
  /**
   * A stream that may stay silent for hours once open (the settle stream): only its opening has
   * the request deadline, so a node that accepts the connection and never answers is retried.
   */
  stream(call: LndCall, path: string, signal: AbortSignal): Promise<FetchResponse>;
};

type FetchResponse = Awaited<ReturnType<Fetch>>;

function createClient(options: LndBackendOptions): LndClient {
  const base = new URL(options.restUrl);
  const fetch = options.fetch ?? undiciFetch;
  const dispatcher = createDispatcher(options.tlsCertPem);
  const requestTimeoutMs = options.requestTimeoutMs ?? 30_000;

  async function send(
    call: LndCall,
    path: string,
    body: Json | undefined,
    signal: AbortSignal,
  ): Promise<FetchResponse> {
    const label = call.name;
    let response: FetchResponse;
    try {
      response = await fetch(new URL(path, base), {
        method: call.name.startsWith('POST') ? 'POST' : 'GET',
        headers: {
          'Grpc-Metadata-macaroon': options.macaroonHex,
          ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        },
        body: body === undefined ? undefined : JSON.stringify(body),
        signal,
        dispatcher,
      });
    } catch (error) {
      if (signal.aborted && !(signal.reason instanceof DOMException && signal.reason.name === 'TimeoutError')) {
        throw error;
      }
      throw new LightningBackendError(`lnd ${label}: no answer from ${base.origin}: ${describeFailure(error)}`, {
        cause: error,
      });
    }
    if (response.ok) return response;
    const message = errorMessage(await readText(response.body).catch(() => ''));
    // lnd names no permission when it refuses one (macaroons/service.go: bakery's "permission denied").
    const missing =
      message === 'permission denied' ? `: the macaroon lacks ${call.permission}. Bake one with: ${BAKE_COMMAND}` : '';
    throw new LightningBackendError(`lnd ${label} answered HTTP ${response.status}: ${message}${missing}`);
  }

  return {
    send,
    async stream(call, path, signal) {
      const opening = new AbortController();
      const timer = setTimeout(
        () => opening.abort(new DOMException('no answer before the deadline', 'TimeoutError')),
        requestTimeoutMs,
      );
      try {
        return await send(call, path, undefined, AbortSignal.any([signal, opening.signal]));
      } finally {
        clearTimeout(timer);
      }
    },
    async json(call, path, body, signal) {
      const timeout = deadline(requestTimeoutMs, signal);
      const response = await send(call, path, body, timeout);
      let answer: unknown;
      try {
        answer = JSON.parse(await readText(response.body));
      } catch (error) {
        if (signal?.aborted) throw error;
        throw new LightningBackendError(`lnd ${call.name} gave an unreadable answer: ${describeFailure(error)}`, {
          cause: error,
        });
      }
      if (typeof answer !== 'object' || answer === null || Array.isArray(answer)) {
        throw new LightningBackendError(`lnd ${call.name} answered something other than an object`);
      }
      return answer as Json;
    },
  };
}

/** Delivers every settled invoice of lnd's history, oldest settle first. */
async function deliverHistory(
  client: LndClient,
  signal: AbortSignal,
  deliver: (settlement: Settlement) => Promise<void>,
): Promise<void> {
  const settled: Settlement[] = [];
  let offset = '0';
  for (;;) {
    const page = await client.json(
      LND_CALLS.listInvoices,
      `/v1/invoices?index_offset=${offset}&num_max_invoices=${LIST_PAGE_SIZE}`,
      undefined,
      signal,
    );
    // A page that is not a list would end the history early and lose the settlements after it.
    if (!Array.isArray(page.invoices)) throw new LightningBackendError('lnd GET /v1/invoices answered without a list');
    const invoices = page.invoices as Json[];
    if (invoices.length === 0) break;
    for (const invoice of invoices) if (invoice.state === 'SETTLED') settled.push(toSettlement(invoice));
    const next = int64(page.last_index_offset, 'last_index_offset').toString();
    if (next === offset) break;
    offset = next;
  }
  settled.sort((a, b) => (a.settleIndex < b.settleIndex ? -1 : a.settleIndex > b.settleIndex ? 1 : 0));
  for (const settlement of settled) {
    if (signal.aborted) return;
    await deliver(settlement);
  }
}

async function* emptyBody(): AsyncGenerator<Uint8Array> {}
