import { randomBytes } from 'node:crypto';
import type { OnchainWalletSummary, PayoutPage } from '@rayo/shared';
import { Transaction as BitcoinjsTransaction, address as bitcoinjsAddress, networks } from 'bitcoinjs-lib';
import type { JobHelpers } from 'graphile-worker';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type OnchainShop, openOnchainShop, sellByLightning } from '../../../test/onchain-shop.ts';
import { bearer, createTestApp, createTestUser, signIn, type TestApp } from '../../../test/test-app.ts';
import { createDevnetChain, mineDevnetBlocks, sendDevnetPayment } from '../../adapters/chain/devnet.ts';
import type { ChainBackend } from '../../adapters/chain/types.ts';
import { accountKeyFromSeed, deriveReceiveAddress } from '../../domain/onchain-wallet.ts';
import { systemContext } from '../../http/request-context.ts';
import { paymentPasses } from '../../jobs/payment-jobs.ts';
import { type PeriodicPass, periodicTask } from '../../jobs/periodic.ts';
import { listAuditEntries } from '../audit/audit.repo.ts';
import { listNotifications } from '../notifications/notifications.repo.ts';
import { runOnchainPayouts } from './payouts-onchain.service.ts';

// The devnet chain and its hot wallet. USD at $100,000 per bitcoin: $1 is 1,000 sats; a 1 % fee.
// Sales are paid by Lightning and split 100 % on-chain, so they owe on-chain payouts without
// funding the platform wallet: only its deposit address does.
let t: TestApp;
let chain: ChainBackend;
let backOffice: { authorization: string };
let backOfficeEmail: string;
const log = { debug: () => {}, info: () => {}, warn: () => {} };
const merchantWallet = accountKeyFromSeed(randomBytes(32));
let nextAddress = 0;

beforeAll(async () => {
  t = await createTestApp(
    { FIXED_RATES: 'USD=100000', TX_FEE_PERCENT: '1', CHAIN_PAYOUT_MIN_SATS: '2000' },
    { jobs: false },
  );
  chain = createDevnetChain(t.db);
  const staff = await createTestUser(t.db, { role: 'back_office', organizationId: null });
  backOfficeEmail = staff.email;
  backOffice = bearer((await signIn(t.app, staff.email, staff.password)).accessToken);
});

afterAll(async () => {
  await t?.close();
});

function run() {
  return runOnchainPayouts(systemContext('pay-onchain-payouts'), { db: t.db, config: t.config, chain }, log);
}

async function call<T>(method: 'GET' | 'POST', url: string, headers?: { authorization: string }, payload?: object) {
  const response = await t.app.inject({ method, url, headers, ...(payload ? { payload } : {}) });
  expect(response.statusCode, response.body).toBeLessThan(300);
  return response.json() as T;
}

/** A shop paid out all on-chain, at an address of the merchants' wallet unless told otherwise. */
function openShop(options: { address?: boolean } = {}) {
  const destination = deriveReceiveAddress(merchantWallet, nextAddress++, 'regtest');
  return openOnchainShop(t, options.address === false ? null : destination);
}

/** A sale of `dollars` paid by Lightning from the devnet wallet and recorded. */
function sell(shop: OnchainShop, dollars: string) {
  return sellByLightning(t, shop, dollars);
}

/** Back office funds the platform wallet at its deposit address; the payment is confirmed. */
async function deposit(sats: bigint): Promise<string> {
  const { address } = await call<{ address: string }>(
    'POST',
    '/api/back-office/onchain-wallet/deposit-address',
    backOffice,
  );
  await sendDevnetPayment(t.db, address, sats);
  await mineDevnetBlocks(t.db, 1);
  return address;
}

function summary() {
  return call<OnchainWalletSummary>('GET', '/api/back-office/onchain-wallet', backOffice);
}

async function waitingOf(shop: { admin: { authorization: string } }) {
  return (await call<PayoutPage>('GET', '/api/settings/payouts', shop.admin)).onchainWaiting;
}

function payoutsOf(organizationId: string) {
  return t.db.selectFrom('payouts').selectAll().where('organization_id', '=', organizationId).execute();
}

function fundsNotices(organizationId: string) {
  return listNotifications(t.db, { organizationId }).then((all) =>
    all.filter((notice) => notice.kind === 'payout.waiting_funds'),
  );
}

describe('on-chain payouts the platform wallet cannot all cover', () => {
  it('pays those it covers, oldest debt first, and tells who waits for funds, back office once', async () => {
    const older = await openShop();
    const big = await openShop();
    const younger = await openShop();
    await sell(older, '30.00'); // 29,700 sats owed
    await sell(big, '100.00'); // 99,000
    await sell(younger, '20.00'); // 19,800
    const salesBefore = await t.db.selectFrom('transactions').select('id').execute();
    await deposit(60_000n);
    // The deposit is the platform's own money, not a sale.
    expect(await t.db.selectFrom('transactions').select('id').execute()).toHaveLength(salesBefore.length);

    await run();
    // 60,000 sats cover the oldest debt, not the next (99,000), and then the youngest.
    expect((await payoutsOf(older.id)).map((p) => [p.state, p.amount_msat])).toEqual([['sent', '29700000']]);
    expect((await payoutsOf(younger.id)).map((p) => [p.state, p.amount_msat])).toEqual([['sent', '19800000']]);
    expect(await payoutsOf(big.id)).toEqual([]);
    const [batch] = await t.db.selectFrom('onchain_payout_batches').selectAll().execute();
    const paid = BitcoinjsTransaction.fromHex(batch?.raw_tx as string).outs.map((out) =>
      bitcoinjsAddress.fromOutputScript(out.script, networks.regtest),
    );
    expect(paid.slice(0, 2)).toEqual([older.destination, younger.destination]);

    expect(await waitingOf(big)).toMatchObject({ owedSats: 99_000, reason: 'wallet_funds', minimumSats: 2000 });
    expect(await waitingOf(older)).toBeNull();
    const notices = await fundsNotices(big.id);
    expect(notices.map((notice) => notice.payload)).toEqual([{ owedSats: '99000', walletSats: '60000' }]);
    const before = await summary();
    expect(before).toMatchObject({
      chain: 'devnet',
      signing: 'hot',
      owedSats: 99_000,
      organizationsOwed: 1,
      heldSats: 0,
      waitingSats: 99_000,
      waiting: [{ organizationId: big.id, owedSats: 99_000, reason: 'wallet_funds' }],
    });
    // The change comes back unconfirmed: it is the wallet's, spendable once in a block.
    expect(before.unconfirmedSats).toBeGreaterThan(9_000);

    // Still short on the next run: no second notice.
    await run();
    expect(await fundsNotices(big.id)).toHaveLength(1);

    await deposit(120_000n);
    await run();
    expect((await payoutsOf(big.id)).map((p) => [p.state, p.amount_msat])).toEqual([['sent', '99000000']]);
    expect(await waitingOf(big)).toBeNull();
    expect(await summary()).toMatchObject({ owedSats: 0, waitingSats: 0, waiting: [] });
  });

  it('says why the others wait: below the minimum, no address, blocked, or an earlier batch off the chain', async () => {
    const small = await openShop();
    const nowhere = await openShop({ address: false });
    const blocked = await openShop();
    const due = await openShop();
    await sell(small, '1.00'); // 990 sats, below 2,000
    await sell(nowhere, '5.00');
    await sell(blocked, '5.00');
    await t.db
      .updateTable('organizations')
      .set({ blocked: true, blocked_reason: 'other' })
      .where('id', '=', blocked.id)
      .execute();
    await sell(due, '5.00');
    // A batch waiting for the operator's signature holds every new payout back.
    await t.db
      .insertInto('onchain_payout_batches')
      .values({
        state: 'awaiting_signature',
        txid: randomBytes(32).toString('hex'),
        psbt: '',
        fee_sats: 0n,
        fee_rate_sat_per_kvb: 1000n,
        vsize: 0,
        inputs: '[]',
        change_sats: 0n,
      })
      .execute();
    await run();
    const reasons = new Map((await summary()).waiting.map((wait) => [wait.organizationId, wait.reason]));
    expect([small, nowhere, blocked, due].map((shop) => reasons.get(shop.id))).toEqual([
      'below_minimum',
      'no_address',
      'blocked',
      'batch_pending',
    ]);
    expect(await waitingOf(small)).toMatchObject({ owedSats: 990, reason: 'below_minimum' });
    expect(await waitingOf(nowhere)).toMatchObject({ owedSats: 4_950, reason: 'no_address' });
    await t.db.deleteFrom('onchain_payout_batches').where('state', '=', 'awaiting_signature').execute();
  });

  it('hands back office a fresh deposit address each time, audit-logged, and counts the unused receive addresses', async () => {
    const first = await summary();
    const { address } = await call<{ address: string }>(
      'POST',
      '/api/back-office/onchain-wallet/deposit-address',
      backOffice,
    );
    expect(address).toMatch(/^bcrt1q/);
    const after = await summary();
    expect(after.depositAddress).toBe(address);
    // Handed out and not paid: one more address a restored wallet must look past.
    expect(after.unusedReceiveAddresses).toBe(first.unusedReceiveAddresses + 1);
    await sendDevnetPayment(t.db, address, 5_000n);
    expect((await summary()).unusedReceiveAddresses).toBe(0);
    const audit = await listAuditEntries(t.db);
    const entry = audit.find((row) => row.action === 'back_office.deposit_address_created');
    expect(entry?.after).toMatchObject({ address });
    expect(entry?.actor_email).toBe(backOfficeEmail);
    const again = await call<{ address: string }>(
      'POST',
      '/api/back-office/onchain-wallet/deposit-address',
      backOffice,
    );
    expect(again.address).not.toBe(address);
  });

  it("runs now at back office's word, audit-logged, and answers the wallet as the run left it", async () => {
    const shop = await openShop();
    await sell(shop, '3.00');
    await deposit(10_000n);
    const answer = await call<OnchainWalletSummary>('POST', '/api/back-office/onchain-wallet/run', backOffice);
    expect((await payoutsOf(shop.id)).map((p) => p.state)).toEqual(['sent']);
    expect(answer.waiting.find((wait) => wait.organizationId === shop.id)).toBeUndefined();
    const audit = await listAuditEntries(t.db);
    // The request context names the actor's e-mail, which this entry used to leave empty.
    expect(audit.find((entry) => entry.action === 'back_office.onchain_payouts_run')?.actor_email).toBe(
      backOfficeEmail,
    );
    // The batch this run built is back office's doing, not the job's.
    expect(batchEntryOf(audit, shop.id)).toMatchObject({ actor_email: backOfficeEmail, actor_system: null });
  });

  it('names the payout job in the audit entry of a batch the job builds', async () => {
    const shop = await openShop();
    await sell(shop, '3.00');
    await deposit(10_000n);
    const deps = { db: t.db, config: t.config, lightning: t.runtime.deps.lightning, chain };
    const pass = paymentPasses(deps, log).find((candidate) => candidate.task === 'pay-onchain-payouts');
    // The job's task as the worker runs it; it reads neither its payload nor its helpers.
    await periodicTask(pass as PeriodicPass, { db: t.db, log })({}, {} as JobHelpers);
    const [payout] = await payoutsOf(shop.id);
    const entry = batchEntryOf(await listAuditEntries(t.db), shop.id);
    expect(entry).toMatchObject({
      actor_system: 'system:pay-onchain-payouts',
      actor_user_id: null,
      actor_email: null,
      ip: null,
      target: `onchain_payout_batch:${payout?.batch_id}`,
    });
    expect(entry?.after).toMatchObject({ txid: payout?.txid, organizations: [shop.id] });
  });
});

/** The audit entry of the batch that paid `organizationId`. */
function batchEntryOf(entries: Awaited<ReturnType<typeof listAuditEntries>>, organizationId: string) {
  return entries.find(
    (entry) =>
      entry.action === 'payout.onchain_batch_built' &&
      (entry.after as { organizations: string[] }).organizations.includes(organizationId),
  );
}
