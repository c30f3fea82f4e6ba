import { createHash } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { Agent, fetch } from 'undici';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { BAKED_MACAROON, INVOICE_MACAROON } from '../../../test/fakes/lnd-gateway.ts';
import { type FakeLnd, startFakeLnd } from '../../../test/fakes/lnd-server.ts';
import { selfSignedCertificate } from '../../../test/fakes/tls.ts';
import { loadConfig } from '../../config.ts';
import { createLightningBackend } from './index.ts';
import { BAKE_COMMAND, createLndBackend, type LndBackendOptions } from './lnd.ts';
import { type LightningBackend, LightningBackendError, type Settlement } from './types.ts';

let lnd: FakeLnd;
let backend: LightningBackend;

function options(overrides: Partial<LndBackendOptions> = {}): LndBackendOptions {
  return {
    restUrl: lnd.url,
    macaroonHex: lnd.macaroonHex,
    tlsCertPem: lnd.certPem,
    reconnectDelayMs: 20,
    maxReconnectDelayMs: 100,
    ...overrides,
  };
}

beforeAll(async () => {
  lnd = await startFakeLnd();
  backend = await createLndBackend(options());
});

afterAll(async () => {
  await lnd.close();
});

/** A request straight to the stand-in, as any client of lnd's REST gateway would make it. */
async function callStandIn(method: 'GET' | 'POST', path: string, body?: unknown, macaroonHex = lnd.macaroonHex) {
  const response = await fetch(new URL(path, lnd.url), {
    method,
    headers: { 'Grpc-Metadata-macaroon': macaroonHex },
    body: body === undefined ? undefined : JSON.stringify(body),
    dispatcher: new Agent({ connect: { ca: lnd.certPem } }),
  });
  return { status: response.status, body: (await response.json()) as unknown };
}

async function newInvoice(amountMsat = 21_000n) {
  return backend.createInvoice({ amountMsat, description: 'coffee', expirySeconds: 900 });
}

/** Collects settlements until `count` arrived, then aborts the subscription and waits for it to end. */
function collect(afterIndex: bigint, count: number, handler?: (s: Settlement) => Promise<void>) {
  return collectFrom(backend, afterIndex, count, handler);
}

describe('lnd backend', () => {
  it('reads the network from getinfo', async () => {
    expect(backend.name).toBe('lnd');
    expect(backend.network).toBe('regtest');
    const mainnet = await startFakeLnd({ network: 'mainnet' });
    try {
      const other = await createLndBackend({
        restUrl: mainnet.url,
        macaroonHex: mainnet.macaroonHex,
        tlsCertPem: mainnet.certPem,
      });
      expect(other.network).toBe('mainnet');
    } finally {
      await mainnet.close();
    }
  });

  it('creates an invoice with value_msat and expiry as int64 strings, and looks it up by base64 hash', async () => {
    const before = Date.now();
    const invoice = await backend.createInvoice({
      amountMsat: 123_456n,
      description: 'two coffees',
      expirySeconds: 600,
    });
    expect(invoice.paymentHash).toMatch(/^[0-9a-f]{64}$/);
    expect(invoice.paymentRequest).toMatch(/^lnbcrt/);
    expect(invoice.expiresAt.getTime()).toBeGreaterThanOrEqual(before + 600_000);
    expect(invoice.expiresAt.getTime()).toBeLessThanOrEqual(Date.now() + 600_000);

    const sent = lnd.requests.filter((r) => r.path === '/v1/invoices' && r.method === 'POST').at(-1);
    // `private` asks lnd for route hints of unannounced channels.
    expect(sent?.body).toEqual({ value_msat: '123456', memo: 'two coffees', expiry: '600', private: true });

    expect(await backend.lookupInvoice(invoice.paymentHash)).toEqual({
      paymentHash: invoice.paymentHash,
      state: 'open',
      settlement: null,
    });
  });

  it('commits to a description by its hash alone when asked, as LNURL-pay needs (description_hash, no memo)', async () => {
    const metadata = JSON.stringify([['text/plain', 'Plant a tree']]);
    await backend.createInvoice({
      amountMsat: 21_000n,
      description: metadata,
      expirySeconds: 600,
      hashDescription: true,
    });
    const sent = lnd.requests.filter((r) => r.path === '/v1/invoices' && r.method === 'POST').at(-1);
    expect(sent?.body).toEqual({
      value_msat: '21000',
      description_hash: createHash('sha256').update(metadata, 'utf8').digest('base64'),
      expiry: '600',
      private: true,
    });
  });

  it('commits to a description over 639 UTF-8 bytes by its hash, which lnd cannot put in a field', async () => {
    const lastBody = () =>
      lnd.requests.filter((r) => r.path === '/v1/invoices' && r.method === 'POST').at(-1)?.body as Record<
        string,
        string
      >;
    // 319 two-byte characters are 638 bytes: they fit.
    const fits = 'é'.repeat(319);
    await backend.createInvoice({ amountMsat: 1000n, description: fits, expirySeconds: 60 });
    expect(lastBody().memo).toBe(fits);
    // 320 characters, 640 bytes: one byte too many, though far under 639 characters.
    const tooLong = 'é'.repeat(320);
    await backend.createInvoice({ amountMsat: 1000n, description: tooLong, expirySeconds: 60 });
    expect(lastBody().memo).toBeUndefined();
    expect(lastBody().description_hash).toBe(createHash('sha256').update(tooLong, 'utf8').digest('base64'));

    // The stand-in refuses that memo as lnd's zpay32 does.
    const refused = await callStandIn('POST', '/v1/invoices', { value_msat: '1000', memo: tooLong, expiry: '60' });
    expect(refused).toEqual({
      status: 500,
      body: { code: 2, message: 'data length too big to fit within 10 bits: 1024', details: [] },
    });
  });

  it('percent-encodes the base64 hash, which may contain + and /', async () => {
    let invoice = await newInvoice();
    // Base64 of a random hash holds `+` or `/` most of the time; create until one does.
    while (!/[+/]/.test(Buffer.from(invoice.paymentHash, 'hex').toString('base64'))) invoice = await newInvoice();
    expect((await backend.lookupInvoice(invoice.paymentHash)).paymentHash).toBe(invoice.paymentHash);
  });

  it('maps SETTLED, CANCELED and expired invoices', async () => {
    const settled = await newInvoice(50_000n);
    const settleIndex = lnd.settle(settled.paymentHash, 50_500n);
    const lookup = await backend.lookupInvoice(settled.paymentHash);
    expect(lookup.state).toBe('settled');
    expect(lookup.settlement).toMatchObject({ paymentHash: settled.paymentHash, settleIndex, amountPaidMsat: 50_500n });
    expect(Math.abs((lookup.settlement?.settledAt.getTime() ?? 0) - Date.now())).toBeLessThan(5000);

    const cancelled = await newInvoice();
    lnd.cancel(cancelled.paymentHash);
    expect((await backend.lookupInvoice(cancelled.paymentHash)).state).toBe('cancelled');

    const expired = await newInvoice();
    lnd.expire(expired.paymentHash);
    expect((await backend.lookupInvoice(expired.paymentHash)).state).toBe('expired');
  });

  it('refuses an expiry of 0, which lnd would read as a day', async () => {
    await expect(backend.createInvoice({ amountMsat: 1000n, description: 'x', expirySeconds: 0 })).rejects.toThrow(
      RangeError,
    );
  });

  it('reports an unknown payment hash as a LightningBackendError', async () => {
    await newInvoice(1000n);
    const error = await backend.lookupInvoice('ab'.repeat(32)).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(LightningBackendError);
    expect((error as Error).message).toMatch(/HTTP 404.*unable to locate invoice/);
  });

  it('streams settlements in order: missed ones first, then live ones, awaiting the handler', async () => {
    const invoices = [await newInvoice(1000n), await newInvoice(2000n), await newInvoice(3000n)];
    const first = lnd.settle(invoices[0]?.paymentHash ?? '');
    lnd.settle(invoices[1]?.paymentHash ?? '');
    const subscriptionsBefore = lnd.subscriptions.length;

    let running = 0;
    const { received, enough, done, controller } = collect(first, 2, async () => {
      running += 1;
      expect(running).toBe(1);
      await new Promise((resolve) => setTimeout(resolve, 20));
      running -= 1;
    });
    await lnd.waitForSubscriptions(subscriptionsBefore + 1);
    lnd.settle(invoices[2]?.paymentHash ?? '');
    await enough;
    controller.abort();
    await done;

    expect(lnd.subscriptions.at(-1)).toBe(first);
    expect(received.map((s) => s.paymentHash)).toEqual([invoices[1]?.paymentHash, invoices[2]?.paymentHash]);
    expect(received.map((s) => s.settleIndex)).toEqual([first + 1n, first + 2n]);
    expect(received.map((s) => s.amountPaidMsat)).toEqual([2000n, 3000n]);
  });

  it('reconnects after the stream is cut and resumes after the last delivered index without repeats', async () => {
    const a = await newInvoice();
    const b = await newInvoice();
    const c = await newInvoice();
    const start = lnd.settle(a.paymentHash);
    const subscriptionsBefore = lnd.subscriptions.length;
    const errors: LightningBackendError[] = [];

    const node = await createLndBackend(options({ onStreamError: (error) => errors.push(error) }));
    const controller = new AbortController();
    const received: Settlement[] = [];
    const done = node.subscribeSettlements(
      start - 1n,
      async (s) => {
        received.push(s);
      },
      controller.signal,
    );
    await lnd.waitForSubscriptions(subscriptionsBefore + 1);
    await vi.waitFor(() => expect(received).toHaveLength(1));
    expect(lnd.dropSubscriptions()).toBe(1);
    // Settled while the stream is down: the reconnect must replay it.
    const bIndex = lnd.settle(b.paymentHash);
    await lnd.waitForSubscriptions(subscriptionsBefore + 2);
    lnd.settle(c.paymentHash);
    await vi.waitFor(() => expect(received).toHaveLength(3));
    lnd.dropSubscriptions();
    await lnd.waitForSubscriptions(subscriptionsBefore + 3);
    controller.abort();
    await done;

    expect(received.map((s) => s.paymentHash)).toEqual([a.paymentHash, b.paymentHash, c.paymentHash]);
    expect(lnd.subscriptions.slice(subscriptionsBefore)).toEqual([start - 1n, start, bIndex + 1n]);
    expect(errors.length).toBeGreaterThanOrEqual(2);
    expect(errors[0]?.message).toMatch(/settle stream/);
  });

  it('reads the invoice history when starting from index 0, since lnd replays nothing for 0', async () => {
    const fresh = await startFakeLnd();
    try {
      const node = await createLndBackend({
        ...options(),
        restUrl: fresh.url,
        macaroonHex: fresh.macaroonHex,
        tlsCertPem: fresh.certPem,
      });
      const x = await node.createInvoice({ amountMsat: 1000n, description: 'x', expirySeconds: 60 });
      const y = await node.createInvoice({ amountMsat: 2000n, description: 'y', expirySeconds: 60 });
      await node.createInvoice({ amountMsat: 3000n, description: 'unpaid', expirySeconds: 60 });
      // Settled in the other order than created: delivery follows the settle index.
      fresh.settle(y.paymentHash);
      fresh.settle(x.paymentHash);

      const controller = new AbortController();
      const received: Settlement[] = [];
      const done = node.subscribeSettlements(
        0n,
        async (s) => {
          received.push(s);
        },
        controller.signal,
      );
      await fresh.waitForSubscriptions(1);
      controller.abort();
      await done;
      expect(received.map((s) => [s.paymentHash, s.settleIndex])).toEqual([
        [y.paymentHash, 1n],
        [x.paymentHash, 2n],
      ]);
      expect(fresh.subscriptions).toEqual([2n]);
    } finally {
      await fresh.close();
    }
  });

  it('stops on abort, also while waiting to reconnect', async () => {
    const controller = new AbortController();
    const done = backend.subscribeSettlements(999n, async () => {}, controller.signal);
    await vi.waitFor(() => expect(lnd.openSubscriptions()).toBeGreaterThan(0));
    controller.abort();
    await expect(done).resolves.toBeUndefined();

    const down = await startFakeLnd();
    const errors: LightningBackendError[] = [];
    const node = await createLndBackend({
      restUrl: down.url,
      macaroonHex: down.macaroonHex,
      tlsCertPem: down.certPem,
      reconnectDelayMs: 60_000,
      onStreamError: (error) => errors.push(error),
    });
    await down.close();
    const waiting = new AbortController();
    const stopped = node.subscribeSettlements(5n, async () => {}, waiting.signal);
    await vi.waitFor(() => expect(errors).toHaveLength(1));
    expect(errors[0]?.message).toMatch(/no answer from/);
    waiting.abort();
    await expect(stopped).resolves.toBeUndefined();
  });

  it('ends the subscription with the handler error', async () => {
    const invoice = await newInvoice();
    const index = lnd.settle(invoice.paymentHash);
    const controller = new AbortController();
    await expect(
      backend.subscribeSettlements(
        index - 1n,
        async () => {
          throw new Error('database down');
        },
        controller.signal,
      ),
    ).rejects.toThrow('database down');
  });

  it('refuses a wrong or missing macaroon with a LightningBackendError that does not show it', async () => {
    const wrong = 'ab'.repeat(64);
    const error = await createLndBackend(options({ macaroonHex: wrong })).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(LightningBackendError);
    expect((error as Error).message).toMatch(/HTTP 500.*verification failed/);
    expect((error as Error).message).not.toContain(wrong);
    await expect(createLndBackend(options({ macaroonHex: 'not hex' }))).rejects.toThrow(LightningBackendError);
  });

  it('trusts the node only through its certificate', async () => {
    const withoutCert = await createLndBackend(options({ tlsCertPem: undefined })).catch((e: unknown) => e);
    expect(withoutCert).toBeInstanceOf(LightningBackendError);
    expect((withoutCert as Error).message).toMatch(/no answer from .*(self.signed|certificate)/i);

    const stranger = await selfSignedCertificate();
    const otherCert = await createLndBackend(options({ tlsCertPem: stranger.cert })).catch((e: unknown) => e);
    expect(otherCert).toBeInstanceOf(LightningBackendError);

    await expect(createLndBackend(options())).resolves.toMatchObject({ name: 'lnd' });
  });

  it('reports an unreachable node as a LightningBackendError', async () => {
    const gone = await startFakeLnd();
    const url = gone.url;
    await gone.close();
    await expect(createLndBackend(options({ restUrl: url }))).rejects.toThrow(/no answer from.*ECONNREFUSED/);
  });

  it('pays through the router stream, returning the hex preimage and the fee', async () => {
    const target = lnd.addRemoteInvoice({ amountMsat: 100_000n, routeFeeMsat: 1_250n });
    const result = await backend.payInvoice(target.paymentRequest, { maxFeeMsat: 2_000n, timeoutSeconds: 30 });
    expect(result).toEqual({ paymentHash: target.paymentHash, preimage: target.preimage, feeMsat: 1_250n });
    expect(createHash('sha256').update(Buffer.from(result.preimage, 'hex')).digest('hex')).toBe(result.paymentHash);
    const sent = lnd.requests.filter((r) => r.path === '/v2/router/send').at(-1);
    expect(sent?.body).toEqual({ payment_request: target.paymentRequest, fee_limit_msat: '2000', timeout_seconds: 30 });
  });

  it('reports a FAILED payment with its failure reason', async () => {
    const tooExpensive = lnd.addRemoteInvoice({ amountMsat: 100_000n, routeFeeMsat: 5_000n });
    await expect(
      backend.payInvoice(tooExpensive.paymentRequest, { maxFeeMsat: 1_000n, timeoutSeconds: 30 }),
    ).rejects.toThrow(/FAILURE_REASON_NO_ROUTE/);
    const broke = lnd.addRemoteInvoice({ amountMsat: 100_000n, failWith: 'FAILURE_REASON_INSUFFICIENT_BALANCE' });
    const error = await backend
      .payInvoice(broke.paymentRequest, { maxFeeMsat: 1_000n, timeoutSeconds: 30 })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(LightningBackendError);
    expect((error as Error).message).toMatch(/FAILURE_REASON_INSUFFICIENT_BALANCE/);
  });

  it('reports an error the router sends before any update', async () => {
    const target = lnd.addRemoteInvoice({ amountMsat: 1_000n });
    await backend.payInvoice(target.paymentRequest, { maxFeeMsat: 10n, timeoutSeconds: 30 });
    await expect(backend.payInvoice(target.paymentRequest, { maxFeeMsat: 10n, timeoutSeconds: 30 })).rejects.toThrow(
      /HTTP 409: invoice is already paid/,
    );
  });

  it('tracks a payment: never started, in flight, then succeeded with the preimage and fee', async () => {
    const target = lnd.addRemoteInvoice({ amountMsat: 60_000n, routeFeeMsat: 900n, held: true });
    expect(await backend.lookupPayment(target.paymentHash)).toEqual({ state: 'unknown' });
    const paying = backend.payInvoice(target.paymentRequest, { maxFeeMsat: 1_000n, timeoutSeconds: 30 });
    // The node holds the payment in flight until the test lets it end.
    await expect.poll(() => target.inFlight).toBe(true);
    expect(await backend.lookupPayment(target.paymentHash)).toEqual({ state: 'in_flight' });
    lnd.releasePayment(target.paymentHash);
    await paying;
    expect(await backend.lookupPayment(target.paymentHash)).toEqual({
      state: 'succeeded',
      preimage: target.preimage,
      feeMsat: 900n,
    });
    // grpc-gateway decodes bytes in a path as padded base64: 43 characters and the `=`.
    const track = lnd.requests.filter((r) => r.path.startsWith('/v2/router/track/')).at(-1);
    expect(track?.path).toBe(`/v2/router/track/${Buffer.from(target.paymentHash, 'hex').toString('base64url')}=`);
  });

  it('sends hashes as padded base64url, the only form grpc-gateway decodes besides padded standard base64', async () => {
    const invoice = await newInvoice();
    await backend.lookupInvoice(invoice.paymentHash);
    const lookup = lnd.requests.filter((r) => r.path === '/v2/invoices/lookup').at(-1);
    expect(lookup?.query.get('payment_hash')).toBe(`${Buffer.from(invoice.paymentHash, 'hex').toString('base64url')}=`);

    // What Rayo sent before, 43 characters without padding, is a 400 at lnd, as at the stand-in.
    const unpadded = Buffer.from(invoice.paymentHash, 'hex').toString('base64url');
    expect(await callStandIn('GET', `/v2/router/track/${unpadded}`)).toEqual({
      status: 400,
      body: {
        code: 3,
        message: 'type mismatch, parameter: payment_hash, error: illegal base64 data at input byte 40',
        details: [],
      },
    });
    expect(await callStandIn('GET', `/v2/invoices/lookup?payment_hash=${unpadded}`)).toEqual({
      status: 400,
      body: { code: 3, message: 'parsing field "payment_hash": illegal base64 data at input byte 40', details: [] },
    });
    // A hash lnd never paid: NotFound.
    expect(await callStandIn('GET', `/v2/router/track/${unpadded}=`)).toEqual({
      status: 404,
      body: { code: 5, message: "payment isn't initiated", details: [] },
    });
  });

  it('finds a payment whose stream outlived its deadline through track, without paying it again', async () => {
    const target = lnd.addRemoteInvoice({ amountMsat: 70_000n, routeFeeMsat: 300n, held: true });
    const impatient = await createLndBackend(options({ paymentGraceMs: 50 }));
    // lnd holds the payment in flight past the call's deadline (1 s plus 50 ms).
    const error = await impatient
      .payInvoice(target.paymentRequest, { maxFeeMsat: 1_000n, timeoutSeconds: 1 })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(LightningBackendError);
    expect((error as Error).message).toMatch(/may still be in flight/);
    expect(await impatient.lookupPayment(target.paymentHash)).toEqual({ state: 'in_flight' });
    lnd.releasePayment(target.paymentHash);
    expect(await impatient.lookupPayment(target.paymentHash)).toEqual({
      state: 'succeeded',
      preimage: target.preimage,
      feeMsat: 300n,
    });
    expect(target.successes).toBe(1);
    expect(
      lnd.requests.filter(
        (r) => r.body && (r.body as Record<string, unknown>).payment_request === target.paymentRequest,
      ),
    ).toHaveLength(1);
  });

  it('decodes a payment request', async () => {
    const target = lnd.addRemoteInvoice({ amountMsat: 42_000n, description: 'tip' });
    expect(await backend.decodeInvoice(target.paymentRequest)).toEqual({
      paymentHash: target.paymentHash,
      amountMsat: 42_000n,
      description: 'tip',
      expiresAt: new Date((target.timestamp + target.expiry) * 1000),
      payee: target.destination,
    });
    const noAmount = lnd.addRemoteInvoice({ amountMsat: null });
    expect((await backend.decodeInvoice(noAmount.paymentRequest)).amountMsat).toBeNull();
    await expect(backend.decodeInvoice('lnbcrt1pgarbage')).rejects.toThrow(LightningBackendError);
  });

  it('is built from the configuration, the macaroon read as the hex of its file bytes', async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), 'rayo-lnd-'));
    try {
      await writeFile(path.join(dir, 'rayo.macaroon'), Buffer.from(lnd.macaroonHex, 'hex'));
      await writeFile(path.join(dir, 'tls.cert'), lnd.certPem);
      const env = {
        LIGHTNING_BACKEND: 'lnd',
        LND_REST_URL: lnd.url,
        LND_MACAROON_PATH: path.join(dir, 'rayo.macaroon'),
        LND_TLS_CERT_PATH: path.join(dir, 'tls.cert'),
      };
      // lnd holds no database connection of its own, so no database is given.
      const noDatabase = { db: undefined as never, url: '' };
      const quiet = { warn: () => {} };
      const fromFiles = await createLightningBackend(loadConfig(env), noDatabase, quiet);
      expect(fromFiles).toMatchObject({ name: 'lnd', network: 'regtest' });
      const { LND_MACAROON_PATH: _, ...withHex } = env;
      await expect(
        createLightningBackend(loadConfig({ ...withHex, LND_MACAROON_HEX: lnd.macaroonHex }), noDatabase, quiet),
      ).resolves.toMatchObject({ name: 'lnd' });

      await expect(createLightningBackend(loadConfig({ ...env, LND_REST_URL: '' }), noDatabase, quiet)).rejects.toThrow(
        'LND_REST_URL must be set when LIGHTNING_BACKEND=lnd',
      );
      await expect(createLightningBackend(loadConfig(withHex), noDatabase, quiet)).rejects.toThrow(
        'LND_MACAROON_HEX or LND_MACAROON_PATH must be set',
      );
      await expect(
        createLightningBackend(
          loadConfig({ ...env, LND_TLS_CERT_PATH: path.join(dir, 'missing.cert') }),
          noDatabase,
          quiet,
        ),
      ).rejects.toThrow(/LND_TLS_CERT_PATH names a file that cannot be read/);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});

describe('lnd macaroon permissions', () => {
  it('is what `lncli bakemacaroon` is told in the docs, and the stand-in grants exactly that', () => {
    expect(BAKE_COMMAND).toBe(`lncli bakemacaroon ${BAKED_MACAROON.join(' ')}`);
  });

  it("refuses to start with lnd's invoice.macaroon, naming what it lacks and how to bake one", async () => {
    const error = await createLndBackend(options({ macaroonHex: lnd.bake(INVOICE_MACAROON) })).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(LightningBackendError);
    expect((error as Error).message).toBe(
      'The lnd macaroon lacks info:read, offchain:read, which taking payments needs (GET /v1/getinfo, GET /v1/payreq). ' +
        `Bake one with: ${BAKE_COMMAND}`,
    );
    // Rayo said so before calling; lnd itself answers a bare refusal that names nothing.
    expect(await callStandIn('GET', '/v1/getinfo', undefined, lnd.bake(INVOICE_MACAROON))).toEqual({
      status: 500,
      body: { code: 2, message: 'permission denied', details: [] },
    });
  });

  it('starts without the payout permissions, warns once, and names the one lnd refuses at the first payout', async () => {
    const warnings: string[] = [];
    const receiving = lnd.bake(['info:read', 'invoices:read', 'invoices:write', 'offchain:read']);
    const node = await createLndBackend(options({ macaroonHex: receiving, onWarning: (m) => warnings.push(m) }));
    expect(warnings).toEqual([
      `The lnd macaroon lacks offchain:write: Lightning payouts cannot be sent. Bake one with: ${BAKE_COMMAND}`,
    ]);
    const invoice = await node.createInvoice({ amountMsat: 5_000n, description: 'tea', expirySeconds: 60 });
    expect((await node.lookupInvoice(invoice.paymentHash)).state).toBe('open');
    const target = lnd.addRemoteInvoice({ amountMsat: 1_000n });
    await expect(node.payInvoice(target.paymentRequest, { maxFeeMsat: 10n, timeoutSeconds: 5 })).rejects.toThrow(
      `lnd POST /v2/router/send answered HTTP 500: permission denied: the macaroon lacks offchain:write. Bake one with: ${BAKE_COMMAND}`,
    );
    expect(target.successes).toBe(0);
  });

  it('accepts permissions granted per call (uri:) as lnd does', async () => {
    const perCall = lnd.bake([
      'uri:/lnrpc.Lightning/GetInfo',
      'uri:/lnrpc.Lightning/AddInvoice',
      'uri:/lnrpc.Lightning/ListInvoices',
      'uri:/lnrpc.Lightning/SubscribeInvoices',
      'uri:/invoicesrpc.Invoices/LookupInvoiceV2',
      'uri:/lnrpc.Lightning/DecodePayReq',
      'uri:/routerrpc.Router/SendPaymentV2',
      'uri:/routerrpc.Router/TrackPaymentV2',
    ]);
    const warnings: string[] = [];
    const node = await createLndBackend(options({ macaroonHex: perCall, onWarning: (m) => warnings.push(m) }));
    const target = lnd.addRemoteInvoice({ amountMsat: 2_000n });
    await node.payInvoice(target.paymentRequest, { maxFeeMsat: 10n, timeoutSeconds: 5 });
    expect(await node.lookupPayment(target.paymentHash)).toMatchObject({ state: 'succeeded' });
    expect(warnings).toEqual([]);
  });

  it('refuses a macaroon of another node, as lnd does, without showing it', async () => {
    const other = await startFakeLnd();
    try {
      const foreign = other.macaroonHex;
      const error = await createLndBackend(options({ macaroonHex: foreign })).catch((e: unknown) => e);
      expect((error as Error).message).toBe(
        'lnd GET /v1/getinfo answered HTTP 500: verification failed: signature mismatch after caveat verification',
      );
    } finally {
      await other.close();
    }
  });
});

describe('bad answers from lnd', () => {
  const faults = ['truncated', 'wrong-types', 'huge'] as const;

  it('reads a broken settle stream as a dropped one: logged, reconnected, each settlement delivered once', async () => {
    // From settle index 0 the history is read from the list instead; the stream replays from 1 on.
    lnd.settle((await newInvoice()).paymentHash);
    for (const fault of faults) {
      const invoice = await newInvoice(4_000n);
      const errors: LightningBackendError[] = [];
      const node = await createLndBackend(options({ onStreamError: (error) => errors.push(error) }));
      const start = lnd.settle(invoice.paymentHash);
      // The replay of the missed settlement is the message that comes out broken.
      lnd.fail('GET /v1/invoices/subscribe', fault);
      const { received, enough, done, controller } = collectFrom(node, start - 1n, 1);
      await enough;
      controller.abort();
      await done;
      expect(received.map((s) => [s.paymentHash, s.amountPaidMsat])).toEqual([[invoice.paymentHash, 4_000n]]);
      expect(errors.length, fault).toBeGreaterThanOrEqual(1);
      expect(errors[0]).toBeInstanceOf(LightningBackendError);
    }
  });

  it('answers a broken or missing answer with a LightningBackendError, and the next call sees the truth', async () => {
    const quick = await createLndBackend(options({ requestTimeoutMs: 300 }));
    const invoice = await newInvoice();
    lnd.settle(invoice.paymentHash);
    for (const fault of [...faults, 'silent'] as const) {
      lnd.fail('GET /v2/invoices/lookup', fault);
      const error = await quick.lookupInvoice(invoice.paymentHash).catch((e: unknown) => e);
      expect(error, fault).toBeInstanceOf(LightningBackendError);
      expect((await quick.lookupInvoice(invoice.paymentHash)).state).toBe('settled');
    }
    for (const fault of [...faults, 'silent'] as const) {
      const target = lnd.addRemoteInvoice({ amountMsat: 3_000n });
      await quick.payInvoice(target.paymentRequest, { maxFeeMsat: 10n, timeoutSeconds: 5 });
      lnd.fail('GET /v2/router/track', fault);
      const error = await quick.lookupPayment(target.paymentHash).catch((e: unknown) => e);
      expect(error, fault).toBeInstanceOf(LightningBackendError);
      expect(await quick.lookupPayment(target.paymentHash)).toMatchObject({ state: 'succeeded' });
    }
  });

  it('gives up on a node that accepts the settle stream and never answers, and tries again', async () => {
    const errors: LightningBackendError[] = [];
    const node = await createLndBackend(
      options({ requestTimeoutMs: 300, onStreamError: (error) => errors.push(error) }),
    );
    lnd.settle((await newInvoice()).paymentHash);
    const invoice = await newInvoice(6_000n);
    const index = lnd.settle(invoice.paymentHash);
    lnd.fail('GET /v1/invoices/subscribe', 'silent');
    const { received, enough, done, controller } = collectFrom(node, index - 1n, 1);
    await enough;
    controller.abort();
    await done;
    expect(received.map((s) => s.paymentHash)).toEqual([invoice.paymentHash]);
    expect(errors[0]?.message).toMatch(/no answer before the deadline/);
  });
});

function collectFrom(
  node: LightningBackend,
  afterIndex: bigint,
  count: number,
  handler?: (s: Settlement) => Promise<void>,
) {
  const controller = new AbortController();
  const received: Settlement[] = [];
  let reached: () => void = () => {};
  const enough = new Promise<void>((resolve) => {
    reached = resolve;
  });
  const done = node.subscribeSettlements(
    afterIndex,
    async (settlement) => {
      await handler?.(settlement);
      received.push(settlement);
      if (received.length >= count) reached();
    },
    controller.signal,
  );
  return { received, enough, done, controller };
}
