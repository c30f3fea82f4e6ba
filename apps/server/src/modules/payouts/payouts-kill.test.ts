import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { Account, Bpt, Invoice, SignInResponse } from '@rayo/shared';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type FakeLnd, startFakeLnd } from '../../../test/fakes/lnd-server.ts';
import { type FakeLnurlPay, startFakeLnurlPay } from '../../../test/fakes/lnurl-pay-server.ts';
import { type ServerProcess, startServerProcess } from '../../../test/server-process.ts';
import {
  createTestDatabase,
  createTestOrganization,
  createTestUser,
  type TestDatabase,
} from '../../../test/test-app.ts';
import { waitFor } from '../../../test/wait-for.ts';
import { createDatabase, type Db } from '../../db/database.ts';
import { updateLightningAddress } from '../settings/payout-addresses.repo.ts';
import { countTransactionsForPayment } from '../transactions/transactions.repo.ts';

/**
 * Payouts across crashes: real server processes pay Lightning addresses at a stand-in LNURL
 * service through a stand-in lnd, and are killed with SIGKILL in the middle of it. Whatever the
 * moment of the kill, every sale's Lightning share ends in exactly one sent payout, and the node
 * pays each payout's invoice once.
 */

let lnd: FakeLnd;
let lnurl: FakeLnurlPay;
let certDir: string;
let env: Record<string, string>;

beforeAll(async () => {
  lnd = await startFakeLnd({ network: 'regtest' });
  lnurl = await startFakeLnurlPay(lnd);
  certDir = await mkdtemp(path.join(os.tmpdir(), 'rayo-payouts-kill-'));
  const certPath = path.join(certDir, 'tls.cert');
  await writeFile(certPath, lnd.certPem);
  env = {
    LIGHTNING_BACKEND: 'lnd',
    LND_REST_URL: lnd.url,
    LND_MACAROON_HEX: lnd.macaroonHex,
    LND_TLS_CERT_PATH: certPath,
    LNURL_ALLOW_PRIVATE_HOSTS: 'true',
    RECONCILE_SECONDS: '3600',
    PAYOUT_INTERVAL_SECONDS: '1',
    PAYOUT_MIN_SATS: '1000',
    PAYOUT_RETRY_BASE_SECONDS: '1',
  };
});

afterAll(async () => {
  await lnurl?.close();
  await lnd?.close();
  await rm(certDir, { recursive: true, force: true });
});

async function json<T>(response: Response): Promise<T> {
  if (!response.ok) throw new Error(`${response.status} ${await response.text()}`);
  return (await response.json()) as T;
}

/** `count` shops, each with `sales` sales paid at the node and recorded by `server`. */
async function makeSales(server: ServerProcess, db: Db, count: number, sales: number): Promise<void> {
  for (let i = 0; i < count; i += 1) {
    const organization = await createTestOrganization(db);
    const user = await createTestUser(db, { role: 'admin', organizationId: organization.id });
    await updateLightningAddress(db, organization.id, lnurl.address(`shop${i}`));
    const post = (url: string, body: object, token?: string) =>
      fetch(`${server.url}${url}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...(token && { authorization: `Bearer ${token}` }) },
        body: JSON.stringify(body),
      });
    const { accessToken } = await json<SignInResponse>(
      await post('/api/auth/signin', { email: user.email, password: user.password }),
    );
    const account = await json<Account>(await post('/api/accounts', { name: 'Counter' }, accessToken));
    const bpt = await json<Bpt>(
      await post('/api/bpts', { name: 'Till', accountId: account.id, currency: 'USD' }, accessToken),
    );
    for (let s = 0; s < sales; s += 1) {
      const invoice = await json<Invoice>(await post(`/api/bpts/${bpt.id}/invoices`, { amount: '3.75' }, accessToken));
      lnd.settle(invoice.paymentHash);
      await waitFor(async () => (await countTransactionsForPayment(db, invoice.paymentHash)) === 1, 30_000);
    }
  }
}

/** Sends to the node of each invoice the stand-in service issued in this scenario. */
function sendsOf(hashes: readonly string[]) {
  const byHash = new Map(lnd.remoteInvoices().map((invoice) => [invoice.paymentHash, invoice]));
  return hashes.map((hash) => {
    const invoice = byHash.get(hash);
    const sends = lnd.requests.filter(
      (r) =>
        r.path === '/v2/router/send' &&
        (r.body as { payment_request?: string }).payment_request === invoice?.paymentRequest,
    ).length;
    return { hash, sends, successes: invoice?.successes ?? 0 };
  });
}

/**
 * The scenario's end state: no share is in two payouts (the primary key) nor in none, every
 * payout is sent with the amount of its shares, and the node paid each sent invoice once and no
 * other invoice at all.
 */
async function expectPaidOnceEach(db: Db, issuedFrom: number) {
  const unpaid = await sql<{ n: string }>`
    select count(*) as n from transactions t
    where t.lightning_msat > 0
      and not exists (select 1 from payout_transactions pt where pt.transaction_id = t.id and pt.kind = 'lightning')
  `.execute(db);
  expect(Number(unpaid.rows[0]?.n)).toBe(0);
  const payouts = await db.selectFrom('payouts').selectAll().execute();
  expect(payouts.length).toBeGreaterThan(0);
  expect(payouts.every((payout) => payout.state === 'sent')).toBe(true);
  const sums = await sql<{ payout_id: string; total: string }>`
    select payout_id, sum(amount_msat) as total from payout_transactions group by payout_id
  `.execute(db);
  for (const payout of payouts) {
    expect(sums.rows.find((row) => row.payout_id === payout.id)?.total).toBe(payout.amount_msat);
  }
  const issued = lnurl.issued.slice(issuedFrom);
  const paid = sendsOf(issued).filter((invoice) => invoice.successes > 0);
  expect(paid.every((invoice) => invoice.successes === 1)).toBe(true);
  expect(paid.map((invoice) => invoice.hash).sort()).toEqual(payouts.map((payout) => payout.payment_hash).sort());
  return { payouts, issued };
}

describe('payouts and kill -9', () => {
  let database: TestDatabase;
  let db: Db;
  const servers: ServerProcess[] = [];

  beforeAll(async () => {
    database = await createTestDatabase();
    db = createDatabase(database.url, 2);
  });

  afterAll(async () => {
    await Promise.all(servers.map((server) => server.stop()));
    await db?.destroy();
    await database?.drop();
  });

  async function clean() {
    // Each scenario starts with no server running, so only its own servers touch its payouts.
    for (const server of servers.splice(0)) await server.stop();
    await db.deleteFrom('payouts').execute();
    await db.deleteFrom('transactions').execute();
    lnurl.slowCallbacks(0);
    lnurl.payment({});
  }

  async function start(extra: Record<string, string> = {}) {
    const server = await startServerProcess(database.url, { ...env, ...extra });
    servers.push(server);
    return server;
  }

  it('a kill after the payment was sent: the restarted server asks the node and never pays again', async () => {
    await clean();
    const issuedFrom = lnurl.issued.length;
    const sendsBefore = lnd.requests.length;
    // The node holds each payment in flight for 3 s: long enough for the kill to land in it.
    lnurl.payment({ delayMs: 3000 });
    const first = await start();
    await makeSales(first, db, 3, 2);
    await waitFor(() => lnd.requests.slice(sendsBefore).some((r) => r.path === '/v2/router/send'), 30_000);
    await first.kill();
    expect(lnd.remoteInvoices().some((r) => r.inFlight)).toBe(true);

    await start();
    await waitFor(async () => {
      const open = await db.selectFrom('payouts').select('id').where('state', '!=', 'sent').execute();
      const unbatched = await sql<{ n: string }>`
        select count(*) as n from transactions t where t.lightning_msat > 0
          and not exists (select 1 from payout_transactions pt where pt.transaction_id = t.id)`.execute(db);
      return open.length === 0 && Number(unbatched.rows[0]?.n) === 0;
    }, 60_000);
    const { payouts } = await expectPaidOnceEach(db, issuedFrom);
    // The payment in flight at the kill was finished by the node and found by asking it.
    expect(payouts.length).toBeGreaterThanOrEqual(3);
  }, 150_000);

  it('a kill before the payment was sent: the restarted server fetches an invoice and pays it once', async () => {
    await clean();
    const issuedFrom = lnurl.issued.length;
    // The address's service takes 4 s to answer: the kill lands while the payouts are pending
    // with no invoice stored.
    lnurl.slowCallbacks(4000);
    const first = await start();
    await makeSales(first, db, 2, 1);
    await waitFor(() => lnurl.pendingCallbacks() > 0, 30_000);
    await first.kill();
    const pending = await db.selectFrom('payouts').selectAll().execute();
    expect(pending.length).toBeGreaterThan(0);
    expect(pending.every((payout) => payout.state === 'pending' && payout.payment_hash === null)).toBe(true);

    lnurl.slowCallbacks(0);
    await start();
    await waitFor(async () => {
      const rows = await db.selectFrom('payouts').select('state').execute();
      return rows.length > 0 && rows.every((row) => row.state === 'sent');
    }, 60_000);
    const { issued } = await expectPaidOnceEach(db, issuedFrom);
    // The invoices of the answers the kill cut off were never paid.
    expect(sendsOf(issued).filter((invoice) => invoice.sends === 0).length).toBeGreaterThan(0);
  }, 150_000);

  it('two servers running the payout job at once pay each share once', async () => {
    await clean();
    const issuedFrom = lnurl.issued.length;
    lnurl.payment({ delayMs: 300 });
    const [a] = await Promise.all([start(), start()]);
    await makeSales(a!, db, 3, 2);
    await waitFor(async () => {
      const rows = await db.selectFrom('payouts').select('state').execute();
      const unbatched = await sql<{ n: string }>`
        select count(*) as n from transactions t where t.lightning_msat > 0
          and not exists (select 1 from payout_transactions pt where pt.transaction_id = t.id)`.execute(db);
      return rows.length > 0 && rows.every((row) => row.state === 'sent') && Number(unbatched.rows[0]?.n) === 0;
    }, 60_000);
    await expectPaidOnceEach(db, issuedFrom);
  }, 150_000);
});
