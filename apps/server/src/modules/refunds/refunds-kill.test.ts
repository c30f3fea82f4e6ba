import { createHash, randomBytes } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { secp256k1 } from '@noble/curves/secp256k1.js';
import { bytesToHex } from '@noble/hashes/utils.js';
import type { Refund } from '@rayo/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type FakeLnd, type RemoteInvoice, startFakeLnd } from '../../../test/fakes/lnd-server.ts';
import { type ServerProcess, startServerProcess } from '../../../test/server-process.ts';
import { json, openShop } from '../../../test/server-shop.ts';
import { createTestDatabase, type TestDatabase } from '../../../test/test-app.ts';
import { waitFor } from '../../../test/wait-for.ts';
import { createDatabase, type Db } from '../../db/database.ts';
import { encodeBolt11 } from '../../domain/bolt11.ts';
import { countTransactionsForPayment } from '../transactions/transactions.repo.ts';

/**
 * Refunds across a real crash: a server process pays a refund to the customer's invoice through
 * the lnd stand-in, which holds the payment in flight, and is killed with SIGKILL in the middle
 * of it. The restarted server asks the node before anything else, so the customer is paid once
 * and the refund is recorded once, whether the payment ends while no server runs or after.
 */

let lnd: FakeLnd;
let certDir: string;
let env: Record<string, string>;
let database: TestDatabase;
let db: Db;
const servers: ServerProcess[] = [];

beforeAll(async () => {
  lnd = await startFakeLnd({ network: 'regtest' });
  certDir = await mkdtemp(path.join(os.tmpdir(), 'rayo-refunds-kill-'));
  const certPath = path.join(certDir, 'tls.cert');
  await writeFile(certPath, lnd.certPem);
  env = {
    LIGHTNING_BACKEND: 'lnd',
    LND_REST_URL: lnd.url,
    LND_MACAROON_HEX: lnd.macaroonHex,
    LND_TLS_CERT_PATH: certPath,
    RECONCILE_SECONDS: '3600',
    // The refund pass runs every second, so the restarted server takes up the refund at once.
    PAYOUT_INTERVAL_SECONDS: '1',
  };
  database = await createTestDatabase();
  db = createDatabase(database.url, 2);
});

afterAll(async () => {
  await Promise.all(servers.map((server) => server.stop()));
  await db?.destroy();
  await database?.drop();
  await lnd?.close();
  await rm(certDir, { recursive: true, force: true });
});

async function start(): Promise<ServerProcess> {
  const server = await startServerProcess(database.url, env);
  servers.push(server);
  return server;
}

/** One sale of a new shop, paid at the node and recorded by `server`. */
async function paidSale(server: ServerProcess) {
  const shop = await openShop(server.url, db);
  const invoice = await shop.charge();
  lnd.settle(invoice.paymentHash);
  await waitFor(async () => (await countTransactionsForPayment(db, invoice.paymentHash)) === 1, 30_000);
  return { shop, invoice };
}

/** The customer's wallet: an invoice for `amountMsat` of another node, whose payment lnd holds. */
function customerInvoice(amountMsat: bigint): RemoteInvoice {
  const key = secp256k1.utils.randomSecretKey();
  const preimage = randomBytes(32);
  const paymentHash = createHash('sha256').update(preimage).digest('hex');
  const paymentRequest = encodeBolt11(
    {
      currency: 'bcrt',
      amountMsat,
      timestamp: Math.floor(Date.now() / 1000),
      paymentHash,
      paymentSecret: randomBytes(32).toString('hex'),
      description: 'Refund',
      expirySeconds: 3600,
      minFinalCltvExpiry: 80,
    },
    key,
  );
  return lnd.addRemoteInvoice({
    amountMsat,
    held: true,
    signed: {
      paymentRequest,
      paymentHash,
      preimage: preimage.toString('hex'),
      destination: bytesToHex(secp256k1.getPublicKey(key, true)),
    },
  });
}

function sendsOf(paymentRequest: string): number {
  return lnd.requests.filter(
    (r) => r.path === '/v2/router/send' && (r.body as { payment_request?: string }).payment_request === paymentRequest,
  ).length;
}

/** A refund to the customer's invoice, made on `server`, whose payment is now held at the node. */
async function refundInFlight(server: ServerProcess) {
  const { shop, invoice } = await paidSale(server);
  const wallet = customerInvoice(BigInt(invoice.amountMsat));
  const refund = await json<Refund>(
    await shop.post(`/api/transactions/${invoice.id}/refunds`, {
      amountMsat: invoice.amountMsat,
      idempotencyKey: `kill-${wallet.paymentHash}`,
      destination: wallet.paymentRequest,
    }),
  );
  expect(refund.state).toBe('paying');
  await waitFor(() => wallet.inFlight || undefined, 30_000);
  return { refund, wallet, invoice };
}

async function expectPaidOnce(refundId: string, wallet: RemoteInvoice, transactionMsat: number) {
  const rows = await db.selectFrom('refunds').selectAll().where('payment_hash', '=', wallet.paymentHash).execute();
  expect(rows).toHaveLength(1);
  expect(rows[0]).toMatchObject({ id: refundId, state: 'paid', preimage: wallet.preimage });
  expect(wallet.successes).toBe(1);
  expect(sendsOf(wallet.paymentRequest)).toBe(1);
  // The ledger counted the refund once.
  const sale = await db
    .selectFrom('transactions')
    .select(['refunded_msat'])
    .where('id', '=', rows[0]?.transaction_id as string)
    .executeTakeFirstOrThrow();
  expect(BigInt(sale.refunded_msat)).toBe(BigInt(transactionMsat));
}

describe('refunds and kill -9', () => {
  it('a kill while the node holds the payment: the restarted server waits for it and records it once', async () => {
    const first = await start();
    const { refund, wallet, invoice } = await refundInFlight(first);
    await first.kill();
    expect((await db.selectFrom('refunds').select('state').where('id', '=', refund.id).executeTakeFirst())?.state).toBe(
      'paying',
    );

    const second = await start();
    // The restarted server's passes ask the node and find the payment still in flight.
    const tracksBefore = lnd.requests.filter((r) => r.path.startsWith('/v2/router/track')).length;
    await waitFor(
      () => lnd.requests.filter((r) => r.path.startsWith('/v2/router/track')).length > tracksBefore + 1 || undefined,
      30_000,
    );
    expect(sendsOf(wallet.paymentRequest)).toBe(1);
    lnd.releasePayment(wallet.paymentHash);
    await waitFor(async () => {
      const row = await db.selectFrom('refunds').select('state').where('id', '=', refund.id).executeTakeFirst();
      return row?.state === 'paid' || undefined;
    }, 30_000);
    await second.stop();
    await expectPaidOnce(refund.id, wallet, invoice.amountMsat);
  }, 150_000);

  it('a kill, and the payment ends while no server runs: the restarted server records it without paying again', async () => {
    const first = await start();
    const { refund, wallet, invoice } = await refundInFlight(first);
    await first.kill();
    lnd.releasePayment(wallet.paymentHash);
    expect(wallet.successes).toBe(1);

    const second = await start();
    await waitFor(async () => {
      const row = await db.selectFrom('refunds').select('state').where('id', '=', refund.id).executeTakeFirst();
      return row?.state === 'paid' || undefined;
    }, 30_000);
    await second.stop();
    await expectPaidOnce(refund.id, wallet, invoice.amountMsat);
  }, 150_000);
});
