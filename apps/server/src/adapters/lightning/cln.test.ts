import { createHash } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { Agent, fetch } from 'undici';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { type FakeCln, RAYO_RUNE_METHODS, startFakeCln } from '../../../test/fakes/cln-server.ts';
import { caAndServerCertificate } from '../../../test/fakes/tls.ts';
import { loadConfig } from '../../config.ts';
import { type ClnBackendOptions, CREATERUNE_COMMAND, createClnBackend, RUNE_METHODS } from './cln.ts';
import { createLightningBackend } from './index.ts';
import { type LightningBackend, LightningBackendError, type Settlement } from './types.ts';

let cln: FakeCln;
let backend: LightningBackend;

function options(overrides: Partial<ClnBackendOptions> = {}): ClnBackendOptions {
  return {
    restUrl: cln.url,
    rune: cln.rune,
    tlsCaPem: cln.caPem,
    reconnectDelayMs: 20,
    maxReconnectDelayMs: 100,
    ...overrides,
  };
}

beforeAll(async () => {
  cln = await startFakeCln();
  backend = await createClnBackend(options());
});

afterAll(async () => {
  await cln.close();
});

async function newInvoice(amountMsat = 21_000n) {
  return backend.createInvoice({ amountMsat, description: 'coffee', expirySeconds: 900 });
}

function lastCall(method: string) {
  return cln.calls.filter((c) => c.method === method).at(-1);
}

describe('Core Lightning backend', () => {
  it('reads the network from getinfo', async () => {
    expect(backend.name).toBe('cln');
    expect(backend.network).toBe('regtest');
    const mainnet = await startFakeCln({ network: 'bitcoin' });
    try {
      const other = await createClnBackend({ restUrl: mainnet.url, rune: mainnet.rune, tlsCaPem: mainnet.caPem });
      expect(other.network).toBe('mainnet');
    } finally {
      await mainnet.close();
    }
  });

  it('creates an invoice with a unique label and integer amount, and looks it up', async () => {
    const invoice = await backend.createInvoice({
      amountMsat: 123_456n,
      description: 'two coffees',
      expirySeconds: 600,
    });
    const call = lastCall('invoice');
    expect(call?.rawBody).toMatch(/"amount_msat":123456[,}]/);
    expect(call?.params).toMatchObject({ description: 'two coffees', expiry: 600 });
    expect(call?.params.label).toMatch(/^rayo-[0-9a-f-]{36}$/);
    await newInvoice();
    expect(lastCall('invoice')?.params.label).not.toBe(call?.params.label);

    expect(invoice.paymentHash).toMatch(/^[0-9a-f]{64}$/);
    expect(invoice.paymentRequest).toMatch(/^lnbcrt/);
    expect(Math.abs(invoice.expiresAt.getTime() - (Date.now() + 600_000))).toBeLessThan(2000);
    expect(await backend.lookupInvoice(invoice.paymentHash)).toEqual({
      paymentHash: invoice.paymentHash,
      state: 'open',
      settlement: null,
    });
  });

  it('asks for the description hash only when asked, as LNURL-pay needs (deschashonly)', async () => {
    const metadata = JSON.stringify([['text/plain', 'Plant a tree']]);
    await backend.createInvoice({
      amountMsat: 21_000n,
      description: metadata,
      expirySeconds: 600,
      hashDescription: true,
    });
    expect(lastCall('invoice')?.params).toMatchObject({ description: metadata, deschashonly: true });
    await newInvoice();
    expect(lastCall('invoice')?.params).not.toHaveProperty('deschashonly');
  });

  it('maps paid and expired invoices', async () => {
    const paid = await newInvoice(50_000n);
    const payIndex = cln.settle(paid.paymentHash, 50_500n);
    const lookup = await backend.lookupInvoice(paid.paymentHash);
    expect(lookup.state).toBe('settled');
    expect(lookup.settlement).toMatchObject({
      paymentHash: paid.paymentHash,
      settleIndex: payIndex,
      amountPaidMsat: 50_500n,
    });

    const expired = await newInvoice();
    cln.expire(expired.paymentHash);
    expect((await backend.lookupInvoice(expired.paymentHash)).state).toBe('expired');

    await expect(backend.lookupInvoice('cd'.repeat(32))).rejects.toThrow(LightningBackendError);
  });

  it('keeps msat amounts above 2^53 exact both ways', async () => {
    const huge = 2n ** 53n + 1n;
    const invoice = await backend.createInvoice({ amountMsat: huge, description: 'whale', expirySeconds: 60 });
    expect(lastCall('invoice')?.rawBody).toContain(`"amount_msat":${huge}`);
    cln.settle(invoice.paymentHash, huge + 2n);
    expect((await backend.lookupInvoice(invoice.paymentHash)).settlement?.amountPaidMsat).toBe(huge + 2n);
  });

  it('delivers settlements in pay_index order, missed ones first, awaiting the handler', async () => {
    const invoices = [await newInvoice(1000n), await newInvoice(2000n), await newInvoice(3000n)];
    const first = cln.settle(invoices[0]?.paymentHash ?? '');
    cln.settle(invoices[1]?.paymentHash ?? '');

    const controller = new AbortController();
    const received: Settlement[] = [];
    let running = 0;
    const done = backend.subscribeSettlements(
      first,
      async (settlement) => {
        running += 1;
        expect(running).toBe(1);
        await new Promise((resolve) => setTimeout(resolve, 20));
        running -= 1;
        received.push(settlement);
      },
      controller.signal,
    );
    await vi.waitFor(() => expect(received).toHaveLength(1));
    await vi.waitFor(() => expect(cln.waitingPolls()).toBe(1));
    cln.settle(invoices[2]?.paymentHash ?? '');
    await vi.waitFor(() => expect(received).toHaveLength(2));
    // The poll after the second settlement, which a loaded machine may not have sent yet.
    await vi.waitFor(() => expect(cln.waitingPolls()).toBe(1));
    controller.abort();
    await done;

    expect(received.map((s) => s.paymentHash)).toEqual([invoices[1]?.paymentHash, invoices[2]?.paymentHash]);
    expect(received.map((s) => s.settleIndex)).toEqual([first + 1n, first + 2n]);
    expect(received.map((s) => s.amountPaidMsat)).toEqual([2000n, 3000n]);
    const polls = cln.calls.filter((c) => c.method === 'waitanyinvoice').slice(-3);
    expect(polls.map((c) => c.params.lastpay_index)).toEqual([first, first + 1n, first + 2n]);
    expect(polls.every((c) => c.params.timeout === 30)).toBe(true);
  });

  it('skips an expired invoice without moving lastpay_index', async () => {
    const node = await createClnBackend(options());
    const doomed = await newInvoice();
    const paid = await newInvoice();
    const start = cln.settle((await newInvoice()).paymentHash);
    const controller = new AbortController();
    const received: Settlement[] = [];
    const done = node.subscribeSettlements(
      start,
      async (s) => {
        received.push(s);
      },
      controller.signal,
    );
    await vi.waitFor(() => expect(cln.waitingPolls()).toBe(1));
    cln.expire(doomed.paymentHash);
    await vi.waitFor(() => expect(cln.waitingPolls()).toBe(1));
    cln.settle(paid.paymentHash);
    await vi.waitFor(() => expect(received).toHaveLength(1));
    controller.abort();
    await done;
    expect(received[0]?.paymentHash).toBe(paid.paymentHash);
    const polls = cln.calls.filter((c) => c.method === 'waitanyinvoice').slice(-3);
    expect(polls.map((c) => c.params.lastpay_index)).toEqual([start, start, start + 1n]);
  });

  it('polls again after a timeout, and retries from the last delivered index after a cut connection', async () => {
    const errors: LightningBackendError[] = [];
    const node = await createClnBackend(
      options({ waitTimeoutSeconds: 1, onStreamError: (error) => errors.push(error) }),
    );
    const a = await newInvoice();
    const b = await newInvoice();
    const start = cln.settle(a.paymentHash) - 1n;
    const controller = new AbortController();
    const received: Settlement[] = [];
    const pollsBefore = cln.calls.filter((c) => c.method === 'waitanyinvoice').length;
    const done = node.subscribeSettlements(
      start,
      async (s) => {
        received.push(s);
      },
      controller.signal,
    );
    await vi.waitFor(() => expect(received).toHaveLength(1));
    await vi.waitFor(() => expect(cln.waitingPolls()).toBe(1));
    // The 1 s timeout passes with nothing paid: a 904 error, answered by polling again at once.
    await vi.waitFor(
      () => expect(cln.calls.filter((c) => c.method === 'waitanyinvoice').length).toBeGreaterThan(pollsBefore + 2),
      { timeout: 3000 },
    );
    expect(errors).toHaveLength(0);

    expect(cln.dropWaiters()).toBe(1);
    await vi.waitFor(() => expect(errors).toHaveLength(1));
    const bIndex = cln.settle(b.paymentHash);
    await vi.waitFor(() => expect(received).toHaveLength(2));
    controller.abort();
    await done;

    expect(received.map((s) => [s.paymentHash, s.settleIndex])).toEqual([
      [a.paymentHash, start + 1n],
      [b.paymentHash, bIndex],
    ]);
    const polls = cln.calls.filter((c) => c.method === 'waitanyinvoice').slice(pollsBefore);
    expect(polls[0]?.params.lastpay_index).toBe(start);
    expect(
      polls.slice(1).every((c) => c.params.lastpay_index === start + 1n || c.params.lastpay_index === bIndex),
    ).toBe(true);
    expect(errors[0]?.message).toMatch(/waitanyinvoice: no answer/);
  });

  it('stops on abort by aborting the waiting request', async () => {
    const controller = new AbortController();
    const done = backend.subscribeSettlements(10_000n, async () => {}, controller.signal);
    await vi.waitFor(() => expect(cln.waitingPolls()).toBe(1));
    controller.abort();
    await expect(done).resolves.toBeUndefined();
    await vi.waitFor(() => expect(cln.waitingPolls()).toBe(0));
  });

  it('ends the subscription with the handler error', async () => {
    const index = cln.settle((await newInvoice()).paymentHash);
    await expect(
      backend.subscribeSettlements(
        index - 1n,
        async () => {
          throw new Error('database down');
        },
        new AbortController().signal,
      ),
    ).rejects.toThrow('database down');
  });

  it('refuses a wrong rune with a LightningBackendError that does not show it', async () => {
    const other = await startFakeCln();
    try {
      const wrong = other.rune;
      const error = await createClnBackend(options({ rune: wrong })).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(LightningBackendError);
      expect((error as Error).message).toBe(
        'Core Lightning getinfo refused the rune (HTTP 401, code 1501): Not authorized: Not derived from master. ' +
          `Create a rune with: ${CREATERUNE_COMMAND}`,
      );
      expect((error as Error).message).not.toContain(wrong);
    } finally {
      await other.close();
    }
  });

  it('is refused a method its rune does not list, as clnrest refuses it, and names the rune to create', async () => {
    expect(RUNE_METHODS).toEqual(RAYO_RUNE_METHODS);
    // The rune the docs gave before: without listpays (nor getinfo, which Rayo asks at start).
    const older = cln.createRune([
      ['method=invoice', 'method=listinvoices', 'method=waitanyinvoice', 'method=decode', 'method=pay'],
    ]);
    // Read from the rune at start, naming every method missing, before the node is asked anything.
    const refusedAtStart = await createClnBackend(options({ rune: older })).catch((e: unknown) => e);
    expect(refusedAtStart).toBeInstanceOf(LightningBackendError);
    expect((refusedAtStart as Error).message).toBe(
      `The Core Lightning rune does not allow getinfo, which taking payments needs. Create a rune with: ${CREATERUNE_COMMAND}`,
    );
    const withGetinfo = cln.createRune([
      [
        'method=getinfo',
        'method=invoice',
        'method=listinvoices',
        'method=waitanyinvoice',
        'method=decode',
        'method=pay',
      ],
    ]);
    const warnings: string[] = [];
    const node = await createClnBackend(options({ rune: withGetinfo, onWarning: (message) => warnings.push(message) }));
    expect(warnings).toEqual([
      `The Core Lightning rune does not allow listpays: Lightning payouts cannot be sent. Create a rune with: ${CREATERUNE_COMMAND}`,
    ]);
    const paid = cln.addRemoteInvoice({ amountMsat: 9_000n });
    await node.payInvoice(paid.bolt11, { maxFeeMsat: 100n, timeoutSeconds: 30 });
    // The payout's lookup is what failed with such a rune: every retry of a payout whose outcome was lost.
    await expect(node.lookupPayment(paid.paymentHash)).rejects.toThrow(
      /listpays refused the rune \(HTTP 401, code 1502\): Not permitted: method is not equal to getinfo AND/,
    );
    expect(await backend.lookupPayment(paid.paymentHash)).toMatchObject({ state: 'succeeded' });
  });

  it('applies every kind of restriction a rune can carry, as lightningd does', async () => {
    const call = async (rune: string, method: string, params: object) => {
      const response = await fetch(new URL(`/v1/${method}`, cln.url), {
        method: 'POST',
        headers: { Rune: rune, 'content-type': 'application/json' },
        body: JSON.stringify(params),
        dispatcher: new Agent({ connect: { ca: cln.caPem } }),
      });
      return { status: response.status, body: (await response.json()) as { code?: number; message?: string } };
    };
    const labelled = cln.createRune([['method=invoice'], ['pnamelabel^rayo-'], ['pnum<5']]);
    const ok = await call(labelled, 'invoice', { amount_msat: 1000, label: 'rayo-x', description: 'd' });
    expect(ok.status).toBe(201);
    expect(await call(labelled, 'invoice', { amount_msat: 1000, label: 'other', description: 'd' })).toEqual({
      status: 401,
      body: { code: 1502, message: 'Not permitted: pnamelabel does not start with rayo-' },
    });
    expect(await call(labelled, 'getinfo', {})).toEqual({
      status: 401,
      body: { code: 1502, message: 'Not permitted: method is not equal to invoice' },
    });
    // A rune with a restriction added by hand, without the node's secret, is not the node's.
    const forged = Buffer.from(
      `${Buffer.from(labelled, 'base64url').toString('latin1')}|method=getinfo`,
      'latin1',
    ).toString('base64url');
    expect((await call(forged, 'getinfo', {})).body).toEqual({
      code: 1501,
      message: 'Not authorized: Not derived from master',
    });
    const missing = await fetch(new URL('/v1/getinfo', cln.url), {
      method: 'POST',
      dispatcher: new Agent({ connect: { ca: cln.caPem } }),
    });
    expect(missing.status).toBe(403);
    expect(await missing.json()).toEqual({ code: 1501, message: 'Not authorized: Missing rune' });
  });

  it('commits to a description over 639 UTF-8 bytes by its hash, which lightningd refuses as text', async () => {
    const fits = 'ñ'.repeat(319);
    await backend.createInvoice({ amountMsat: 1000n, description: fits, expirySeconds: 60 });
    expect(lastCall('invoice')?.params).toMatchObject({ description: fits });
    expect(lastCall('invoice')?.params.deschashonly).toBeUndefined();
    const tooLong = 'ñ'.repeat(320);
    const invoice = await backend.createInvoice({ amountMsat: 1000n, description: tooLong, expirySeconds: 60 });
    expect(lastCall('invoice')?.params).toMatchObject({ description: tooLong, deschashonly: true });
    expect(invoice.paymentHash).toMatch(/^[0-9a-f]{64}$/);

    // What the old code sent: the stand-in refuses it as lightningd does.
    const response = await fetch(new URL('/v1/invoice', cln.url), {
      method: 'POST',
      headers: { Rune: cln.rune, 'content-type': 'application/json' },
      body: JSON.stringify({ amount_msat: 1000, label: 'rayo-long', description: tooLong }),
      dispatcher: new Agent({ connect: { ca: cln.caPem } }),
    });
    expect(response.status).toBe(500);
    expect(await response.json()).toEqual({
      code: -32602,
      message: 'Descriptions greater than 639 bytes not yet supported (description length 640)',
    });
  });

  it('trusts the node only through its CA', async () => {
    const withoutCa = await createClnBackend(options({ tlsCaPem: undefined })).catch((e: unknown) => e);
    expect(withoutCa).toBeInstanceOf(LightningBackendError);
    expect((withoutCa as Error).message).toMatch(/no answer from .*(self.signed|certificate)/i);

    const stranger = await caAndServerCertificate();
    await expect(createClnBackend(options({ tlsCaPem: stranger.ca.cert }))).rejects.toThrow(LightningBackendError);
    await expect(createClnBackend(options())).resolves.toMatchObject({ name: 'cln' });
  });

  it('pays with maxfee and retry_for, returning the preimage and the fee', async () => {
    const target = cln.addRemoteInvoice({ amountMsat: 100_000n, routeFeeMsat: 1_250n });
    const result = await backend.payInvoice(target.bolt11, { maxFeeMsat: 2_000n, timeoutSeconds: 45 });
    expect(result).toEqual({ paymentHash: target.paymentHash, preimage: target.preimage, feeMsat: 1_250n });
    expect(createHash('sha256').update(Buffer.from(result.preimage, 'hex')).digest('hex')).toBe(result.paymentHash);
    expect(lastCall('pay')?.rawBody).toBe(`{"bolt11":"${target.bolt11}","maxfee":2000,"retry_for":45}`);
  });

  it('passes the text a description-hash invoice commits to, as pay requires', async () => {
    const metadata = '[["text/plain","Payment to alice"]]';
    const target = cln.addRemoteInvoice({ amountMsat: 30_000n, description: metadata, hashDescription: true });
    await expect(backend.payInvoice(target.bolt11, { maxFeeMsat: 1_000n, timeoutSeconds: 30 })).rejects.toThrow(
      /did not provide description/,
    );
    const result = await backend.payInvoice(target.bolt11, {
      maxFeeMsat: 1_000n,
      timeoutSeconds: 30,
      description: metadata,
    });
    expect(result.paymentHash).toBe(target.paymentHash);
    expect(lastCall('pay')?.params).toMatchObject({ bolt11: target.bolt11, description: metadata });
  });

  it('reports a failed payment with the node message', async () => {
    const tooExpensive = cln.addRemoteInvoice({ amountMsat: 100_000n, routeFeeMsat: 5_000n });
    await expect(backend.payInvoice(tooExpensive.bolt11, { maxFeeMsat: 1_000n, timeoutSeconds: 30 })).rejects.toThrow(
      /pay failed \(HTTP 500, code 206\): Route wanted fee/,
    );
    const noRoute = cln.addRemoteInvoice({
      amountMsat: 100_000n,
      failWith: { code: 210, message: 'Ran out of routes to try after 3 attempts: see `paystatus`' },
    });
    const error = await backend
      .payInvoice(noRoute.bolt11, { maxFeeMsat: 1_000n, timeoutSeconds: 30 })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(LightningBackendError);
    expect((error as Error).message).toMatch(/code 210.*Ran out of routes/);
  });

  it('looks a payment up with listpays: complete with its preimage and fee, failed, or never started', async () => {
    const paid = cln.addRemoteInvoice({ amountMsat: 50_000n, routeFeeMsat: 700n });
    expect(await backend.lookupPayment(paid.paymentHash)).toEqual({ state: 'unknown' });
    await backend.payInvoice(paid.bolt11, { maxFeeMsat: 1_000n, timeoutSeconds: 30 });
    expect(await backend.lookupPayment(paid.paymentHash)).toEqual({
      state: 'succeeded',
      preimage: paid.preimage,
      feeMsat: 700n,
    });
    expect(lastCall('listpays')?.rawBody).toBe(`{"payment_hash":"${paid.paymentHash}"}`);
    const failing = cln.addRemoteInvoice({
      amountMsat: 50_000n,
      failWith: { code: 210, message: 'Ran out of routes' },
    });
    await backend.payInvoice(failing.bolt11, { maxFeeMsat: 1_000n, timeoutSeconds: 30 }).catch(() => {});
    expect(await backend.lookupPayment(failing.paymentHash)).toEqual({ state: 'failed' });
  });

  it('decodes a valid invoice and refuses an invalid one', async () => {
    const target = cln.addRemoteInvoice({ amountMsat: 42_000n, description: 'tip' });
    expect(await backend.decodeInvoice(target.bolt11)).toEqual({
      paymentHash: target.paymentHash,
      amountMsat: 42_000n,
      description: 'tip',
      expiresAt: new Date((target.createdAt + target.expiry) * 1000),
      payee: target.payee,
    });
    const noAmount = cln.addRemoteInvoice({ amountMsat: null });
    expect((await backend.decodeInvoice(noAmount.bolt11)).amountMsat).toBeNull();
    const forged = cln.addRemoteInvoice({ amountMsat: 1000n, valid: false });
    await expect(backend.decodeInvoice(forged.bolt11)).rejects.toThrow(/invalid/);
    await expect(backend.decodeInvoice('lnbcrt1pgarbage')).rejects.toThrow(LightningBackendError);
  });

  it('is built from the configuration', async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), 'rayo-cln-'));
    try {
      await writeFile(path.join(dir, 'ca.pem'), cln.caPem);
      const env = {
        LIGHTNING_BACKEND: 'cln',
        CLN_REST_URL: cln.url,
        CLN_RUNE: cln.rune,
        CLN_TLS_CA_PATH: path.join(dir, 'ca.pem'),
      };
      // Core Lightning holds no database connection of its own, so no database is given.
      const noDatabase = { db: undefined as never, url: '' };
      const quiet = { warn: () => {} };
      await expect(createLightningBackend(loadConfig(env), noDatabase, quiet)).resolves.toMatchObject({
        name: 'cln',
        network: 'regtest',
      });
      await expect(createLightningBackend(loadConfig({ ...env, CLN_REST_URL: '' }), noDatabase, quiet)).rejects.toThrow(
        'CLN_REST_URL must be set when LIGHTNING_BACKEND=cln',
      );
      await expect(createLightningBackend(loadConfig({ ...env, CLN_RUNE: '' }), noDatabase, quiet)).rejects.toThrow(
        'CLN_RUNE must be set when LIGHTNING_BACKEND=cln',
      );
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});

describe('Core Lightning with xpay handling pay', () => {
  it("reads xpay's answer to pay, and finds the payment with listpays", async () => {
    const xpayNode = await startFakeCln({ xpayHandlesPay: true });
    try {
      const node = await createClnBackend({ restUrl: xpayNode.url, rune: xpayNode.rune, tlsCaPem: xpayNode.caPem });
      const target = xpayNode.addRemoteInvoice({ amountMsat: 80_000n, routeFeeMsat: 400n });
      expect(await node.payInvoice(target.bolt11, { maxFeeMsat: 1_000n, timeoutSeconds: 30 })).toEqual({
        paymentHash: target.paymentHash,
        preimage: target.preimage,
        feeMsat: 400n,
      });
      expect(await node.lookupPayment(target.paymentHash)).toEqual({
        state: 'succeeded',
        preimage: target.preimage,
        feeMsat: 400n,
      });
    } finally {
      await xpayNode.close();
    }
  });
});

describe('bad answers from Core Lightning', () => {
  const faults = ['truncated', 'wrong-types', 'huge'] as const;

  it('retries a broken long poll after logging it, and delivers each settlement once', async () => {
    for (const fault of faults) {
      const invoice = await newInvoice(7_000n);
      const index = cln.settle(invoice.paymentHash);
      const errors: LightningBackendError[] = [];
      const node = await createClnBackend(options({ onStreamError: (error) => errors.push(error) }));
      cln.fail('waitanyinvoice', fault);
      const controller = new AbortController();
      const received: Settlement[] = [];
      const done = node.subscribeSettlements(
        index - 1n,
        async (settlement) => {
          received.push(settlement);
          if (received.length === 1) controller.abort();
        },
        controller.signal,
      );
      await done;
      expect(
        received.map((s) => [s.paymentHash, s.amountPaidMsat]),
        fault,
      ).toEqual([[invoice.paymentHash, 7_000n]]);
      expect(errors.length, fault).toBeGreaterThanOrEqual(1);
    }
  });

  it('answers a broken or missing answer with a LightningBackendError, never a state', async () => {
    const quick = await createClnBackend(options({ requestTimeoutMs: 300 }));
    const target = cln.addRemoteInvoice({ amountMsat: 5_000n });
    await quick.payInvoice(target.bolt11, { maxFeeMsat: 100n, timeoutSeconds: 30 });
    const invoice = await newInvoice();
    for (const fault of [...faults, 'silent'] as const) {
      cln.fail('listpays', fault);
      const error = await quick.lookupPayment(target.paymentHash).catch((e: unknown) => e);
      expect(error, fault).toBeInstanceOf(LightningBackendError);
      expect(await quick.lookupPayment(target.paymentHash)).toMatchObject({ state: 'succeeded' });
      cln.fail('listinvoices', fault);
      expect(await quick.lookupInvoice(invoice.paymentHash).catch((e: unknown) => e), fault).toBeInstanceOf(
        LightningBackendError,
      );
      expect((await quick.lookupInvoice(invoice.paymentHash)).state).toBe('open');
    }
  });
});
