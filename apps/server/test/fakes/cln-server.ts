import { createHash, randomBytes } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import https from 'node:https';
import type { AddressInfo } from 'node:net';
import { createRuneMaster } from './cln-runes.ts';
import { type Fault, spoil } from './faults.ts';
import { fakeNodeId, fakePaymentRequest, newPreimage } from './lightning.ts';
import { caAndServerCertificate } from './tls.ts';

/**
 * A local Core Lightning clnrest for tests (reference/protocols.md §5): HTTPS with a certificate
 * signed by its own `ca.pem`, the `Rune` header checked against the rune's restrictions per call,
 * `POST /v1/<method>` with JSON params, 201 with the RPC result, 401/403 for rune problems and
 * 500 `{code, message}` for RPC errors. msat amounts are bare JSON integers, exact beyond 2^53.
 */

/** The methods of the rune docs/lightning.md has operators create: every call Rayo makes. */
export const RAYO_RUNE_METHODS = ['getinfo', 'invoice', 'listinvoices', 'waitanyinvoice', 'decode', 'pay', 'listpays'];

type Status = 'unpaid' | 'paid' | 'expired';

type Invoice = {
  label: string;
  description: string;
  paymentHash: string;
  preimage: string;
  bolt11: string;
  amountMsat: bigint;
  createdAt: number;
  expiresAt: number;
  createdIndex: number;
  status: Status;
  payIndex: bigint | null;
  amountReceivedMsat: bigint | null;
  paidAt: number | null;
};

/** Someone else's invoice, which this node can decode and try to pay. */
export type ClnRemoteInvoice = {
  bolt11: string;
  paymentHash: string;
  preimage: string;
  amountMsat: bigint | null;
  description: string;
  /** Set when the invoice carries only the hash of `description` (BOLT11 `h`), as LNURL-pay's do. */
  hashedDescription: boolean;
  payee: string;
  createdAt: number;
  expiry: number;
  /** What the route costs; a lower `maxfee` fails the payment. */
  routeFeeMsat: bigint;
  /** An RPC error to fail every attempt with instead. */
  failWith: { code: number; message: string } | null;
  /** What `decode` says of the signature. */
  valid: boolean;
};

type Waiter = { lastpayIndex: bigint; response: ServerResponse; timer: NodeJS.Timeout | undefined };

export type RecordedCall = { method: string; params: Record<string, unknown>; rawBody: string };

export type FakeCln = {
  url: string;
  /** The CA that signed the server's certificate: clnrest's `ca.pem`. */
  caPem: string;
  /** A rune allowing `RAYO_RUNE_METHODS` and nothing else. */
  rune: string;
  /** `createrune restrictions=…` on this node. */
  createRune(restrictions: readonly (readonly string[])[]): string;
  /** The next `times` answers to `method` go wrong. */
  fail(method: string, fault: Fault, times?: number): void;
  calls: RecordedCall[];
  /** Pays one of this node's invoices; returns its new pay_index. */
  settle(paymentHash: string, amountReceivedMsat?: bigint): bigint;
  /** Lets the invoice's time run out; the long polls waiting at that moment hear of it. */
  expire(paymentHash: string): void;
  addRemoteInvoice(input: {
    amountMsat: bigint | null;
    description?: string;
    /** The invoice commits to the description's SHA-256 only; `pay` then requires the text. */
    hashDescription?: boolean;
    /** A real invoice someone else signed, with its preimage, instead of a made-up one. */
    signed?: { paymentRequest: string; paymentHash: string; preimage: string; destination: string };
    routeFeeMsat?: bigint;
    failWith?: { code: number; message: string };
    valid?: boolean;
  }): ClnRemoteInvoice;
  /** Cuts every waiting long poll without an answer, as a crashed node or network would. */
  dropWaiters(): number;
  waitingPolls(): number;
  close(): Promise<void>;
};

const rawJson = (JSON as unknown as { rawJSON(text: string): unknown }).rawJSON;

function toJson(value: unknown): string {
  return JSON.stringify(value, (_key, v: unknown) => (typeof v === 'bigint' ? rawJson(v.toString()) : v));
}

/** lightningd reads JSON numbers as exact integers; so does the fake, for `*_msat` and the indexes. */
function parseParams(text: string): Record<string, unknown> {
  return JSON.parse(text, (key: string, value: unknown, context?: { source?: string }) =>
    typeof value === 'number' && /_msat$|_index$|^maxfee$/.test(key) && context?.source && /^\d+$/.test(context.source)
      ? BigInt(context.source)
      : value,
  );
}

function nowSeconds(): number {
  return Math.floor(Date.now() / 1000);
}

/**
 * `xpayHandlesPay`: the node runs with `xpay-handle-pay=true`, so xpay answers `pay` calls in its
 * pay-compatible form (plugins/xpay/xpay.c handle_rpc_command, payment_succeeded with pay_compat).
 */
export async function startFakeCln(options: { network?: string; xpayHandlesPay?: boolean } = {}): Promise<FakeCln> {
  const { ca, server: serverCert } = await caAndServerCertificate();
  const runes = createRuneMaster();
  const rune = runes.create([RAYO_RUNE_METHODS.map((method) => `method=${method}`)]);
  const faults: Array<{ method: string; fault: Fault }> = [];
  const unanswered = new Set<ServerResponse>();
  const nodeId = fakeNodeId();
  const invoices: Invoice[] = [];
  const remote: ClnRemoteInvoice[] = [];
  const waiters = new Set<Waiter>();
  const calls: RecordedCall[] = [];
  let lastPayIndex = 0n;
  /** Every outgoing payment attempt, as `listpays` reports them. */
  const pays: Array<Record<string, unknown> & { payment_hash: string }> = [];

  function mustFind(paymentHash: string): Invoice {
    const invoice = invoices.find((i) => i.paymentHash === paymentHash);
    if (!invoice) throw new Error(`fake cln has no invoice ${paymentHash}`);
    return invoice;
  }

  /** Like lightningd: an unpaid invoice past its expiry reads as expired. */
  function refresh(invoice: Invoice): Invoice {
    if (invoice.status === 'unpaid' && invoice.expiresAt <= nowSeconds()) invoice.status = 'expired';
    return invoice;
  }

  function invoiceJson(invoice: Invoice): Record<string, unknown> {
    const base = {
      label: invoice.label,
      bolt11: invoice.bolt11,
      payment_hash: invoice.paymentHash,
      amount_msat: invoice.amountMsat,
      status: invoice.status,
      description: invoice.description,
      expires_at: invoice.expiresAt,
      created_index: invoice.createdIndex,
    };
    if (invoice.status !== 'paid') return base;
    return {
      ...base,
      pay_index: invoice.payIndex,
      amount_received_msat: invoice.amountReceivedMsat,
      paid_at: invoice.paidAt,
      payment_preimage: invoice.preimage,
      updated_index: Number(invoice.payIndex),
    };
  }

  const spoiled = new WeakMap<ServerResponse, Fault>();

  function reply(response: ServerResponse, status: number, body: unknown) {
    const fault = status === 201 ? spoiled.get(response) : undefined;
    response.writeHead(status, { 'content-type': 'application/json' });
    response.end(spoil(toJson(body), fault));
  }

  function rpcError(response: ServerResponse, code: number, message: string, data?: unknown) {
    reply(response, 500, data === undefined ? { code, message } : { code, message, data });
  }

  function answerWaiter(waiter: Waiter, invoice: Invoice) {
    clearTimeout(waiter.timer);
    waiters.delete(waiter);
    reply(waiter.response, 201, invoiceJson(invoice));
  }

  function waitAnyInvoice(response: ServerResponse, params: Record<string, unknown>) {
    const lastpayIndex = typeof params.lastpay_index === 'bigint' ? params.lastpay_index : 0n;
    const timeout = params.timeout;
    const next = invoices
      .filter((i) => i.payIndex !== null && i.payIndex > lastpayIndex)
      .sort((a, b) => Number((a.payIndex ?? 0n) - (b.payIndex ?? 0n)))[0];
    if (next) {
      reply(response, 201, invoiceJson(next));
      return;
    }
    if (timeout === 0) {
      rpcError(response, 904, 'Timed out');
      return;
    }
    const waiter: Waiter = { lastpayIndex, response, timer: undefined };
    if (typeof timeout === 'number') {
      waiter.timer = setTimeout(() => {
        waiters.delete(waiter);
        rpcError(response, 904, 'Timed out');
      }, timeout * 1000);
    }
    waiters.add(waiter);
    response.on('close', () => {
      clearTimeout(waiter.timer);
      waiters.delete(waiter);
    });
  }

  function createInvoice(response: ServerResponse, params: Record<string, unknown>) {
    const { label, description } = params;
    const amount = params.amount_msat;
    if (typeof label !== 'string' || typeof description !== 'string' || typeof amount !== 'bigint') {
      rpcError(response, -32602, 'amount_msat, label and description are required');
      return;
    }
    // lightningd/invoice.c json_invoice: a `d` field holds at most 639 bytes, unless only its hash goes in.
    const descriptionBytes = Buffer.byteLength(description);
    if (descriptionBytes > 639 && params.deschashonly !== true) {
      rpcError(
        response,
        -32602,
        `Descriptions greater than 639 bytes not yet supported (description length ${descriptionBytes})`,
      );
      return;
    }
    if (invoices.some((i) => i.label === label)) {
      rpcError(response, 900, 'Duplicate label');
      return;
    }
    const expiry = typeof params.expiry === 'number' ? params.expiry : 604800;
    const { preimage, paymentHash } = newPreimage();
    const createdAt = nowSeconds();
    const invoice: Invoice = {
      label,
      description,
      paymentHash: paymentHash.toString('hex'),
      preimage: preimage.toString('hex'),
      bolt11: fakePaymentRequest(amount),
      amountMsat: amount,
      createdAt,
      expiresAt: createdAt + expiry,
      createdIndex: invoices.length + 1,
      status: 'unpaid',
      payIndex: null,
      amountReceivedMsat: null,
      paidAt: null,
    };
    invoices.push(invoice);
    reply(response, 201, {
      payment_hash: invoice.paymentHash,
      expires_at: invoice.expiresAt,
      bolt11: invoice.bolt11,
      payment_secret: randomBytes(32).toString('hex'),
      created_index: invoice.createdIndex,
    });
  }

  function pay(response: ServerResponse, params: Record<string, unknown>) {
    const target = remote.find((i) => i.bolt11 === params.bolt11);
    if (!target) {
      rpcError(response, -32602, 'Invalid bolt11: Bad bech32 string');
      return;
    }
    // lightningd's pay plugin: an `h`-only invoice cannot be paid without the text it commits to.
    if (target.hashedDescription) {
      if (typeof params.description !== 'string') {
        rpcError(response, -32602, 'bolt11 uses description_hash, but you did not provide description parameter');
        return;
      }
      if (params.description !== target.description) {
        rpcError(response, -32602, 'description does not match description_hash');
        return;
      }
    }
    if (target.failWith) {
      pays.push({ payment_hash: target.paymentHash, bolt11: target.bolt11, status: 'failed' });
      rpcError(response, target.failWith.code, target.failWith.message, { status: 'failed' });
      return;
    }
    const maxfee = typeof params.maxfee === 'bigint' ? params.maxfee : target.routeFeeMsat;
    if (target.routeFeeMsat > maxfee) {
      rpcError(response, 206, `Route wanted fee of ${target.routeFeeMsat}msat`);
      return;
    }
    const amount = target.amountMsat ?? 0n;
    if (options.xpayHandlesPay) {
      pays.push({
        payment_hash: target.paymentHash,
        bolt11: target.bolt11,
        status: 'complete',
        preimage: target.preimage,
        amount_msat: amount,
        amount_sent_msat: amount + target.routeFeeMsat,
      });
      // xpay's answer for "pay": no destination, `parts` for the attempts.
      reply(response, 201, {
        payment_preimage: target.preimage,
        amount_msat: amount,
        amount_sent_msat: amount + target.routeFeeMsat,
        parts: 1,
        payment_hash: target.paymentHash,
        status: 'complete',
        created_at: nowSeconds(),
      });
      return;
    }
    pays.push({
      payment_hash: target.paymentHash,
      bolt11: target.bolt11,
      status: 'complete',
      preimage: target.preimage,
      amount_msat: amount,
      amount_sent_msat: amount + target.routeFeeMsat,
    });
    reply(response, 201, {
      destination: target.payee,
      payment_hash: target.paymentHash,
      created_at: Date.now() / 1000,
      parts: 1,
      amount_msat: amount,
      amount_sent_msat: amount + target.routeFeeMsat,
      payment_preimage: target.preimage,
      status: 'complete',
    });
  }

  function decode(response: ServerResponse, params: Record<string, unknown>) {
    const own = invoices.find((i) => i.bolt11 === params.string);
    const other = remote.find((i) => i.bolt11 === params.string);
    if (!own && !other) {
      rpcError(response, -32602, 'string: Unparsable invoice');
      return;
    }
    const amount = own ? own.amountMsat : other?.amountMsat;
    reply(response, 201, {
      type: 'bolt11 invoice',
      valid: own ? true : other?.valid,
      currency: 'bcrt',
      created_at: own ? own.createdAt : other?.createdAt,
      expiry: own ? own.expiresAt - own.createdAt : other?.expiry,
      payee: own ? nodeId : other?.payee,
      ...(amount === null || amount === undefined ? {} : { amount_msat: amount }),
      payment_hash: own ? own.paymentHash : other?.paymentHash,
      signature: randomBytes(70).toString('hex'),
      ...(other?.hashedDescription
        ? { description_hash: createHash('sha256').update(other.description).digest('hex') }
        : { description: own ? own.description : other?.description }),
      min_final_cltv_expiry: 18,
      payment_secret: randomBytes(32).toString('hex'),
    });
  }

  async function handle(request: IncomingMessage, response: ServerResponse) {
    const url = new URL(request.url ?? '/', 'https://fake-cln');
    const chunks: Buffer[] = [];
    for await (const chunk of request) chunks.push(chunk as Buffer);
    const rawBody = Buffer.concat(chunks).toString('utf8');
    const method = url.pathname.startsWith('/v1/') ? url.pathname.slice(4) : '';
    let params: Record<string, unknown>;
    try {
      params = rawBody === '' ? {} : parseParams(rawBody);
    } catch {
      rpcError(response, -32700, 'Could not parse request body');
      return;
    }
    calls.push({ method, params, rawBody });

    const given = request.headers.rune;
    const refused = runes.check(Array.isArray(given) ? given[0] : given, method, params);
    if (refused) {
      reply(response, refused.httpStatus, { code: refused.code, message: refused.message });
      return;
    }
    if (request.method !== 'POST') {
      reply(response, 404, { code: -32601, message: 'Wrong http method' });
      return;
    }
    const faultIndex = faults.findIndex((entry) => entry.method === method);
    if (faultIndex !== -1) {
      const fault = faults.splice(faultIndex, 1)[0]?.fault;
      if (fault === 'silent') {
        unanswered.add(response);
        return;
      }
      if (fault) spoiled.set(response, fault);
    }
    switch (method) {
      case 'getinfo':
        reply(response, 201, {
          id: nodeId,
          alias: 'fake-cln',
          color: '02aabb',
          num_peers: 1,
          num_active_channels: 1,
          version: 'v25.02',
          blockheight: 800,
          network: options.network ?? 'regtest',
          fees_collected_msat: 0n,
        });
        return;
      case 'invoice':
        createInvoice(response, params);
        return;
      case 'listinvoices': {
        const matching = invoices.filter(
          (i) => params.payment_hash === undefined || i.paymentHash === params.payment_hash,
        );
        reply(response, 201, { invoices: matching.map((i) => invoiceJson(refresh(i))) });
        return;
      }
      case 'waitanyinvoice':
        waitAnyInvoice(response, params);
        return;
      case 'pay':
        pay(response, params);
        return;
      case 'listpays':
        reply(response, 201, { pays: pays.filter((p) => p.payment_hash === params.payment_hash) });
        return;
      case 'decode':
        decode(response, params);
        return;
      default:
        reply(response, 404, { code: -32601, message: `Unknown command '${method}'` });
    }
  }

  const server = https.createServer({ key: serverCert.key, cert: serverCert.cert }, (request, response) => {
    handle(request, response).catch((error: unknown) => {
      if (!response.headersSent) rpcError(response, -1, String(error));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;

  return {
    url: `https://127.0.0.1:${port}`,
    caPem: ca.cert,
    rune,
    createRune: (restrictions) => runes.create(restrictions),
    fail(method, fault, times = 1) {
      for (let i = 0; i < times; i += 1) faults.push({ method, fault });
    },
    calls,
    settle(paymentHash, amountReceivedMsat) {
      const invoice = refresh(mustFind(paymentHash));
      if (invoice.status !== 'unpaid') throw new Error(`fake cln cannot pay an ${invoice.status} invoice`);
      lastPayIndex += 1n;
      invoice.status = 'paid';
      invoice.payIndex = lastPayIndex;
      invoice.amountReceivedMsat = amountReceivedMsat ?? invoice.amountMsat;
      invoice.paidAt = nowSeconds();
      for (const waiter of [...waiters]) if (lastPayIndex > waiter.lastpayIndex) answerWaiter(waiter, invoice);
      return lastPayIndex;
    },
    expire(paymentHash) {
      const invoice = mustFind(paymentHash);
      invoice.expiresAt = nowSeconds() - 1;
      refresh(invoice);
      for (const waiter of [...waiters]) answerWaiter(waiter, invoice);
    },
    addRemoteInvoice(input) {
      const { preimage, paymentHash } = newPreimage();
      const invoice: ClnRemoteInvoice = {
        bolt11: input.signed?.paymentRequest ?? fakePaymentRequest(input.amountMsat),
        paymentHash: input.signed?.paymentHash ?? paymentHash.toString('hex'),
        preimage: input.signed?.preimage ?? preimage.toString('hex'),
        amountMsat: input.amountMsat,
        description: input.description ?? '',
        hashedDescription: input.hashDescription ?? false,
        payee: input.signed?.destination ?? fakeNodeId(),
        createdAt: nowSeconds(),
        expiry: 3600,
        routeFeeMsat: input.routeFeeMsat ?? 0n,
        failWith: input.failWith ?? null,
        valid: input.valid ?? true,
      };
      remote.push(invoice);
      return invoice;
    },
    dropWaiters() {
      const count = waiters.size;
      for (const waiter of [...waiters]) {
        clearTimeout(waiter.timer);
        waiters.delete(waiter);
        waiter.response.socket?.destroy();
      }
      return count;
    },
    waitingPolls: () => waiters.size,
    async close() {
      for (const waiter of waiters) clearTimeout(waiter.timer);
      for (const response of unanswered) response.socket?.destroy();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
