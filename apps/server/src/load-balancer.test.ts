import type {
  Account,
  Bpt,
  CreatedWebhookEndpoint,
  Invoice,
  PublicCheckout,
  SignInResponse,
  StoreCheckout,
  VirtualBpt,
} from '@rayo/shared';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Balancer, findHaproxy, startBalancer } from '../test/haproxy.ts';
import { type ServerProcess, startServerProcess } from '../test/server-process.ts';
import { type StatusWatcher, watchStatus } from '../test/sse.ts';
import { createTestDatabase, createTestOrganization, createTestUser, type TestDatabase } from '../test/test-app.ts';
import { waitFor } from '../test/wait-for.ts';
import { findJobHolder, startReceiver } from '../test/webhook-receiver.ts';
import { createDatabase, type Db } from './db/database.ts';
import { countTransactionsForPayment } from './modules/transactions/transactions.repo.ts';
import { freePort } from './ports.ts';

/**
 * Three real server processes on one PostgreSQL behind HAProxy, driven only through the balancer as
 * terminals, checkout pages and a store's webhook receiver would be: one process is killed with
 * SIGKILL in the middle, then all three are restarted one by one (docs/scaling.md).
 */

const haproxy = findHaproxy();
if (!haproxy && process.env.CI) throw new Error('HAProxy is missing: apt-get install haproxy (.ci/run does)');
if (!haproxy) console.warn('Skipping the load-balancer test: HAProxy is not installed (apt-get install haproxy)');

const RECONCILE_SECONDS = 2;
const ENV = {
  SEED_DEMO: 'false',
  WEBHOOK_ALLOW_PRIVATE_HOSTS: 'true',
  TRUST_PROXY: '1',
  // The periodic passes' starts are logged at debug.
  LOG_LEVEL: 'debug',
  RECONCILE_SECONDS: String(RECONCILE_SECONDS),
  // Longer than the balancer needs to see /api/ready fail (2 checks 250 ms apart).
  SHUTDOWN_DRAIN_SECONDS: '1',
};
/** Each periodic pass's interval under ENV (jobs/payment-jobs.ts). */
const INTERVALS_MS: Record<string, number> = {
  'expire-invoices': 5000,
  'expire-checkouts': 5000,
  'reconcile-invoices': RECONCILE_SECONDS * 1000,
  'watch-checkout-payments': 2000,
};

/** `promise`, or a failure naming `what` once `ms` have passed. */
async function within<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what} within ${ms} ms`)), ms);
  });
  try {
    return await Promise.race([promise, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

const MIXED = ['terminal', 'checkout', 'terminal', 'checkout', 'terminal', 'checkout'] as const;

type Sale = { kind: 'terminal' | 'checkout'; id: string; paymentRequest: string; paymentHash?: string };

describe.skipIf(!haproxy)('three server processes behind HAProxy', () => {
  let database: TestDatabase;
  let db: Db;
  let balancer: Balancer;
  const ports: Record<string, number> = {};
  const servers = new Map<string, ServerProcess>();
  /** Every process started, killed and stopped ones included, for their logs. */
  const everyProcess: ServerProcess[] = [];
  let secret = '';
  let receiver: Awaited<ReturnType<typeof startReceiver>>;
  let token = '';
  let bpt: Bpt;

  const start = async (name: string) => {
    const server = await startServerProcess(database.url, { ...ENV, PORT: String(ports[name]) });
    servers.set(name, server);
    everyProcess.push(server);
    return server;
  };

  async function call<T>(method: 'GET' | 'POST', path: string, body?: object): Promise<T> {
    const response = await fetch(`${balancer.url}${path}`, {
      method,
      headers: {
        ...(body && { 'content-type': 'application/json' }),
        ...(token && { authorization: `Bearer ${token}` }),
      },
      body: body && JSON.stringify(body),
    });
    const text = await response.text();
    if (!response.ok) throw new Error(`${method} ${path}: ${response.status} ${text}`);
    return JSON.parse(text) as T;
  }

  beforeAll(async () => {
    database = await createTestDatabase();
    db = createDatabase(database.url, 2);
    receiver = await startReceiver(() => secret);
    for (const name of ['a', 'b', 'c']) ports[name] = await freePort();
    await Promise.all(Object.keys(ports).map(start));
    balancer = await startBalancer(haproxy as string, ports);
    await waitFor(async () => [...(await balancer.states()).values()].every((state) => state === 'UP'));

    const organization = await createTestOrganization(db);
    const user = await createTestUser(db, { role: 'admin', organizationId: organization.id });
    token = (await call<SignInResponse>('POST', '/api/auth/signin', { email: user.email, password: user.password }))
      .accessToken;
    const account = await call<Account>('POST', '/api/accounts', { name: 'Counter' });
    bpt = await call<Bpt>('POST', '/api/bpts', { name: 'Till', accountId: account.id, currency: 'USD' });
    await call<VirtualBpt>('POST', '/api/virtual-bpts', { name: 'Web shop', bptId: bpt.id });
    secret = (
      await call<CreatedWebhookEndpoint>('POST', '/api/webhooks', { url: receiver.url(), events: ['checkout.paid'] })
    ).secret;
  }, 180_000);

  afterAll(async () => {
    await balancer?.stop();
    await Promise.all([...servers.values()].map((server) => server.stop()));
    await receiver?.stop();
    await db?.destroy();
    await database?.drop();
  });

  let orders = 0;
  /** A terminal charge or a store checkout, made through the balancer. */
  async function sell(kind: Sale['kind']): Promise<Sale> {
    if (kind === 'terminal') {
      const invoice = await call<Invoice>('POST', `/api/bpts/${bpt.id}/invoices`, { amount: '2.50' });
      return { kind, id: invoice.id, paymentRequest: invoice.paymentRequest, paymentHash: invoice.paymentHash };
    }
    orders += 1;
    const checkout = await call<StoreCheckout>('POST', '/api/checkouts', {
      amount: '4.00',
      currency: 'USD',
      orderId: `order-${orders}`,
    });
    const page = await call<PublicCheckout>('GET', `/api/public/checkouts/${checkout.id}`);
    if (!page.invoice) throw new Error('the checkout has no invoice');
    return { kind, id: checkout.id, paymentRequest: page.invoice.paymentRequest };
  }

  /** What the terminal or the checkout page of a sale shows: its status stream, through the balancer. */
  function watch(sale: Sale): StatusWatcher {
    return sale.kind === 'terminal'
      ? watchStatus(`${balancer.url}/api/invoices/${sale.id}/events`, 'settled')
      : watchStatus(`${balancer.url}/api/public/checkouts/${sale.id}/events`, 'paid');
  }

  /**
   * Pays from the devnet wallet, as a payer would, asking again when the answer is lost with the
   * process that was to give it; an invoice the first try paid is then "already paid".
   */
  async function pay(sale: Sale): Promise<void> {
    for (let attempt = 0; ; attempt++) {
      const response = await fetch(`${balancer.url}/api/devnet/pay`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ paymentRequest: sale.paymentRequest }),
      }).catch(() => undefined);
      if (response?.ok) return;
      const body = response ? ((await response.json().catch(() => ({}))) as { code?: string }) : {};
      if (attempt > 0 && body.code === 'InvoiceNotPending') return;
      if (response && response.status < 500) throw new Error(`paying answered ${response.status}`);
      if (attempt === 5) throw new Error('paying failed five times');
      await new Promise((resolve) => setTimeout(resolve, 500));
    }
  }

  /** The sale's rows in the ledger: one per payment, whichever process recorded it. */
  async function ledgerRows(sale: Sale): Promise<number> {
    if (sale.paymentHash) return countTransactionsForPayment(db, sale.paymentHash);
    const { rows } = await sql<{ count: string }>`
      select count(*) from transactions t join invoices i on i.id = t.invoice_id
      where i.source_id = ${sale.id}`.execute(db);
    return Number(rows[0]?.count);
  }

  /** `periodic pass started` lines of every process, by task: the database's start of each run. */
  function periodicStarts(): Map<string, number[]> {
    const starts = new Map<string, number[]>();
    for (const server of everyProcess) {
      for (const line of server.output().split('\n')) {
        if (!line.includes('"periodic pass started"')) continue;
        try {
          const entry = JSON.parse(line) as { task: string; startedAt: string };
          starts.set(entry.task, [...(starts.get(entry.task) ?? []), Date.parse(entry.startedAt)]);
        } catch {
          // A line cut by another stream's chunk; the starts either side of it stay in order.
        }
      }
    }
    for (const list of starts.values()) list.sort((x, y) => x - y);
    return starts;
  }

  it('a process killed in the middle loses no payment, no watcher and no webhook, and runs no pass twice', async () => {
    const sales = await Promise.all(MIXED.map(sell));
    const watchers = sales.map(watch);
    try {
      // The first paid checkout's webhook is held at the receiver, unanswered: the process sending
      // it is the one killed, while it waits.
      const held = receiver.holdNext();
      await Promise.all(sales.slice(0, 2).map(pay));
      const deliveryId = await held;
      const holder = await findJobHolder(db, deliveryId);
      const victimName = [...servers.entries()].find(([, server]) => server.child.pid === holder?.pid)?.[0];
      if (!victimName) throw new Error('no process holds the held delivery');
      // The victim also serves some of the watchers' streams; more are opened until it does.
      for (let more = 0; ((await balancer.sessions()).get(victimName) ?? 0) === 0; more++) {
        if (more === 6) throw new Error(`the balancer sends no stream to ${victimName}`);
        const sale = await sell('terminal');
        sales.push(sale);
        watchers.push(watch(sale));
        await waitFor(() => (watchers.at(-1)?.opens() ?? 0) > 0);
      }

      await servers.get(victimName)?.kill();
      const killedAt = Date.now();
      // Sales go on through the balancer while it finds out.
      const later = await Promise.all(MIXED.slice(0, 4).map(sell));
      sales.push(...later);
      watchers.push(...later.map(watch));
      await Promise.all(sales.slice(2).map(pay));

      // Every terminal and checkout page is told it was paid, those that lost their process too.
      await within(Promise.all(watchers.map((watcher) => watcher.told)), 60_000, 'a watcher was not told');
      expect(watchers.filter((watcher) => watcher.opens() > 1).length).toBeGreaterThan(0);
      // Every payment is recorded once.
      for (const sale of sales) expect(await ledgerRows(sale)).toBe(1);

      // Every webhook is delivered once: the held one arrived twice, the first time unanswered.
      const deliveries = await waitFor(async () => {
        const rows = await db
          .selectFrom('webhook_deliveries')
          .select(['id', 'delivered_at'])
          .where('type', '=', 'checkout.paid')
          .execute();
        return rows.length === 5 && rows.every((row) => row.delivered_at !== null) ? rows : undefined;
      }, 60_000);
      for (const { id } of deliveries) {
        expect(receiver.received.filter((arrival) => arrival.deliveryId === id)).toHaveLength(1);
        expect(receiver.arrivals.filter((arrival) => arrival === id)).toHaveLength(id === deliveryId ? 2 : 1);
      }
      expect(receiver.received.every((arrival) => arrival.valid)).toBe(true);

      // Every periodic pass runs on, once per interval whichever process runs it: after the kill
      // too, and the passes the victim held included.
      await waitFor(() =>
        Object.keys(INTERVALS_MS).every((task) => (periodicStarts().get(task) ?? []).some((at) => at > killedAt)),
      );
      const starts = periodicStarts();
      for (const [task, interval] of Object.entries(INTERVALS_MS)) {
        const runs = starts.get(task) ?? [];
        const gaps = runs.slice(1).map((at, i) => at - (runs[i] as number));
        expect(
          gaps.filter((gap) => gap < interval),
          task,
        ).toEqual([]);
      }

      // The killed process comes back on its port.
      await start(victimName);
      await waitFor(async () => (await balancer.states()).get(victimName) === 'UP');
    } finally {
      for (const watcher of watchers) watcher.close();
    }
  }, 180_000);

  it('a rolling restart loses no request and no watcher', async () => {
    const sales = await Promise.all(MIXED.map(sell));
    const watchers = sales.map(watch);
    await waitFor(() => watchers.every((watcher) => watcher.opens() > 0));
    // Terminals keep charging and reading the whole time.
    const failures: string[] = [];
    let requests = 0;
    let restarting = true;
    const traffic = (async () => {
      while (restarting) {
        try {
          const invoice = await call<Invoice>('POST', `/api/bpts/${bpt.id}/invoices`, { amount: '1.00' });
          await call<Invoice>('GET', `/api/invoices/${invoice.id}`);
          requests += 2;
        } catch (error) {
          failures.push(String(error));
        }
      }
    })();
    try {
      for (const name of Object.keys(ports)) {
        // SIGTERM: /api/ready fails, the balancer stops sending, the streams are told to reconnect.
        const stopping = servers.get(name);
        await stopping?.stop();
        // It stopped by itself, not by the shutdown's deadline: nothing held it.
        expect(stopping?.output()).toContain('"msg":"stopped"');
        await start(name);
        await waitFor(async () => (await balancer.states()).get(name) === 'UP');
      }
    } finally {
      restarting = false;
      await traffic;
    }
    try {
      expect(failures).toEqual([]);
      expect(requests).toBeGreaterThan(0);
      await Promise.all(sales.map(pay));
      await within(Promise.all(watchers.map((watcher) => watcher.told)), 60_000, 'a watcher was not told');
      // Every stream was on a process that stopped, and was told to come back: none failed.
      for (const watcher of watchers) {
        expect(watcher.opens()).toBeGreaterThan(1);
        expect(watcher.reopened()).toBe(0);
      }
      for (const sale of sales) expect(await ledgerRows(sale)).toBe(1);
    } finally {
      for (const watcher of watchers) watcher.close();
    }
  }, 180_000);
});
