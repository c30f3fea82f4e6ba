import { randomBytes } from 'node:crypto';
import type { Account, Bpt, PayoutPage, PublicCheckout, VirtualBpt } from '@rayo/shared';
import { Transaction as BitcoinjsTransaction, address as bitcoinjsAddress, networks, Psbt } from 'bitcoinjs-lib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  bearer,
  createTestApp,
  createTestOrganization,
  createTestUser,
  signIn,
  type TestApp,
} from '../../../test/test-app.ts';
import { createDevnetChain, mineDevnetBlocks, sendDevnetPayment } from '../../adapters/chain/devnet.ts';
import type { ChainBackend } from '../../adapters/chain/types.ts';
import { accountKeyFromSeed, deriveReceiveAddress } from '../../domain/onchain-wallet.ts';
import { systemContext } from '../../http/request-context.ts';
import { payoutsSent } from '../../metrics.ts';
import { createCheckout } from '../checkouts/checkouts.service.ts';
import { watchCheckoutPayments } from '../onchain/onchain.service.ts';
import { advanceBatch, buildOnchainBatch, runOnchainPayouts } from './payouts-onchain.service.ts';

// Devnet chain and its hot wallet (the devnet seed signs). USD at $100,000 per bitcoin: $1 is
// 1,000 sats. A 1 % transaction fee leaves sub-sat remainders in the on-chain shares.
let t: TestApp;
let chain: ChainBackend;
const log = { debug: () => {}, info: () => {}, warn: () => {} };
/** The merchants' own wallet: their payout addresses. */
const merchantWallet = accountKeyFromSeed(randomBytes(32));
let nextAddress = 0;

beforeAll(async () => {
  t = await createTestApp(
    { FIXED_RATES: 'USD=100000', TX_FEE_PERCENT: '1', CHAIN_PAYOUT_MIN_SATS: '2000' },
    { jobs: false },
  );
  chain = createDevnetChain(t.db);
});

afterAll(async () => {
  await t?.close();
});

function deps() {
  return { db: t.db, config: t.config, chain };
}

async function call<T>(
  method: 'GET' | 'POST' | 'PUT',
  url: string,
  headers?: { authorization: string },
  payload?: object,
) {
  const response = await t.app.inject({ method, url, headers, ...(payload ? { payload } : {}) });
  expect(response.statusCode, response.body).toBeLessThan(300);
  return response.json() as T;
}

/** A shop paid out all on-chain, at an address of the merchants' wallet. */
async function openShop() {
  const organization = await createTestOrganization(t.db);
  const user = await createTestUser(t.db, { role: 'admin', organizationId: organization.id });
  const admin = bearer((await signIn(t.app, user.email, user.password)).accessToken);
  const account = await call<Account>('POST', '/api/accounts', admin, { name: 'Online' });
  const bpt = await call<Bpt>('POST', '/api/bpts', admin, { name: 'Till', accountId: account.id, currency: 'USD' });
  const vbpt = await call<VirtualBpt>('POST', '/api/virtual-bpts', admin, { name: 'Web shop', bptId: bpt.id });
  const destination = deriveReceiveAddress(merchantWallet, nextAddress++, 'regtest');
  await t.db
    .updateTable('organizations')
    .set({ onchain_address: destination, payout_fiat_bps: 0, payout_onchain_bps: 10_000, payout_lightning_bps: 0 })
    .where('id', '=', organization.id)
    .execute();
  return { organizationId: organization.id, admin, vbpt, destination };
}

/**
 * A sale paid on-chain at its checkout's address (which funds the platform wallet), confirmed
 * and recorded by the watcher. Returns its on-chain share in msat.
 */
async function sellOnchain(shop: Awaited<ReturnType<typeof openShop>>, cents: bigint): Promise<bigint> {
  const checkout = await createCheckout(t.runtime.deps, {
    organizationId: shop.organizationId,
    virtualBptId: shop.vbpt.id,
    kind: 'payment_link',
    description: `Payout test ${Math.random()}`,
    amount: { currency: 'USD', minor: cents },
  });
  const onchain = (await call<PublicCheckout>('GET', `/api/public/checkouts/${checkout.id}`)).onchain;
  if (!onchain) throw new Error('no on-chain option');
  await sendDevnetPayment(t.db, onchain.address, BigInt(onchain.amountSats));
  await mineDevnetBlocks(t.db, 4);
  await watchCheckoutPayments({ db: t.db, config: t.config, chain });
  const row = await t.db
    .selectFrom('transactions as tr')
    .innerJoin('invoices as i', 'i.id', 'tr.invoice_id')
    .select('tr.onchain_msat')
    .where('i.source_id', '=', checkout.id)
    .executeTakeFirstOrThrow();
  return BigInt(row.onchain_msat);
}

function batches() {
  return t.db.selectFrom('onchain_payout_batches').selectAll().orderBy('created_at').execute();
}

function payoutsOf(organizationId: string) {
  return t.db.selectFrom('payouts').selectAll().where('organization_id', '=', organizationId).execute();
}

/** The transaction as bitcoinjs-lib, a decoder independent of the one that built it, reads it. */
function decode(rawHex: string) {
  const tx = BitcoinjsTransaction.fromHex(rawHex);
  return {
    txid: tx.getId(),
    vsize: tx.virtualSize(),
    inputs: tx.ins.map((input) => ({ txid: Buffer.from(input.hash).reverse().toString('hex'), vout: input.index })),
    outputs: tx.outs.map((output) => ({
      address: bitcoinjsAddress.fromOutputScript(output.script, networks.regtest),
      sats: BigInt(output.value),
    })),
  };
}

/** What `rayo_payouts_sent_total{rail="onchain"}` says. */
async function onchainPayoutsSent(): Promise<number> {
  const { values } = await payoutsSent.get();
  return values.find((value) => value.labels.rail === 'onchain')?.value ?? 0;
}

describe('the on-chain payout batch', () => {
  it('pays every organization due in one signed transaction, whole sats, fee from the estimate', async () => {
    const a = await openShop();
    const b = await openShop();
    const small = await openShop();
    const owedA = (await sellOnchain(a, 1001n)) + (await sellOnchain(a, 500n));
    const owedB = await sellOnchain(b, 2345n);
    await sellOnchain(small, 150n); // 1,485 sats: below the 2,000 sat minimum, it waits.
    expect(owedA % 1000n).not.toBe(0n);

    const sentBefore = await onchainPayoutsSent();
    await runOnchainPayouts(systemContext('pay-onchain-payouts'), deps(), log);
    // The metric counts each organization's payout once, as the chain accepted the batch.
    expect((await onchainPayoutsSent()) - sentBefore).toBe(2);

    const [batch, ...others] = await batches();
    expect(others).toEqual([]);
    if (!batch?.raw_tx) throw new Error('no signed batch');
    expect(batch.state).toBe('broadcast');
    const tx = decode(batch.raw_tx);
    expect(tx.txid).toBe(batch.txid);
    const pays = (address: string) => tx.outputs.filter((output) => output.address === address);
    expect(pays(a.destination)).toEqual([{ address: a.destination, sats: owedA / 1000n }]);
    expect(pays(b.destination)).toEqual([{ address: b.destination, sats: owedB / 1000n }]);
    expect(pays(small.destination)).toEqual([]);
    // The fee is what the inputs hold beyond the outputs: the devnet's 2 sat/vB on the real size.
    const spent = await t.db
      .selectFrom('devnet_chain_outputs')
      .select(['txid', 'vout', 'value_sats', 'spent_by_txid'])
      .where('spent_by_txid', '=', tx.txid)
      .execute();
    expect(spent).toHaveLength(tx.inputs.length);
    const inputSats = spent.reduce((sum, row) => sum + BigInt(row.value_sats), 0n);
    const outputSats = tx.outputs.reduce((sum, output) => sum + output.sats, 0n);
    expect(inputSats - outputSats).toBe(BigInt(batch.fee_sats));
    expect(BigInt(batch.change_sats)).toBeGreaterThan(0n);
    expect(pays(batch.change_address ?? '')).toEqual([
      { address: batch.change_address, sats: BigInt(batch.change_sats) },
    ]);
    // Replaceable (BIP 125), and the change is named as the wallet's own key, as bitcoinjs-lib reads the PSBT.
    expect(BitcoinjsTransaction.fromHex(batch.raw_tx).ins.every((input) => input.sequence === 0xfffffffd)).toBe(true);
    const changeOutput = Psbt.fromBase64(batch.psbt, { network: networks.regtest }).data.outputs.at(-1);
    expect(changeOutput?.bip32Derivation?.[0]?.path).toBe(`m/84'/1'/0'/1/${batch.change_index}`);
    expect(BigInt(batch.fee_sats)).toBeGreaterThanOrEqual(BigInt(tx.vsize) * 2n);
    expect(BigInt(batch.fee_sats)).toBeLessThanOrEqual(BigInt(tx.vsize + 2) * 2n);

    // One payout per organization, sharing the txid, sent once the chain accepted the transaction.
    const [payoutA] = await payoutsOf(a.organizationId);
    expect(payoutA).toMatchObject({ kind: 'onchain', state: 'sent', txid: tx.txid, destination: a.destination });
    expect(BigInt(payoutA?.amount_msat ?? 0)).toBe((owedA / 1000n) * 1000n);
    expect(await payoutsOf(small.organizationId)).toEqual([]);
    const carried = await t.db
      .selectFrom('payout_transactions')
      .select(['amount_msat'])
      .where('payout_id', '=', payoutA?.id ?? '')
      .execute();
    expect(carried.reduce((sum, row) => sum + BigInt(row.amount_msat), 0n)).toBe(owedA);

    // The merchant sees it with its txid; confirmations follow the chain.
    const before = await call<PayoutPage>('GET', '/api/settings/payouts', a.admin);
    expect(before.payouts[0]).toMatchObject({ kind: 'onchain', state: 'sent', txid: tx.txid, confirmations: 0 });
    await mineDevnetBlocks(t.db, 2);
    await runOnchainPayouts(systemContext('pay-onchain-payouts'), deps(), log);
    const after = await call<PayoutPage>('GET', '/api/settings/payouts', a.admin);
    expect(after.payouts[0]).toMatchObject({ state: 'sent', confirmations: 2 });

    // Nothing is paid twice: the next run has only the small shop's shares, still below the minimum.
    await runOnchainPayouts(systemContext('pay-onchain-payouts'), deps(), log);
    expect(await batches()).toHaveLength(1);
    expect(await payoutsOf(a.organizationId)).toHaveLength(1);
  });

  it('after a crash between writing the batch and broadcasting it, broadcasts that batch and builds no other', async () => {
    // The crash is simulated by running the job's phases apart: the build (which commits the
    // batch, its payouts and shares) and, in a later run, the rest of the pass.
    const shop = await openShop();
    await sellOnchain(shop, 3000n);
    const earlier = new Set((await batches()).map((batch) => batch.id));
    const built = await buildOnchainBatch(systemContext('pay-onchain-payouts'), deps(), log);
    if (!built) throw new Error('nothing built');
    expect(built.state).toBe('signed');
    expect(await chain.getTransactionStatus(built.txid)).toBeNull();
    expect((await payoutsOf(shop.organizationId))[0]?.state).toBe('pending');

    await runOnchainPayouts(systemContext('pay-onchain-payouts'), deps(), log);
    expect(await chain.getTransactionStatus(built.txid)).toEqual({ blockHeight: null });
    expect((await payoutsOf(shop.organizationId)).map((p) => [p.state, p.txid])).toEqual([['sent', built.txid]]);
    expect((await batches()).filter((batch) => !earlier.has(batch.id)).map((batch) => batch.id)).toEqual([built.id]);
  });

  it('after a crash between broadcasting and recording it, finds the txid on the chain and sends nothing again', async () => {
    const shop = await openShop();
    await sellOnchain(shop, 3000n);
    const built = await buildOnchainBatch(systemContext('pay-onchain-payouts'), deps(), log);
    if (!built?.raw_tx) throw new Error('nothing built');
    // The dead process had handed the transaction to the chain.
    await chain.broadcastTransaction(built.raw_tx);
    const broadcasts: string[] = [];
    const watching: ChainBackend = {
      ...chain,
      broadcastTransaction: async (raw) => {
        broadcasts.push(raw);
        return chain.broadcastTransaction(raw);
      },
    };
    await mineDevnetBlocks(t.db, 1);
    const [stored] = await t.db.selectFrom('onchain_payout_batches').selectAll().where('id', '=', built.id).execute();
    if (!stored) throw new Error('batch lost');
    await advanceBatch({ ...deps(), chain: watching }, stored, log);
    expect(broadcasts).toEqual([]);
    expect((await payoutsOf(shop.organizationId))[0]?.state).toBe('sent');
    const [after] = await t.db.selectFrom('onchain_payout_batches').selectAll().where('id', '=', built.id).execute();
    expect(after).toMatchObject({ state: 'broadcast', confirmations: 1 });
  });

  it('builds nothing while the wallet cannot pay, takes no change index meanwhile, and keeps the shares', async () => {
    const shop = await openShop();
    await sellOnchain(shop, 3000n);
    const changeCounter = () =>
      t.db
        .selectFrom('onchain_wallet_counters')
        .select('next_index')
        .where('wallet', 'like', '%:change')
        .executeTakeFirst();
    const counterBefore = await changeCounter();
    // Everything the wallet holds is spent elsewhere first (the operator moved it away).
    const drained = await t.db
      .updateTable('devnet_chain_outputs')
      .set({ spent_by_txid: 'ff'.repeat(32) })
      .where('spent_by_txid', 'is', null)
      .returning(['txid', 'vout'])
      .execute();
    expect(await buildOnchainBatch(systemContext('pay-onchain-payouts'), deps(), log)).toBeNull();
    expect(await buildOnchainBatch(systemContext('pay-onchain-payouts'), deps(), log)).toBeNull();
    expect(await payoutsOf(shop.organizationId)).toEqual([]);
    expect(await changeCounter()).toEqual(counterBefore);
    for (const output of drained) {
      await t.db
        .updateTable('devnet_chain_outputs')
        .set({ spent_by_txid: null })
        .where('txid', '=', output.txid)
        .where('vout', '=', output.vout)
        .execute();
    }
    await runOnchainPayouts(systemContext('pay-onchain-payouts'), deps(), log);
    expect((await payoutsOf(shop.organizationId))[0]?.state).toBe('sent');
  });

  it('pays nothing to an on-chain address changed in Settings until back office has verified it', async () => {
    const shop = await openShop();
    await sellOnchain(shop, 3000n);
    const changed = deriveReceiveAddress(merchantWallet, nextAddress++, 'regtest');
    await call('PUT', '/api/settings/onchain-address', shop.admin, { onchainAddress: changed });
    await runOnchainPayouts(systemContext('pay-onchain-payouts'), deps(), log);
    expect(await payoutsOf(shop.organizationId)).toEqual([]);

    const staff = await createTestUser(t.db, { role: 'back_office', organizationId: null });
    const backOffice = bearer((await signIn(t.app, staff.email, staff.password)).accessToken);
    await call('PUT', `/api/back-office/organization/${shop.organizationId}/verification`, backOffice, {
      field: 'crypto',
      verified: true,
    });
    await runOnchainPayouts(systemContext('pay-onchain-payouts'), deps(), log);
    expect(await payoutsOf(shop.organizationId)).toEqual([
      expect.objectContaining({ destination: changed, state: 'sent' }),
    ]);
  });
});
