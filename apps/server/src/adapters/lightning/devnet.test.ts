import { secp256k1 } from '@noble/curves/secp256k1.js';
import { sha256 } from '@noble/hashes/sha2.js';
import { bytesToHex, hexToBytes, utf8ToBytes } from '@noble/hashes/utils.js';
import { AppError } from '@rayo/shared';
import { bech32 } from '@scure/base';
import { sql } from 'kysely';
import { decode as independentDecode } from 'light-bolt11-decoder';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../../../test/test-app.ts';
import { waitFor } from '../../../test/wait-for.ts';
import { createDatabase, type Db } from '../../db/database.ts';
import { type Bolt11Fields, decodeBolt11, encodeBolt11 } from '../../domain/bolt11.ts';
import { findDevnetInvoice } from './devnet.repo.ts';
import { createDevnetBackend, getDevnetNodePublicKey, payDevnetInvoice } from './devnet.ts';
import { type LightningBackend, LightningBackendError, type Settlement } from './types.ts';

let database: TestDatabase;
let db: Db;
let otherProcessDb: Db;
let node: LightningBackend;

beforeAll(async () => {
  database = await createTestDatabase();
  db = createDatabase(database.url, 4);
  otherProcessDb = createDatabase(database.url, 4);
  node = createDevnetBackend(db, { databaseUrl: database.url, retryDelayMs: 50 });
});
afterAll(async () => {
  await db?.destroy();
  await otherProcessDb?.destroy();
  await database?.drop();
});

async function invoiceOf(amountMsat: bigint, options: { description?: string; expirySeconds?: number } = {}) {
  return node.createInvoice({
    amountMsat,
    description: options.description ?? 'Devnet test',
    expirySeconds: options.expirySeconds ?? 600,
  });
}

/** An invoice signed by some other key, for `paymentHash` unless given. */
function foreignInvoice(overrides: Partial<Bolt11Fields> = {}, key = secp256k1.utils.randomSecretKey()): string {
  return encodeBolt11(
    {
      currency: 'bcrt',
      amountMsat: 1_000n,
      timestamp: Math.floor(Date.now() / 1000),
      paymentHash: 'ab'.repeat(32),
      paymentSecret: 'cd'.repeat(32),
      description: 'another node',
      expirySeconds: 3600,
      minFinalCltvExpiry: 18,
      ...overrides,
    },
    key,
  );
}

async function codeOf(run: () => Promise<unknown>): Promise<string> {
  try {
    await run();
  } catch (error) {
    expect(error).toBeInstanceOf(AppError);
    return (error as AppError).code;
  }
  return expect.fail('expected an AppError');
}

/** A running settlement stream that records what it delivered. */
function subscribe(backend: LightningBackend, afterIndex: bigint, onSettlement?: (s: Settlement) => Promise<void>) {
  const delivered: Settlement[] = [];
  const controller = new AbortController();
  const done = backend.subscribeSettlements(
    afterIndex,
    async (settlement) => {
      await onSettlement?.(settlement);
      delivered.push(settlement);
    },
    controller.signal,
  );
  return {
    delivered,
    hashes: () => delivered.map((settlement) => settlement.paymentHash),
    stop: async () => {
      controller.abort();
      await done;
    },
  };
}

/**
 * BOLT 11's signature check written out from the spec, without our own decoder: the signed
 * message is the human-readable part followed by the data words (all but the 104 signature
 * words) regrouped into bytes, zero-padded.
 */
function signatureVerifies(paymentRequest: string, publicKeyHex: string): boolean {
  const { prefix, words } = bech32.decode(paymentRequest.toLowerCase() as `${string}1${string}`, false);
  const data = words.slice(0, -104);
  const bytes: number[] = [];
  let buffer = 0;
  let bits = 0;
  for (const word of data) {
    buffer = (buffer << 5) | word;
    bits += 5;
    while (bits >= 8) {
      bits -= 8;
      bytes.push((buffer >> bits) & 0xff);
    }
  }
  if (bits > 0) bytes.push((buffer << (8 - bits)) & 0xff);
  const message = new Uint8Array([...utf8ToBytes(prefix), ...bytes]);
  const signature = bech32.fromWordsUnsafe(words.slice(-104));
  if (!signature) return false;
  return secp256k1.verify(signature.slice(0, 64), sha256(message), hexToBytes(publicKeyHex), { prehash: false });
}

describe('devnet invoices', () => {
  it('are regtest BOLT11 invoices signed by the node key, read alike by an independent decoder', async () => {
    const created = await invoiceOf(2_500_000n, { description: 'Two coffees ☕', expirySeconds: 900 });
    const nodeKey = await getDevnetNodePublicKey(db);
    expect(created.paymentRequest.startsWith('lnbcrt25u1')).toBe(true);

    const decoded = decodeBolt11(created.paymentRequest);
    expect(decoded).toMatchObject({
      currency: 'bcrt',
      amountMsat: 2_500_000n,
      paymentHash: created.paymentHash,
      description: 'Two coffees ☕',
      expirySeconds: 900,
      payee: nodeKey,
    });
    expect(created.expiresAt).toEqual(decoded.expiresAt);

    const other = independentDecode(created.paymentRequest);
    expect(other.sections).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ name: 'amount', value: '2500000' }),
        expect.objectContaining({ name: 'payment_hash', value: created.paymentHash }),
        expect.objectContaining({ name: 'description', value: 'Two coffees ☕' }),
        expect.objectContaining({ name: 'expiry', value: 900 }),
      ]),
    );

    const stored = await findDevnetInvoice(db, created.paymentHash);
    expect(bytesToHex(sha256(hexToBytes(stored?.preimage ?? '')))).toBe(created.paymentHash);
    expect(stored?.paymentRequest).toBe(created.paymentRequest);
    expect(signatureVerifies(created.paymentRequest, nodeKey)).toBe(true);
    expect(
      signatureVerifies(created.paymentRequest, bytesToHex(secp256k1.getPublicKey(secp256k1.utils.randomSecretKey()))),
    ).toBe(false);
  });

  it('commit to a description too long for the d field by its hash', async () => {
    const description = '☕'.repeat(300);
    const created = await invoiceOf(1_000n, { description });
    const decoded = decodeBolt11(created.paymentRequest);
    expect(decoded.description).toBeNull();
    expect(decoded.descriptionHash).toBe(bytesToHex(sha256(utf8ToBytes(description))));
  });

  it('come from one node for every process on the database, whose key is made once', async () => {
    const fresh = await createTestDatabase();
    const pools = [createDatabase(fresh.url, 2), createDatabase(fresh.url, 2), createDatabase(fresh.url, 2)];
    try {
      const keys = await Promise.all(pools.map((pool) => getDevnetNodePublicKey(pool)));
      expect(new Set(keys).size).toBe(1);
      const fromOtherProcess = await createDevnetBackend(pools[1] as Db, { databaseUrl: fresh.url }).createInvoice({
        amountMsat: 1_000n,
        description: 'x',
        expirySeconds: 60,
      });
      expect(decodeBolt11(fromOtherProcess.paymentRequest).payee).toBe(keys[0]);
    } finally {
      await Promise.all(pools.map((pool) => pool.destroy()));
      await fresh.drop();
    }
  });

  it('are looked up as open, settled or expired', async () => {
    const open = await invoiceOf(5_000n);
    expect(await node.lookupInvoice(open.paymentHash)).toEqual({
      paymentHash: open.paymentHash,
      state: 'open',
      settlement: null,
    });
    const paid = await payDevnetInvoice(db, open.paymentRequest);
    expect(await node.lookupInvoice(open.paymentHash)).toEqual({
      paymentHash: open.paymentHash,
      state: 'settled',
      settlement: {
        paymentHash: open.paymentHash,
        settleIndex: paid.settleIndex,
        amountPaidMsat: 5_000n,
        settledAt: paid.settledAt,
      },
    });
    const expired = await invoiceOf(5_000n, { expirySeconds: 0 });
    expect((await node.lookupInvoice(expired.paymentHash)).state).toBe('expired');
    await expect(node.lookupInvoice('00'.repeat(32))).rejects.toBeInstanceOf(LightningBackendError);
  });

  it('decode for any regtest invoice, and not for other networks', async () => {
    const created = await invoiceOf(3_000n, { description: 'decode me' });
    expect(await node.decodeInvoice(created.paymentRequest)).toEqual({
      paymentHash: created.paymentHash,
      amountMsat: 3_000n,
      description: 'decode me',
      expiresAt: created.expiresAt,
      payee: await getDevnetNodePublicKey(db),
    });
    const foreignKey = secp256k1.utils.randomSecretKey();
    const foreign = foreignInvoice({ amountMsat: null }, foreignKey);
    expect((await node.decodeInvoice(foreign)).payee).toBe(bytesToHex(secp256k1.getPublicKey(foreignKey, true)));
    const mainnet = foreignInvoice({ currency: 'bc' });
    expect(await codeOf(() => node.decodeInvoice(mainnet))).toBe('InvalidInput');
  });
});

describe('payDevnetInvoice', () => {
  it('settles the invoice and answers its amount and preimage', async () => {
    const created = await invoiceOf(42_000n);
    const paid = await payDevnetInvoice(db, created.paymentRequest.toUpperCase());
    expect(paid.paymentHash).toBe(created.paymentHash);
    expect(paid.amountMsat).toBe(42_000n);
    expect(bytesToHex(sha256(hexToBytes(paid.preimage)))).toBe(created.paymentHash);
    expect(paid.settleIndex > 0n).toBe(true);
  });

  it('refuses to pay twice, even when both payments race', async () => {
    const created = await invoiceOf(1_000n);
    const attempts = await Promise.allSettled(
      [db, otherProcessDb, db, otherProcessDb].map((pool) => payDevnetInvoice(pool, created.paymentRequest)),
    );
    expect(attempts.filter((attempt) => attempt.status === 'fulfilled')).toHaveLength(1);
    for (const attempt of attempts) {
      if (attempt.status === 'rejected') expect((attempt.reason as AppError).code).toBe('InvoiceNotPending');
    }
    expect(await codeOf(() => payDevnetInvoice(db, created.paymentRequest))).toBe('InvoiceNotPending');
  });

  it('refuses expired, foreign, non-regtest and malformed invoices', async () => {
    const expired = await invoiceOf(1_000n, { expirySeconds: 0 });
    await expect(payDevnetInvoice(db, expired.paymentRequest)).rejects.toThrow(/expired/);

    const ours = await invoiceOf(1_000n);
    // The hash of one of our invoices, signed by someone else.
    const foreign = foreignInvoice({ paymentHash: ours.paymentHash });
    await expect(payDevnetInvoice(db, foreign)).rejects.toThrow(/another node/);
    expect(await codeOf(() => payDevnetInvoice(db, foreign))).toBe('InvalidInput');

    const mainnet = foreignInvoice({ currency: 'bc', paymentHash: ours.paymentHash });
    await expect(payDevnetInvoice(db, mainnet)).rejects.toThrow(/not a devnet invoice/);
    expect(await codeOf(() => payDevnetInvoice(db, 'lnbcrt1garbage'))).toBe('InvalidInput');
    expect((await node.lookupInvoice(ours.paymentHash)).state).toBe('open');
  });

  it('pays through the backend with no fee, and reports failures as backend errors', async () => {
    const created = await invoiceOf(7_000n);
    const result = await node.payInvoice(created.paymentRequest, { maxFeeMsat: 0n, timeoutSeconds: 30 });
    expect(result.paymentHash).toBe(created.paymentHash);
    expect(result.feeMsat).toBe(0n);
    expect(bytesToHex(sha256(hexToBytes(result.preimage)))).toBe(created.paymentHash);
    const again = node.payInvoice(created.paymentRequest, { maxFeeMsat: 0n, timeoutSeconds: 30 });
    await expect(again).rejects.toBeInstanceOf(LightningBackendError);
    await expect(again).rejects.toThrow(/already paid/);
  });
});

describe('subscribeSettlements', () => {
  it('delivers settlements missed while nobody listened, in order, then new ones as they happen', async () => {
    const start = await latestIndex();

    const first = await invoiceOf(1_000n);
    const second = await invoiceOf(2_000n);
    await payDevnetInvoice(db, first.paymentRequest);
    await payDevnetInvoice(db, second.paymentRequest);

    // A long poll interval: only the notification can bring the later payment in quickly.
    const other = createDevnetBackend(otherProcessDb, { databaseUrl: database.url, pollIntervalMs: 60_000 });
    const stream = subscribe(other, start);
    await waitFor(() => stream.delivered.length === 2);
    expect(stream.hashes()).toEqual([first.paymentHash, second.paymentHash]);

    const third = await invoiceOf(3_000n);
    await payDevnetInvoice(db, third.paymentRequest);
    await waitFor(() => stream.delivered.length === 3);
    expect(stream.delivered[2]).toMatchObject({ paymentHash: third.paymentHash, amountPaidMsat: 3_000n });
    const indexes = stream.delivered.map((settlement) => settlement.settleIndex);
    expect([...indexes].sort((a, b) => (a < b ? -1 : 1))).toEqual(indexes);
    await stream.stop();

    const resumed = subscribe(other, indexes[1] as bigint);
    await waitFor(() => resumed.delivered.length === 1);
    expect(resumed.hashes()).toEqual([third.paymentHash]);
    await resumed.stop();
  });

  it('keeps every settlement of concurrent payments, in settle-index order', async () => {
    const start = await latestIndex();
    const stream = subscribe(node, start);
    const invoices = await Promise.all(Array.from({ length: 12 }, (_, i) => invoiceOf(BigInt(1_000 + i))));
    await Promise.all(
      invoices.map((invoice, i) => payDevnetInvoice(i % 2 ? db : otherProcessDb, invoice.paymentRequest)),
    );
    await waitFor(() => stream.delivered.length === invoices.length);
    expect(new Set(stream.hashes())).toEqual(new Set(invoices.map((invoice) => invoice.paymentHash)));
    const indexes = stream.delivered.map((settlement) => settlement.settleIndex);
    expect(indexes.every((index, i) => i === 0 || index > (indexes[i - 1] as bigint))).toBe(true);
    await stream.stop();
  });

  it('reconnects after its listening connection is killed, and resumes where it was', async () => {
    const errors: LightningBackendError[] = [];
    const backend = createDevnetBackend(otherProcessDb, {
      databaseUrl: database.url,
      pollIntervalMs: 60_000,
      retryDelayMs: 20,
      onStreamError: (error) => errors.push(error),
    });
    const stream = subscribe(backend, await latestIndex());
    const first = await invoiceOf(1_000n);
    await payDevnetInvoice(db, first.paymentRequest);
    await waitFor(() => stream.delivered.length === 1);

    await waitFor(async () => (await killListeners()) > 0);
    await waitFor(() => errors.length > 0);
    const second = await invoiceOf(2_000n);
    await payDevnetInvoice(db, second.paymentRequest);
    await waitFor(() => stream.delivered.length === 2);
    expect(stream.hashes()).toEqual([first.paymentHash, second.paymentHash]);
    expect(errors[0]).toBeInstanceOf(LightningBackendError);
    await stream.stop();
  });

  it('delivers a settlement again when its handler failed, and nothing after it first', async () => {
    const errors: LightningBackendError[] = [];
    const backend = createDevnetBackend(db, {
      databaseUrl: database.url,
      retryDelayMs: 20,
      onStreamError: (error) => errors.push(error),
    });
    let failuresLeft = 2;
    const attempts: string[] = [];
    const stream = subscribe(backend, await latestIndex(), async (settlement) => {
      attempts.push(settlement.paymentHash);
      if (failuresLeft-- > 0) throw new Error('ledger unavailable');
    });
    const first = await invoiceOf(1_000n);
    const second = await invoiceOf(2_000n);
    await payDevnetInvoice(db, first.paymentRequest);
    await payDevnetInvoice(db, second.paymentRequest);
    await waitFor(() => stream.delivered.length === 2);
    expect(stream.hashes()).toEqual([first.paymentHash, second.paymentHash]);
    expect(attempts.slice(0, 3)).toEqual([first.paymentHash, first.paymentHash, first.paymentHash]);
    expect(errors.map((error) => error.message)).toEqual([
      'devnet settlement stream failed: ledger unavailable',
      'devnet settlement stream failed: ledger unavailable',
    ]);
    await stream.stop();
  });

  it('stops when aborted, also while it waits to retry', async () => {
    let failures = 0;
    const unreachable = createDevnetBackend(db, {
      databaseUrl: 'postgres://nobody:wrong@127.0.0.1:1/none',
      retryDelayMs: 60_000,
      onStreamError: () => {
        failures += 1;
      },
    });
    const stream = subscribe(unreachable, 0n);
    // Its first attempt has failed: it now waits a minute to retry.
    await waitFor(() => failures === 1);
    await stream.stop();
    expect(stream.delivered).toEqual([]);
  });
});

async function latestIndex(): Promise<bigint> {
  const row = await db
    .selectFrom('devnet_invoices')
    .select((eb) => eb.fn.max('settle_index').as('latest'))
    .executeTakeFirst();
  return row?.latest ? BigInt(row.latest) : 0n;
}

/** Ends the server side of every settlement listener, as a database restart would. */
async function killListeners(): Promise<number> {
  const result = await sql<{ killed: boolean }>`
    select pg_terminate_backend(pid) as killed from pg_stat_activity
    where datname = current_database() and query ilike 'listen devnet_settlements%'`.execute(db);
  return result.rows.length;
}
