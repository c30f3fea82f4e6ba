import { randomBytes } from 'node:crypto';
import { secp256k1 } from '@noble/curves/secp256k1.js';
import type { Account, Bpt, PaymentLink, PublicCheckout, SignInResponse, VirtualBpt } from '@rayo/shared';
import { HDKey } from '@scure/bip32';
import { p2wpkh } from '@scure/btc-signer';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type FakeEsplora, startFakeEsplora } from '../../../test/fakes/esplora-server.ts';
import { type ServerProcess, startServerProcess } from '../../../test/server-process.ts';
import {
  createTestDatabase,
  createTestOrganization,
  createTestUser,
  type TestDatabase,
} from '../../../test/test-app.ts';
import { waitFor } from '../../../test/wait-for.ts';
import { createDatabase, type Db } from '../../db/database.ts';
import { addressNetwork } from '../../domain/onchain-wallet.ts';

/**
 * On-chain payouts across crashes: real server processes watch a stand-in Esplora (which answers
 * a txid it never saw as real Esplora does: `/tx/:txid/status` → `{"confirmed":false}`,
 * `/tx/:txid` → 404), record on-chain sales, pay the organizations' on-chain shares from the
 * platform's hot wallet in one batch transaction, and are killed with SIGKILL in the middle of
 * it. Whatever the moment of the kill, every share ends in exactly one sent payout whose
 * transaction the chain has, and the chain holds one transaction paying each organization.
 */

let esplora: FakeEsplora;
let database: TestDatabase;
let db: Db;
let env: Record<string, string>;
const servers: ServerProcess[] = [];

beforeAll(async () => {
  esplora = await startFakeEsplora();
  database = await createTestDatabase();
  db = createDatabase(database.url, 2);
  // The platform's hot wallet: Rayo holds the account's keys (BIP 84, test networks).
  const account = HDKey.fromMasterSeed(randomBytes(32), { private: 0x04358394, public: 0x043587cf }).derive(
    "m/84'/1'/0'",
  );
  env = {
    CHAIN_BACKEND: 'esplora',
    ESPLORA_URL: esplora.url,
    CHAIN_NETWORK: 'regtest',
    CHAIN_XPUB: account.publicExtendedKey,
    CHAIN_PAYOUT_XPRV: account.privateExtendedKey,
    CHAIN_POLL_SECONDS: '1',
    CHAIN_PAYOUT_MIN_SATS: '1000',
    PAYOUT_INTERVAL_SECONDS: '1',
    PAYOUT_RETRY_BASE_SECONDS: '1',
    RECONCILE_SECONDS: '3600',
    // $1 is 1,000 sats; the 10 % fee leaves the wallet what the network fee and change need.
    FIXED_RATES: 'USD=100000',
    TX_FEE_PERCENT: '10',
  };
});

afterAll(async () => {
  await Promise.all(servers.map((server) => server.stop()));
  await db?.destroy();
  await database?.drop();
  await esplora?.close();
});

async function start(): Promise<ServerProcess> {
  const server = await startServerProcess(database.url, env);
  servers.push(server);
  return server;
}

/** Each scenario starts with no server running, so only its own servers touch its payouts. */
async function stopAll(): Promise<void> {
  for (const server of servers.splice(0)) await server.stop();
}

async function json<T>(response: Response): Promise<T> {
  if (!response.ok) throw new Error(`${response.status} ${await response.text()}`);
  return (await response.json()) as T;
}

function newAddress(): string {
  return p2wpkh(secp256k1.getPublicKey(secp256k1.utils.randomSecretKey()), addressNetwork('regtest')).address as string;
}

/**
 * `count` shops paid out all on-chain, each with one payment link paid on-chain at the stand-in
 * (its payer's transaction, with 4 confirmations, all in the same blocks) for `server` to record.
 * Returns each shop's payout address.
 */
async function makeOnchainSales(server: ServerProcess, count: number): Promise<Map<string, string>> {
  const destinations = new Map<string, string>();
  const payments: Array<{ address: string; sats: bigint }> = [];
  for (let i = 0; i < count; i += 1) {
    const organization = await createTestOrganization(db);
    const user = await createTestUser(db, { role: 'admin', organizationId: organization.id });
    const destination = newAddress();
    await db
      .updateTable('organizations')
      .set({ onchain_address: destination, payout_fiat_bps: 0, payout_onchain_bps: 10_000, payout_lightning_bps: 0 })
      .where('id', '=', organization.id)
      .execute();
    destinations.set(organization.id, destination);
    const send = (method: string, url: string, body?: object, token?: string) =>
      fetch(`${server.url}${url}`, {
        method,
        headers: { 'content-type': 'application/json', ...(token && { authorization: `Bearer ${token}` }) },
        ...(body && { body: JSON.stringify(body) }),
      });
    const { accessToken } = await json<SignInResponse>(
      await send('POST', '/api/auth/signin', { email: user.email, password: user.password }),
    );
    const account = await json<Account>(await send('POST', '/api/accounts', { name: 'Online' }, accessToken));
    const bpt = await json<Bpt>(
      await send('POST', '/api/bpts', { name: 'Till', accountId: account.id, currency: 'USD' }, accessToken),
    );
    const vbpt = await json<VirtualBpt>(
      await send('POST', '/api/virtual-bpts', { name: 'Web shop', bptId: bpt.id }, accessToken),
    );
    const link = await json<PaymentLink>(
      await send(
        'POST',
        `/api/virtual-bpts/${vbpt.id}/payment-links`,
        { description: `Order ${i}`, amount: '25.00', currency: 'USD' },
        accessToken,
      ),
    );
    const checkout = await json<PublicCheckout>(await send('GET', `/api/public/checkouts/${link.id}`));
    if (!checkout.onchain) throw new Error('no on-chain option');
    payments.push({ address: checkout.onchain.address, sats: BigInt(checkout.onchain.amountSats) });
  }
  for (const payment of payments) esplora.fund(payment.address, payment.sats, { confirmed: false });
  esplora.mine(4);
  return destinations;
}

/** The scenario's organizations' shares: every one in a payout, and every payout sent. */
async function allSent(organizations: string[]): Promise<boolean> {
  // Payouts first: once all are sent they stay so, whatever is written after this read.
  const payouts = await db
    .selectFrom('payouts')
    .select('state')
    .where('organization_id', 'in', organizations)
    .execute();
  const unbatched = await sql<{ n: string }>`
    select count(*) as n from transactions t
    where t.organization_id in (${sql.join(organizations)}) and t.onchain_msat > 0
      and not exists (select 1 from payout_transactions pt where pt.transaction_id = t.id and pt.kind = 'onchain')
  `.execute(db);
  return (
    payouts.length === organizations.length &&
    payouts.every((payout) => payout.state === 'sent') &&
    Number(unbatched.rows[0]?.n) === 0
  );
}

/**
 * Exactly once: each organization has one sent payout of its shares' whole sats, carrying a txid
 * the chain has, and the chain holds exactly one transaction paying its address, that amount.
 */
async function expectPaidOnceOnChain(destinations: Map<string, string>) {
  const organizations = [...destinations.keys()];
  const payouts = await db.selectFrom('payouts').selectAll().where('organization_id', 'in', organizations).execute();
  expect(payouts.map((payout) => payout.state)).toEqual(organizations.map(() => 'sent'));
  const batches = new Set(payouts.map((payout) => payout.batch_id));
  for (const payout of payouts) {
    const shares = await sql<{ total: string }>`
      select sum(amount_msat) as total from payout_transactions where payout_id = ${payout.id}`.execute(db);
    const wholeSats = BigInt(shares.rows[0]?.total ?? 0) / 1000n;
    expect(BigInt(payout.amount_msat)).toBe(wholeSats * 1000n);
    const destination = destinations.get(payout.organization_id) as string;
    const paying = esplora.chain
      .all()
      .filter((entry) => esplora.chain.outputs(entry).some((output) => output.address === destination));
    expect(paying.map((entry) => entry.txid)).toEqual([payout.txid]);
    const [entry] = paying;
    if (!entry) throw new Error(`nothing pays ${destination}`);
    expect(esplora.chain.outputs(entry).find((output) => output.address === destination)?.value).toBe(wholeSats);
  }
  return { payouts, batches };
}

describe('on-chain payouts and kill -9', () => {
  it('a kill while the broadcast is under way: the restarted server finds the transaction and sends nothing again', async () => {
    await stopAll();
    // The node takes the transaction, but its answer never reaches the server that sent it.
    const held = esplora.hold('POST', /^\/tx$/);
    const broadcastsBefore = esplora.broadcasts.length;
    const first = await start();
    const destinations = await makeOnchainSales(first, 2);
    await held.arrived;
    await first.kill();
    held.release();
    const [batch] = await db.selectFrom('onchain_payout_batches').selectAll().orderBy('created_at', 'desc').execute();
    expect(batch?.state).toBe('signed');
    expect(esplora.chain.get(batch?.txid ?? '')?.blockHeight).toBeNull();

    await start();
    await waitFor(() => allSent([...destinations.keys()]), 60_000);
    const { batches } = await expectPaidOnceOnChain(destinations);
    expect(batches.has(batch?.id ?? null)).toBe(true);
    // The batch under way was found on the chain by its txid, not sent again: one broadcast each.
    expect(esplora.broadcasts.length - broadcastsBefore).toBe(batches.size);
  }, 150_000);

  it('a kill after the batch was written and before it was broadcast: the restarted server broadcasts it', async () => {
    await stopAll();
    // The first question a new batch asks the chain about its own txid gets no answer in time.
    const held = esplora.hold('GET', (path) => {
      const txid = /^\/tx\/([0-9a-f]{64})(\/status)?$/.exec(path)?.[1];
      return txid !== undefined && esplora.chain.get(txid) === undefined;
    });
    const first = await start();
    const destinations = await makeOnchainSales(first, 2);
    await held.arrived;
    await first.kill();
    held.release();
    const [batch] = await db.selectFrom('onchain_payout_batches').selectAll().orderBy('created_at', 'desc').execute();
    expect(batch?.state).toBe('signed');
    // The chain has never seen it: Esplora's /status answers as for a transaction in its mempool.
    expect(esplora.chain.get(batch?.txid ?? '')).toBeUndefined();
    expect(await (await fetch(`${esplora.url}/tx/${batch?.txid}/status`)).json()).toEqual({ confirmed: false });

    await start();
    await waitFor(() => allSent([...destinations.keys()]), 60_000);
    const { batches } = await expectPaidOnceOnChain(destinations);
    expect(batches.has(batch?.id ?? null)).toBe(true);
    expect(esplora.chain.get(batch?.txid ?? '')?.hex).toBe(batch?.raw_tx);
  }, 150_000);

  it('two servers running the payout job at once pay each organization once', async () => {
    await stopAll();
    const [a] = await Promise.all([start(), start()]);
    const destinations = await makeOnchainSales(a as ServerProcess, 3);
    await waitFor(() => allSent([...destinations.keys()]), 60_000);
    await expectPaidOnceOnChain(destinations);
  }, 150_000);
});
