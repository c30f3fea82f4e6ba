import { randomBytes } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import https from 'node:https';
import type { AddressInfo } from 'node:net';
import { type Fault, spoil } from './faults.ts';
import { fakeNodeId, fakePaymentRequest, newPreimage } from './lightning.ts';
import { BAKED_MACAROON, createBakery, type GrpcStatus, gatewayBytes, grpcStatus } from './lnd-gateway.ts';
import { selfSignedCertificate } from './tls.ts';

/**
 * A local lnd REST gateway for tests (reference/protocols.md §4): HTTPS with its own self-signed
 * certificate, macaroons checked per call for the permission lnd requires, int64 as JSON strings,
 * bytes as base64 (padded, as grpc-gateway decodes them), and newline-delimited `{"result": …}`
 * streams for invoice subscriptions and router payments.
 */

/** Every route the stand-in serves, with its RPC and the permission lnd requires for it. */
type Route = { method: 'GET' | 'POST'; path: string; prefix?: true; uri: string; permission: string };

const ROUTES: Route[] = [
  // lnd rpcserver.go MainRPCServerPermissions.
  { method: 'GET', path: '/v1/getinfo', uri: '/lnrpc.Lightning/GetInfo', permission: 'info:read' },
  { method: 'POST', path: '/v1/invoices', uri: '/lnrpc.Lightning/AddInvoice', permission: 'invoices:write' },
  { method: 'GET', path: '/v1/invoices', uri: '/lnrpc.Lightning/ListInvoices', permission: 'invoices:read' },
  {
    method: 'GET',
    path: '/v1/invoices/subscribe',
    uri: '/lnrpc.Lightning/SubscribeInvoices',
    permission: 'invoices:read',
  },
  {
    method: 'GET',
    path: '/v1/payreq/',
    prefix: true,
    uri: '/lnrpc.Lightning/DecodePayReq',
    permission: 'offchain:read',
  },
  // lnrpc/invoicesrpc/invoices_server.go macPermissions: looking up asks for write.
  {
    method: 'GET',
    path: '/v2/invoices/lookup',
    uri: '/invoicesrpc.Invoices/LookupInvoiceV2',
    permission: 'invoices:write',
  },
  // lnrpc/routerrpc/router_server.go macPermissions.
  { method: 'POST', path: '/v2/router/send', uri: '/routerrpc.Router/SendPaymentV2', permission: 'offchain:write' },
  {
    method: 'GET',
    path: '/v2/router/track/',
    prefix: true,
    uri: '/routerrpc.Router/TrackPaymentV2',
    permission: 'offchain:read',
  },
];

function findRoute(method: string | undefined, pathname: string): Route | undefined {
  return ROUTES.find(
    (route) => route.method === method && (route.prefix ? pathname.startsWith(route.path) : pathname === route.path),
  );
}

type InvoiceState = 'OPEN' | 'SETTLED' | 'CANCELED' | 'ACCEPTED';

type Invoice = {
  memo: string;
  preimage: Buffer;
  paymentHash: Buffer;
  valueMsat: bigint;
  creationDate: number;
  settleDate: number;
  paymentRequest: string;
  expiry: number;
  addIndex: bigint;
  settleIndex: bigint;
  amtPaidMsat: bigint;
  state: InvoiceState;
  paymentAddr: Buffer;
  private: boolean;
};

/** Someone else's invoice, which this node can decode and try to pay. */
export type RemoteInvoice = {
  paymentRequest: string;
  paymentHash: string;
  preimage: string;
  amountMsat: bigint | null;
  description: string;
  destination: string;
  timestamp: number;
  expiry: number;
  /** Routing fee the only route to the payee costs; a lower fee limit fails with NO_ROUTE. */
  routeFeeMsat: bigint;
  /** A failure reason to end every attempt with, e.g. `FAILURE_REASON_INSUFFICIENT_BALANCE`. */
  failWith: string | null;
  paid: boolean;
  /** A payment of it has started and not ended: lnd refuses a second one ("payment is in transition"). */
  inFlight: boolean;
  /** How long a payment stays IN_FLIGHT before its final state. */
  payDelayMs: number;
  /** A payment stays IN_FLIGHT until `releasePayment`, however long that takes. */
  held: boolean;
  /** Ends the held payment under way. */
  release: (() => void) | null;
  /** Every payment lnd ended with SUCCEEDED; more than one would be a double payment. */
  successes: number;
  /** The last payment's final message, for tracking. */
  final: Record<string, unknown> | null;
  cutStream: boolean;
};

export type RecordedRequest = { method: string; path: string; query: URLSearchParams; body: unknown };

export type FakeLnd = {
  url: string;
  /** The server's certificate, to trust as the CA. */
  certPem: string;
  /** A macaroon baked with the permissions of `lncli bakemacaroon` in docs/lightning.md. */
  macaroonHex: string;
  /** `lncli bakemacaroon <permissions>` on this node: the hex of a macaroon granting them. */
  bake(permissions: readonly string[]): string;
  /** The next `times` answers to `route` (`GET /v2/router/track`, a prefix of the path) go wrong. */
  fail(route: string, fault: Fault, times?: number): void;
  requests: RecordedRequest[];
  /** The `settle_index` query of every subscription, in order of arrival. */
  subscriptions: bigint[];
  /** Pays one of this node's invoices, as a remote payer would; returns the new settle index. */
  settle(paymentHashHex: string, amountPaidMsat?: bigint): bigint;
  cancel(paymentHashHex: string): void;
  /** What lnd's expiry watcher does: the invoice's time runs out and it becomes CANCELED. */
  expire(paymentHashHex: string): void;
  addRemoteInvoice(input: {
    amountMsat: bigint | null;
    description?: string;
    routeFeeMsat?: bigint;
    failWith?: string;
    /** A real invoice someone else signed, with its preimage, instead of a made-up one. */
    signed?: { paymentRequest: string; paymentHash: string; preimage: string; destination: string };
    payDelayMs?: number;
    held?: boolean;
    /** Cuts the payer's stream after IN_FLIGHT, as a dropped connection would; the payment still ends. */
    cutStream?: boolean;
  }): RemoteInvoice;
  remoteInvoices(): readonly RemoteInvoice[];
  /** Ends the held payment of a remote invoice (`held` above) with its final state. */
  releasePayment(paymentHashHex: string): void;
  /** Cuts every open subscription without a clean end, as a crashed node or network would. */
  dropSubscriptions(): number;
  /** Resolves once `count` subscriptions have been opened in total. */
  waitForSubscriptions(count: number): Promise<void>;
  openSubscriptions(): number;
  close(): Promise<void>;
};

function b64(bytes: Buffer): string {
  return bytes.toString('base64');
}

function nowSeconds(): number {
  return Math.floor(Date.now() / 1000);
}

function invoiceJson(invoice: Invoice): Record<string, unknown> {
  return {
    memo: invoice.memo,
    r_preimage: b64(invoice.preimage),
    r_hash: b64(invoice.paymentHash),
    value: String(invoice.valueMsat / 1000n),
    value_msat: String(invoice.valueMsat),
    settled: invoice.state === 'SETTLED',
    creation_date: String(invoice.creationDate),
    settle_date: String(invoice.settleDate),
    payment_request: invoice.paymentRequest,
    description_hash: '',
    expiry: String(invoice.expiry),
    fallback_addr: '',
    cltv_expiry: '80',
    route_hints: [],
    private: invoice.private,
    add_index: String(invoice.addIndex),
    settle_index: String(invoice.settleIndex),
    amt_paid: String(invoice.amtPaidMsat),
    amt_paid_sat: String(invoice.amtPaidMsat / 1000n),
    amt_paid_msat: String(invoice.amtPaidMsat),
    state: invoice.state,
    htlcs: [],
    features: {},
    is_keysend: false,
    payment_addr: b64(invoice.paymentAddr),
    is_amp: false,
    amp_invoice_state: {},
  };
}

/** protojson accepts int64 as a JSON string or number. */
function readInt64(value: unknown): bigint | null {
  if (value === undefined) return 0n;
  if (typeof value === 'string' && /^-?\d+$/.test(value)) return BigInt(value);
  if (typeof value === 'number' && Number.isSafeInteger(value)) return BigInt(value);
  return null;
}

export async function startFakeLnd(options: { network?: string } = {}): Promise<FakeLnd> {
  const { key, cert } = await selfSignedCertificate();
  const bakery = createBakery();
  const macaroonHex = bakery.bake(BAKED_MACAROON);
  const faults: Array<{ route: string; fault: Fault }> = [];
  const spoiled = new WeakMap<ServerResponse, Fault>();
  const unanswered = new Set<ServerResponse>();
  const identityPubkey = fakeNodeId();
  const invoices: Invoice[] = [];
  const remote: RemoteInvoice[] = [];
  const subscribers = new Set<ServerResponse>();
  const requests: RecordedRequest[] = [];
  const subscriptions: bigint[] = [];
  const subscriptionWaiters: Array<{ count: number; resolve: () => void }> = [];
  let lastAddIndex = 0n;
  let lastSettleIndex = 0n;
  let paymentIndex = 0n;

  const findInvoice = (hashHex: string) => invoices.find((invoice) => invoice.paymentHash.toString('hex') === hashHex);

  function mustFind(hashHex: string): Invoice {
    const invoice = findInvoice(hashHex);
    if (!invoice) throw new Error(`fake lnd has no invoice ${hashHex}`);
    return invoice;
  }

  /** One message of a stream; the first after a fault was set for it comes out spoiled. */
  function streamLine(response: ServerResponse, message: unknown): string {
    const fault = spoiled.get(response);
    spoiled.delete(response);
    return `${spoil(JSON.stringify(message), fault)}\n`;
  }

  function publish(invoice: Invoice) {
    for (const subscriber of subscribers) subscriber.write(streamLine(subscriber, { result: invoiceJson(invoice) }));
  }

  function send(response: ServerResponse, status: number, body: unknown) {
    const fault = spoiled.get(response);
    response.writeHead(status, { 'content-type': 'application/json' });
    response.end(spoil(JSON.stringify(body), status === 200 ? fault : undefined));
  }

  /**
   * grpc-gateway's error before any message, unary and streaming calls alike (runtime/errors.go
   * DefaultHTTPErrorHandler; a stream's first error arrives through `stream.Header()` in the
   * generated *.pb.gw.go): the HTTP status of the gRPC code and a `google.rpc.Status` body.
   */
  function fail(response: ServerResponse, status: GrpcStatus) {
    send(response, status.httpStatus, { code: status.code, message: status.message, details: [] });
  }

  function grpcError(response: ServerResponse, httpStatus: number, code: number, message: string) {
    send(response, httpStatus, { code, message, details: [] });
  }

  function paymentJson(target: RemoteInvoice, status: string, extra: Record<string, unknown>) {
    const valueMsat = target.amountMsat ?? 0n;
    return {
      payment_hash: target.paymentHash,
      value: String(valueMsat / 1000n),
      creation_date: String(nowSeconds()),
      fee: '0',
      payment_preimage: '0'.repeat(64),
      value_sat: String(valueMsat / 1000n),
      value_msat: String(valueMsat),
      payment_request: target.paymentRequest,
      status,
      fee_sat: '0',
      fee_msat: '0',
      creation_time_ns: String(BigInt(Date.now()) * 1_000_000n),
      htlcs: [],
      payment_index: String(paymentIndex),
      failure_reason: 'FAILURE_REASON_NONE',
      ...extra,
    };
  }

  function routerSend(response: ServerResponse, body: Record<string, unknown>) {
    const target = remote.find((invoice) => invoice.paymentRequest === body.payment_request);
    const feeLimit = readInt64(body.fee_limit_msat);
    if (!target || feeLimit === null || typeof body.timeout_seconds !== 'number') {
      fail(response, grpcStatus(2, 'invalid payment request or parameters'));
      return;
    }
    // router_server.go SendPaymentV2: ErrAlreadyPaid and ErrPaymentInFlight as codes.AlreadyExists.
    if (target.paid) {
      fail(response, grpcStatus(6, 'invoice is already paid'));
      return;
    }
    if (target.inFlight) {
      fail(response, grpcStatus(6, 'payment is in transition'));
      return;
    }
    target.inFlight = true;
    paymentIndex += 1n;
    response.writeHead(200, { 'content-type': 'application/json' });
    response.write(streamLine(response, { result: paymentJson(target, 'IN_FLIGHT', {}) }));
    if (target.cutStream) setTimeout(() => response.socket?.destroy(), 5);
    const end = () => {
      target.inFlight = false;
      let final: Record<string, unknown>;
      if (target.failWith !== null) {
        final = paymentJson(target, 'FAILED', { failure_reason: target.failWith });
      } else if (target.routeFeeMsat > feeLimit) {
        final = paymentJson(target, 'FAILED', { failure_reason: 'FAILURE_REASON_NO_ROUTE' });
      } else {
        target.paid = true;
        target.successes += 1;
        final = paymentJson(target, 'SUCCEEDED', {
          payment_preimage: target.preimage,
          fee: String(target.routeFeeMsat / 1000n),
          fee_sat: String(target.routeFeeMsat / 1000n),
          fee_msat: String(target.routeFeeMsat),
        });
      }
      target.final = final;
      // The payment ends whether or not the payer is still connected, as at a real node.
      if (!response.destroyed) response.end(streamLine(response, { result: final }));
    };
    if (target.held) target.release = end;
    else setTimeout(end, target.payDelayMs);
  }

  /** TrackPaymentV2: the payment's state now, as the first message of a stream. */
  function track(response: ServerResponse, hashParam: string) {
    // router.pb.gw.go: the path's payment_hash goes through runtime.Bytes.
    const hash = gatewayBytes(hashParam);
    if (!Buffer.isBuffer(hash)) {
      fail(response, grpcStatus(3, `type mismatch, parameter: payment_hash, error: ${hash.error}`));
      return;
    }
    // lntypes.MakeHash in router_server.go TrackPaymentV2, an unknown gRPC error.
    if (hash.length !== 32) {
      fail(response, grpcStatus(2, `invalid hash length of ${hash.length}, want 32`));
      return;
    }
    const target = remote.find((invoice) => invoice.paymentHash === hash.toString('hex'));
    // router_server.go subscribePayment: ErrPaymentNotInitiated as codes.NotFound.
    if (!target || (!target.inFlight && target.final === null)) {
      fail(response, grpcStatus(5, "payment isn't initiated"));
      return;
    }
    const message = target.inFlight ? paymentJson(target, 'IN_FLIGHT', {}) : target.final;
    response.writeHead(200, { 'content-type': 'application/json' });
    response.write(streamLine(response, { result: message }));
    if (!target.inFlight) response.end();
  }

  function subscribe(response: ServerResponse, query: URLSearchParams) {
    const settleIndex = readInt64(query.get('settle_index') ?? undefined) ?? 0n;
    const addIndex = readInt64(query.get('add_index') ?? undefined) ?? 0n;
    subscriptions.push(settleIndex);
    response.writeHead(200, { 'content-type': 'application/json', 'transfer-encoding': 'chunked' });
    response.flushHeaders();
    // Non-zero indexes first replay what the client missed, oldest first; zero means live only.
    if (addIndex > 0n) {
      for (const invoice of invoices.filter((i) => i.addIndex > addIndex)) {
        response.write(streamLine(response, { result: invoiceJson(invoice) }));
      }
    }
    if (settleIndex > 0n) {
      const missed = invoices
        .filter((i) => i.state === 'SETTLED' && i.settleIndex > settleIndex)
        .sort((a, b) => Number(a.settleIndex - b.settleIndex));
      for (const invoice of missed) response.write(streamLine(response, { result: invoiceJson(invoice) }));
    }
    subscribers.add(response);
    response.on('close', () => subscribers.delete(response));
    for (const waiter of subscriptionWaiters.filter((w) => subscriptions.length >= w.count)) {
      subscriptionWaiters.splice(subscriptionWaiters.indexOf(waiter), 1);
      waiter.resolve();
    }
  }

  function listInvoices(response: ServerResponse, query: URLSearchParams) {
    const offset = readInt64(query.get('index_offset') ?? undefined) ?? 0n;
    const max = Number(readInt64(query.get('num_max_invoices') ?? undefined) ?? 0n) || 100;
    const page = invoices.filter((invoice) => invoice.addIndex > offset).slice(0, max);
    send(response, 200, {
      invoices: page.map(invoiceJson),
      last_index_offset: String(page.at(-1)?.addIndex ?? 0n),
      first_index_offset: String(page[0]?.addIndex ?? 0n),
    });
  }

  function addInvoice(response: ServerResponse, body: Record<string, unknown>) {
    const valueMsat = body.value_msat !== undefined ? readInt64(body.value_msat) : readInt64(body.value);
    const expiry = readInt64(body.expiry);
    if (valueMsat === null || expiry === null || valueMsat < 0n || expiry < 0n) {
      grpcError(response, 400, 3, 'invalid value or expiry');
      return;
    }
    const msat = body.value_msat !== undefined ? valueMsat : valueMsat * 1000n;
    const memo = typeof body.memo === 'string' ? body.memo : '';
    // zpay32/encode.go writeTaggedField: a field's length is 10 bits, at most 1023 five-bit words.
    const memoWords = Math.ceil((Buffer.byteLength(memo) * 8) / 5);
    if (memoWords > 1023) {
      grpcError(response, 500, 2, `data length too big to fit within 10 bits: ${memoWords}`);
      return;
    }
    const { preimage, paymentHash } = newPreimage();
    lastAddIndex += 1n;
    const invoice: Invoice = {
      memo,
      preimage,
      paymentHash,
      valueMsat: msat,
      creationDate: nowSeconds(),
      settleDate: 0,
      paymentRequest: fakePaymentRequest(msat === 0n ? null : msat),
      expiry: expiry === 0n ? 86400 : Number(expiry),
      addIndex: lastAddIndex,
      settleIndex: 0n,
      amtPaidMsat: 0n,
      state: 'OPEN',
      paymentAddr: randomBytes(32),
      private: body.private === true,
    };
    invoices.push(invoice);
    publish(invoice);
    send(response, 200, {
      r_hash: b64(paymentHash),
      payment_request: invoice.paymentRequest,
      add_index: String(invoice.addIndex),
      payment_addr: b64(invoice.paymentAddr),
    });
  }

  function decodePayReq(response: ServerResponse, payReq: string) {
    const own = invoices.find((invoice) => invoice.paymentRequest === payReq);
    const other = remote.find((invoice) => invoice.paymentRequest === payReq);
    if (!own && !other) {
      grpcError(response, 500, 2, 'invoice not for current active network or invalid checksum');
      return;
    }
    const amountMsat = own ? own.valueMsat : (other?.amountMsat ?? 0n);
    send(response, 200, {
      destination: own ? identityPubkey : other?.destination,
      payment_hash: own ? own.paymentHash.toString('hex') : other?.paymentHash,
      num_satoshis: String(amountMsat / 1000n),
      timestamp: String(own ? own.creationDate : other?.timestamp),
      expiry: String(own ? own.expiry : other?.expiry),
      description: own ? own.memo : other?.description,
      description_hash: '',
      fallback_addr: '',
      cltv_expiry: '80',
      route_hints: [],
      payment_addr: b64(randomBytes(32)),
      num_msat: String(amountMsat),
      features: {},
    });
  }

  async function handle(request: IncomingMessage, response: ServerResponse) {
    const url = new URL(request.url ?? '/', 'https://fake-lnd');
    const chunks: Buffer[] = [];
    for await (const chunk of request) chunks.push(chunk as Buffer);
    const raw = Buffer.concat(chunks).toString('utf8');
    let body: unknown = {};
    if (raw !== '') {
      try {
        body = JSON.parse(raw);
      } catch {
        grpcError(response, 400, 3, 'invalid JSON body');
        return;
      }
    }
    requests.push({ method: request.method ?? '', path: url.pathname, query: url.searchParams, body });

    const served = findRoute(request.method, url.pathname);
    // grpc-gateway runtime/mux.go ServeHTTP: no pattern matches.
    if (!served) {
      grpcError(response, 404, 5, 'Not Found');
      return;
    }
    const header = request.headers['grpc-metadata-macaroon'];
    const refused = bakery.check(Array.isArray(header) ? header[0] : header, served.permission, served.uri);
    if (refused) {
      fail(response, refused);
      return;
    }
    const routeName = `${request.method} ${url.pathname}`;
    const faultIndex = faults.findIndex((entry) => routeName.startsWith(entry.route));
    if (faultIndex !== -1) {
      const fault = faults.splice(faultIndex, 1)[0]?.fault;
      if (fault === 'silent') {
        unanswered.add(response);
        return;
      }
      if (fault) spoiled.set(response, fault);
    }

    const route = routeName;
    const fields = body as Record<string, unknown>;
    if (route === 'GET /v1/getinfo') {
      send(response, 200, {
        version: '0.19.0-beta commit=fake',
        commit_hash: '',
        identity_pubkey: identityPubkey,
        alias: 'fake-lnd',
        color: '#3399ff',
        num_pending_channels: 0,
        num_active_channels: 1,
        num_inactive_channels: 0,
        num_peers: 1,
        block_height: 800,
        block_hash: randomBytes(32).toString('hex'),
        best_header_timestamp: String(nowSeconds()),
        synced_to_chain: true,
        synced_to_graph: true,
        testnet: false,
        chains: [{ chain: 'bitcoin', network: options.network ?? 'regtest' }],
        uris: [],
        features: {},
        require_htlc_interceptor: false,
        store_final_htlc_resolutions: false,
      });
    } else if (route === 'POST /v1/invoices') {
      addInvoice(response, fields);
    } else if (route === 'GET /v1/invoices') {
      listInvoices(response, url.searchParams);
    } else if (route === 'GET /v1/invoices/subscribe') {
      subscribe(response, url.searchParams);
    } else if (route === 'GET /v2/invoices/lookup') {
      // Go's query parsing turns an unescaped `+` into a space; the value then goes through
      // runtime.Bytes (grpc-gateway runtime/query.go parseField), so unpadded base64 is refused.
      const hash = gatewayBytes(url.searchParams.get('payment_hash') ?? '');
      if (!Buffer.isBuffer(hash)) {
        grpcError(response, 400, 3, `parsing field "payment_hash": ${hash.error}`);
        return;
      }
      if (hash.length !== 32) {
        grpcError(response, 500, 2, `invalid hash length of ${hash.length}, want 32`);
        return;
      }
      const invoice = findInvoice(hash.toString('hex'));
      if (invoice) send(response, 200, invoiceJson(invoice));
      // invoicesrpc/invoices_server.go LookupInvoiceV2 maps only ErrInvoiceNotFound ("unable to
      // locate invoice", invoices/errors.go) to NotFound; a kvdb node that never made an invoice
      // answers ErrNoInvoicesCreated, which leaves as Unknown.
      else if (invoices.length > 0) grpcError(response, 404, 5, 'unable to locate invoice');
      else grpcError(response, 500, 2, 'there are no existing invoices');
    } else if (request.method === 'GET' && url.pathname.startsWith('/v1/payreq/')) {
      decodePayReq(response, decodeURIComponent(url.pathname.slice('/v1/payreq/'.length)));
    } else if (route === 'POST /v2/router/send') {
      routerSend(response, fields);
    } else if (request.method === 'GET' && url.pathname.startsWith('/v2/router/track/')) {
      track(response, decodeURIComponent(url.pathname.slice('/v2/router/track/'.length)));
    }
  }

  const server = https.createServer({ key, cert }, (request, response) => {
    handle(request, response).catch((error: unknown) => {
      if (!response.headersSent) grpcError(response, 500, 2, String(error));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;

  return {
    url: `https://127.0.0.1:${port}`,
    certPem: cert,
    macaroonHex,
    bake: (permissions) => bakery.bake(permissions),
    fail(route, fault, times = 1) {
      for (let i = 0; i < times; i += 1) faults.push({ route, fault });
    },
    requests,
    subscriptions,
    settle(paymentHashHex, amountPaidMsat) {
      const invoice = mustFind(paymentHashHex);
      if (invoice.state === 'SETTLED' || invoice.state === 'CANCELED') {
        throw new Error(`fake lnd cannot settle a ${invoice.state} invoice`);
      }
      lastSettleIndex += 1n;
      invoice.state = 'SETTLED';
      invoice.settleIndex = lastSettleIndex;
      invoice.settleDate = nowSeconds();
      invoice.amtPaidMsat = amountPaidMsat ?? invoice.valueMsat;
      publish(invoice);
      return invoice.settleIndex;
    },
    cancel(paymentHashHex) {
      const invoice = mustFind(paymentHashHex);
      invoice.state = 'CANCELED';
      publish(invoice);
    },
    expire(paymentHashHex) {
      const invoice = mustFind(paymentHashHex);
      invoice.creationDate = nowSeconds() - invoice.expiry - 1;
      invoice.state = 'CANCELED';
      publish(invoice);
    },
    addRemoteInvoice(input) {
      const { preimage, paymentHash } = newPreimage();
      const invoice: RemoteInvoice = {
        paymentRequest: input.signed?.paymentRequest ?? fakePaymentRequest(input.amountMsat),
        paymentHash: input.signed?.paymentHash ?? paymentHash.toString('hex'),
        preimage: input.signed?.preimage ?? preimage.toString('hex'),
        amountMsat: input.amountMsat,
        description: input.description ?? '',
        destination: input.signed?.destination ?? fakeNodeId(),
        timestamp: nowSeconds(),
        expiry: 3600,
        routeFeeMsat: input.routeFeeMsat ?? 0n,
        failWith: input.failWith ?? null,
        paid: false,
        inFlight: false,
        payDelayMs: input.payDelayMs ?? 10,
        held: input.held ?? false,
        release: null,
        successes: 0,
        final: null,
        cutStream: input.cutStream ?? false,
      };
      remote.push(invoice);
      return invoice;
    },
    remoteInvoices: () => remote,
    releasePayment(paymentHashHex) {
      const target = remote.find((invoice) => invoice.paymentHash === paymentHashHex);
      const release = target?.release;
      if (!target || !release) throw new Error(`no held payment of ${paymentHashHex}`);
      target.release = null;
      release();
    },
    dropSubscriptions() {
      const count = subscribers.size;
      for (const subscriber of subscribers) subscriber.socket?.destroy();
      subscribers.clear();
      return count;
    },
    waitForSubscriptions(count) {
      if (subscriptions.length >= count) return Promise.resolve();
      return new Promise((resolve) => subscriptionWaiters.push({ count, resolve }));
    },
    openSubscriptions: () => subscribers.size,
    async close() {
      for (const subscriber of subscribers) subscriber.socket?.destroy();
      for (const response of unanswered) response.socket?.destroy();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
