import { createHash, randomBytes } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { secp256k1 } from '@noble/curves/secp256k1.js';
import { bytesToHex } from '@noble/hashes/utils.js';
import { encodeBolt11 } from '../../src/domain/bolt11.ts';
import type { FakeCln } from './cln-server.ts';
import type { FakeLnd } from './lnd-server.ts';

/**
 * A wallet's Lightning address service for tests (protocols.md §2, LUD-06 and LUD-16), over HTTP
 * at 127.0.0.1: `/.well-known/lnurlp/<name>` answers a payRequest, and its callback signs a real
 * regtest BOLT11 invoice for `amount` committing to the metadata's hash. Each invoice is made
 * payable at the node under test (the lnd or Core Lightning stand-in), as a remote node's would be.
 */
export type FakeLnurlPay = {
  /** `name@127.0.0.1:port`. */
  address: (name: string) => string;
  /** Every callback asked, in order: the amounts requested. */
  callbacks: bigint[];
  /** Invoices issued, by payment hash. */
  issued: string[];
  /** What the next callbacks do wrong, for refusal tests. */
  misbehave: (mode: 'none' | 'wrong-amount' | 'wrong-hash' | 'error') => void;
  /** How long the callback takes to answer (the invoice exists at once). */
  slowCallbacks: (delayMs: number) => void;
  /** Callbacks asked and not yet answered. */
  pendingCallbacks: () => number;
  /** How long the node takes to pay the next invoices, and whether it cuts the payer's stream. */
  payment: (options: { delayMs?: number; cutStream?: boolean; failWith?: string; routeFeeMsat?: bigint }) => void;
  /** The payRequest's `minSendable` and `maxSendable` (msat); the callback refuses amounts outside them. */
  sendable: (range: { minMsat: bigint; maxMsat: bigint }) => void;
  /** The metadata string `name`'s payRequest announces. */
  metadataOf: (name: string) => string;
  close: () => Promise<void>;
};

export async function startFakeLnurlPay(node: FakeLnd | FakeCln): Promise<FakeLnurlPay> {
  const key = secp256k1.utils.randomSecretKey();
  const nodeId = bytesToHex(secp256k1.getPublicKey(key, true));
  const callbacks: bigint[] = [];
  const issued: string[] = [];
  let mode: 'none' | 'wrong-amount' | 'wrong-hash' | 'error' = 'none';
  let paymentOptions: { delayMs?: number; cutStream?: boolean; failWith?: string; routeFeeMsat?: bigint } = {};
  let origin = '';
  let callbackDelayMs = 0;
  let pending = 0;
  let sendable = { minMsat: 1000n, maxMsat: 100_000_000_000n };

  const metadataOf = (name: string) =>
    JSON.stringify([
      ['text/plain', `Payment to ${name}`],
      ['text/identifier', `${name}@${new URL(origin).host}`],
    ]);

  const server = http.createServer((request, response) => {
    const url = new URL(request.url ?? '/', origin);
    const send = (body: unknown) => {
      response.writeHead(200, { 'content-type': 'application/json' });
      response.end(JSON.stringify(body));
    };
    const wellKnown = /^\/\.well-known\/lnurlp\/([a-z0-9._-]+)$/.exec(url.pathname);
    if (wellKnown?.[1]) {
      send({
        tag: 'payRequest',
        callback: `${origin}/lnurlp/${wellKnown[1]}/callback`,
        minSendable: Number(sendable.minMsat),
        maxSendable: Number(sendable.maxMsat),
        metadata: metadataOf(wellKnown[1]),
      });
      return;
    }
    const callback = /^\/lnurlp\/([a-z0-9._-]+)\/callback$/.exec(url.pathname);
    const amount = url.searchParams.get('amount');
    if (!callback?.[1] || amount === null || !/^\d+$/.test(amount)) {
      response.writeHead(404).end();
      return;
    }
    const amountMsat = BigInt(amount);
    callbacks.push(amountMsat);
    if (mode === 'error') {
      send({ status: 'ERROR', reason: 'Service unavailable' });
      return;
    }
    if (amountMsat < sendable.minMsat || amountMsat > sendable.maxMsat) {
      send({ status: 'ERROR', reason: 'Amount out of range' });
      return;
    }
    const preimage = randomBytes(32);
    const paymentHash = createHash('sha256').update(preimage).digest('hex');
    const metadata = mode === 'wrong-hash' ? '[["text/plain","something else"]]' : metadataOf(callback[1]);
    const invoiceAmount = mode === 'wrong-amount' ? amountMsat + 1000n : amountMsat;
    const paymentRequest = encodeBolt11(
      {
        currency: 'bcrt',
        amountMsat: invoiceAmount,
        timestamp: Math.floor(Date.now() / 1000),
        paymentHash,
        paymentSecret: randomBytes(32).toString('hex'),
        descriptionHash: createHash('sha256').update(metadata).digest('hex'),
        expirySeconds: 600,
        minFinalCltvExpiry: 80,
      },
      key,
    );
    const signed = { paymentRequest, paymentHash, preimage: preimage.toString('hex'), destination: nodeId };
    if ('rune' in node) {
      node.addRemoteInvoice({
        amountMsat: invoiceAmount,
        description: metadata,
        hashDescription: true,
        signed,
        routeFeeMsat: paymentOptions.routeFeeMsat,
      });
    } else {
      node.addRemoteInvoice({
        amountMsat: invoiceAmount,
        signed,
        payDelayMs: paymentOptions.delayMs,
        cutStream: paymentOptions.cutStream,
        failWith: paymentOptions.failWith,
        routeFeeMsat: paymentOptions.routeFeeMsat,
      });
    }
    issued.push(paymentHash);
    pending += 1;
    setTimeout(() => {
      pending -= 1;
      if (!response.destroyed) send({ pr: paymentRequest, routes: [] });
    }, callbackDelayMs);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    address: (name) => `${name}@${new URL(origin).host}`,
    callbacks,
    issued,
    misbehave: (next) => {
      mode = next;
    },
    slowCallbacks: (delayMs) => {
      callbackDelayMs = delayMs;
    },
    pendingCallbacks: () => pending,
    payment: (options) => {
      paymentOptions = options;
    },
    sendable: (range) => {
      sendable = range;
    },
    metadataOf,
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
