import type { Invoice } from '@rayo/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ServerProcess, startServerProcess } from '../../../test/server-process.ts';
import { json, openShop } from '../../../test/server-shop.ts';
import { openSse } from '../../../test/sse.ts';
import { createTestDatabase, type TestDatabase } from '../../../test/test-app.ts';
import { waitFor } from '../../../test/wait-for.ts';
import { payDevnetInvoice } from '../../adapters/lightning/devnet.ts';
import { createDatabase, type Db } from '../../db/database.ts';
import { countTransactionsForPayment } from '../transactions/transactions.repo.ts';

/**
 * Reconcile far away, so that only the settlement stream can record what these tests pay; debug
 * logs say what each process's stream made of each payment.
 */
const STREAM_ONLY = { RECONCILE_SECONDS: '3600', LOG_LEVEL: 'debug' };

/**
 * What `server`'s settlement stream made of the payment: whether it recorded it, or 'failed'
 * once the stream logged a failure; undefined while it has not come to it.
 */
function followed(server: ServerProcess, paymentHash: string): boolean | 'failed' | undefined {
  // The last piece may be a line still being written.
  for (const line of server.output().split('\n').slice(0, -1)) {
    if (!line.startsWith('{')) continue;
    const entry = JSON.parse(line) as { msg?: string; paymentHash?: string; recorded?: boolean };
    if (entry.msg?.includes('settlement stream')) return 'failed';
    if (entry.msg === 'settlement followed' && entry.paymentHash === paymentHash) return entry.recorded;
  }
  return undefined;
}

describe('two server processes on one database', () => {
  let database: TestDatabase;
  let db: Db;
  let a: ServerProcess;
  let b: ServerProcess;

  beforeAll(async () => {
    database = await createTestDatabase();
    db = createDatabase(database.url, 2);
    [a, b] = await Promise.all([
      startServerProcess(database.url, STREAM_ONLY),
      startServerProcess(database.url, STREAM_ONLY),
    ]);
  });
  afterAll(async () => {
    await Promise.all([a?.stop(), b?.stop()]);
    await db.destroy();
    await database.drop();
  });

  it('a watcher on one process hears of a payment the other recorded, and the sale is recorded once', async () => {
    const shop = await openShop(a.url, db);
    const invoice = await shop.charge();
    const events = await openSse(`${b.url}/api/invoices/${invoice.id}/events`);
    expect((await events.next()).data).toEqual({ id: invoice.id, status: 'pending' });

    const paid = await fetch(`${a.url}/api/devnet/pay`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ paymentRequest: invoice.paymentRequest }),
    });
    expect(paid.status).toBe(200);
    expect((await events.next(10_000)).data).toEqual({ id: invoice.id, status: 'settled' });
    events.close();
    // Both processes follow the same settlement stream: one records the sale, the other's report
    // of it changes nothing, and the ledger has one row.
    let outcomes: (boolean | 'failed' | undefined)[] = [];
    await waitFor(async () => {
      outcomes = [a, b].map((server) => followed(server, invoice.paymentHash));
      return outcomes.every((outcome) => outcome !== undefined);
    });
    expect(outcomes.sort()).toEqual([false, true]);
    expect(await countTransactionsForPayment(db, invoice.paymentHash)).toBe(1);
  });
});

describe('a server killed between the settlement and the ledger write', () => {
  let database: TestDatabase;
  let db: Db;
  let server: ServerProcess | undefined;

  beforeAll(async () => {
    database = await createTestDatabase();
    db = createDatabase(database.url, 2);
  });
  afterAll(async () => {
    await server?.stop();
    await db.destroy();
    await database.drop();
  });

  it('records the sale once after a restart', async () => {
    server = await startServerProcess(database.url, STREAM_ONLY);
    const shop = await openShop(server.url, db);
    const invoice = await shop.charge();

    // SIGKILL: no shutdown code runs. The node then settles the payment while Rayo is down,
    // so the settlement exists on the node and not in the ledger.
    server.child.kill('SIGKILL');
    await server.stop();
    await payDevnetInvoice(db, invoice.paymentRequest);
    expect(await countTransactionsForPayment(db, invoice.paymentHash)).toBe(0);

    server = await startServerProcess(database.url, STREAM_ONLY);
    await waitFor(async () => (await countTransactionsForPayment(db, invoice.paymentHash)) === 1);
    const status = await json<Invoice>(await fetch(`${server.url}/api/invoices/${invoice.id}`));
    expect(status.status).toBe('settled');

    // A second restart replays nothing twice: its stream follows settlements in order, so once it
    // has recorded a later sale it is past this one.
    await server.stop();
    const restarted = await startServerProcess(database.url, STREAM_ONLY);
    server = restarted;
    const later = await (await openShop(restarted.url, db)).charge();
    await payDevnetInvoice(db, later.paymentRequest);
    await waitFor(async () => followed(restarted, later.paymentHash) !== undefined);
    expect(followed(restarted, later.paymentHash)).toBe(true);
    expect(await countTransactionsForPayment(db, invoice.paymentHash)).toBe(1);
  });
});
