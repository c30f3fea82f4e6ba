import { randomBytes } from 'node:crypto';
import type { OnchainPayoutBatch } from '@rayo/shared';
import { base64 } from '@scure/base';
import { HDKey } from '@scure/bip32';
import { Transaction } from '@scure/btc-signer';
import { Transaction as BitcoinjsTransaction } from 'bitcoinjs-lib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type FakeEsplora, startFakeEsplora } from '../../../test/fakes/esplora-server.ts';
import { type OnchainShop, openOnchainShop, sellOnchain } from '../../../test/onchain-shop.ts';
import { bearer, createTestApp, createTestUser, signIn, type TestApp } from '../../../test/test-app.ts';
import { createChainBackend } from '../../adapters/chain/index.ts';
import type { ChainBackend } from '../../adapters/chain/types.ts';
import { accountKeyFromSeed, deriveReceiveAddress } from '../../domain/onchain-wallet.ts';
import { systemContext } from '../../http/request-context.ts';
import { runOnchainPayouts } from './payouts-onchain.service.ts';

/**
 * A batch stuck at too low a fee is replaced (BIP 125) by one paying more, against the Esplora
 * stand-in, whose node applies Bitcoin Core's replacement rules: with the platform's hot wallet,
 * and with the operator's wallet signing the replacement.
 */

const log = { debug: () => {}, info: () => {}, warn: () => {} };
const merchantWallet = accountKeyFromSeed(randomBytes(32));
let nextAddress = 0;
let esplora: FakeEsplora;

beforeAll(async () => {
  esplora = await startFakeEsplora();
});
afterAll(async () => {
  await esplora?.close();
});

/** An app on the stand-in with the platform wallet `master`'s account; a hot wallet when `hot`. */
async function startApp(master: HDKey, hot: boolean) {
  const account = master.derive("m/84'/1'/0'");
  const t = await createTestApp(
    {
      CHAIN_BACKEND: 'esplora',
      ESPLORA_URL: esplora.url,
      CHAIN_NETWORK: 'regtest',
      CHAIN_XPUB: account.publicExtendedKey,
      CHAIN_XPUB_ORIGIN: `${master.fingerprint.toString(16).padStart(8, '0')}/84h/1h/0h`,
      ...(hot && { CHAIN_PAYOUT_XPRV: account.privateExtendedKey }),
      // $1 is 1,000 sats; a 1 % fee leaves about as much as a low network fee takes.
      FIXED_RATES: 'USD=100000',
      TX_FEE_PERCENT: '1',
      CHAIN_PAYOUT_MIN_SATS: '1000',
    },
    { jobs: false },
  );
  const staff = await createTestUser(t.db, { role: 'back_office', organizationId: null });
  const backOffice = bearer((await signIn(t.app, staff.email, staff.password)).accessToken);
  const chain = createChainBackend(t.config, t.db);
  return { t, backOffice, chain };
}

async function shopWithSale(t: TestApp, cents: bigint): Promise<OnchainShop> {
  const shop = await openOnchainShop(t, deriveReceiveAddress(merchantWallet, nextAddress++, 'regtest'));
  await sellOnchain(t, shop, cents, async (address, sats) => {
    esplora.fund(address, sats);
    esplora.mine(3);
  });
  return shop;
}

function bump(app: { t: TestApp; backOffice: { authorization: string } }, id: string, feeRate?: number) {
  return app.t.app.inject({
    method: 'POST',
    url: `/api/back-office/onchain-payouts/${id}/bump`,
    headers: app.backOffice,
    payload: feeRate === undefined ? {} : { feeRate },
  });
}

async function batches(app: { t: TestApp; backOffice: { authorization: string } }) {
  const response = await app.t.app.inject({
    method: 'GET',
    url: '/api/back-office/onchain-payouts',
    headers: app.backOffice,
  });
  return response.json<OnchainPayoutBatch[]>();
}

function payoutsOf(t: TestApp, organizationId: string) {
  return t.db.selectFrom('payouts').selectAll().where('organization_id', '=', organizationId).execute();
}

describe('raising the fee of a batch with the hot wallet', () => {
  let app: Awaited<ReturnType<typeof startApp>>;
  beforeAll(async () => {
    app = await startApp(HDKey.fromMasterSeed(randomBytes(32)), true);
  });
  afterAll(async () => {
    await app?.t.close();
  });
  const run = () =>
    runOnchainPayouts(
      systemContext('pay-onchain-payouts'),
      { db: app.t.db, config: app.t.config, chain: app.chain },
      log,
    );

  it('replaces the stuck transaction with one paying more, taking another coin, and settles with it', async () => {
    // The node's estimate: 1 sat/vB, so the batch goes out at the relay minimum.
    const saved = esplora.feeEstimates;
    esplora.feeEstimates = { '6': 1 };
    const shop = await shopWithSale(app.t, 2000n);
    await run();
    esplora.feeEstimates = saved;
    const [stuck] = await batches(app);
    if (!stuck) throw new Error('no batch');
    expect(stuck).toMatchObject({ state: 'broadcast', feeRate: 1, replaceable: true, replacedTxids: [] });
    // The change of a 1 % fee is dust at a higher rate: a second coin must pay the difference. It
    // comes to a deposit address, in a block of its own, which leaves the batch in the mempool.
    const deposit = await app.t.app.inject({
      method: 'POST',
      url: '/api/back-office/onchain-wallet/deposit-address',
      headers: app.backOffice,
    });
    esplora.fund(deposit.json<{ address: string }>().address, 50_000n);
    expect(esplora.chain.get(stuck.txid)?.blockHeight).toBeNull();

    const answer = await bump(app, stuck.id, 12);
    expect(answer.statusCode, answer.body).toBe(200);
    const bumped = answer.json<OnchainPayoutBatch>();
    expect(bumped).toMatchObject({ id: stuck.id, state: 'broadcast', replacedTxids: [stuck.txid], replaceable: true });
    expect(bumped.txid).not.toBe(stuck.txid);
    expect(bumped.feeRate).toBeGreaterThanOrEqual(12);
    // The node took the replacement and dropped the stuck transaction (BIP 125).
    expect(esplora.chain.get(stuck.txid)).toBeUndefined();
    const replacement = BitcoinjsTransaction.fromHex(esplora.chain.get(bumped.txid)?.hex as string);
    expect(replacement.ins.length).toBe(2);
    expect(replacement.ins.every((input) => input.sequence === 0xfffffffd)).toBe(true);
    const [payout] = await payoutsOf(app.t, shop.id);
    expect(payout).toMatchObject({ state: 'sent', txid: bumped.txid, fee_msat: String(bumped.feeSats * 1000) });

    esplora.mine(1);
    await run();
    const [settled] = await batches(app);
    expect(settled).toMatchObject({ txid: bumped.txid, confirmations: 1, replaceable: false });
    const late = await bump(app, stuck.id, 50);
    expect(late.statusCode).toBe(409);
    expect(late.json()).toMatchObject({ code: 'BatchNotReplaceable' });
  });

  it('refuses a higher fee the wallet cannot pay, and changes nothing', async () => {
    const saved = esplora.feeEstimates;
    esplora.feeEstimates = { '6': 1 };
    await shopWithSale(app.t, 3000n);
    await run();
    esplora.feeEstimates = saved;
    const [stuck] = await batches(app);
    if (!stuck) throw new Error('no batch');
    // Every coin of the wallet is in the batch already: none is left to pay 900 sat/vB.
    const refused = await bump(app, stuck.id, 900);
    expect(refused.statusCode).toBe(409);
    expect(refused.json()).toMatchObject({ code: 'BatchFeeNotCovered' });
    expect((await batches(app))[0]).toMatchObject({ txid: stuck.txid, replacedTxids: [] });
    expect(esplora.chain.get(stuck.txid)?.blockHeight).toBeNull();
  });
});

describe('raising the fee of a batch the operator signs', () => {
  const master = HDKey.fromMasterSeed(randomBytes(32), { private: 0x04358394, public: 0x043587cf });
  let app: Awaited<ReturnType<typeof startApp>>;
  beforeAll(async () => {
    app = await startApp(master, false);
  });
  afterAll(async () => {
    await app?.t.close();
  });
  const run = () =>
    runOnchainPayouts(
      systemContext('pay-onchain-payouts'),
      { db: app.t.db, config: app.t.config, chain: app.chain },
      log,
    );

  /** The operator's wallet signs the batch's current PSBT and hands it back. */
  async function signAndSend(batchId: string) {
    const download = await app.t.app.inject({
      method: 'GET',
      url: `/api/back-office/onchain-payouts/${batchId}/psbt`,
      headers: app.backOffice,
    });
    const tx = Transaction.fromPSBT(download.rawPayload);
    for (let index = 0; index < tx.inputsLength; index += 1) {
      const [[, origin]] = tx.getInput(index).bip32Derivation as unknown as [[Uint8Array, { path: number[] }]];
      tx.signIdx(origin.path.reduce((key, step) => key.deriveChild(step), master).privateKey as Uint8Array, index);
    }
    const answer = await app.t.app.inject({
      method: 'POST',
      url: `/api/back-office/onchain-payouts/${batchId}/signed`,
      headers: app.backOffice,
      payload: { transaction: base64.encode(tx.toPSBT()) },
    });
    expect(answer.statusCode, answer.body).toBe(200);
    return answer.json<OnchainPayoutBatch>();
  }

  it('gives the operator a new PSBT to sign, and takes back the old transaction if a block takes it first', async () => {
    const saved = esplora.feeEstimates;
    esplora.feeEstimates = { '6': 1 };
    const shop = await shopWithSale(app.t, 20_000n);
    await run();
    esplora.feeEstimates = saved;
    const [awaiting] = await batches(app);
    if (!awaiting) throw new Error('no batch');
    const sent = await signAndSend(awaiting.id);
    expect(sent).toMatchObject({ state: 'broadcast', txid: awaiting.txid });

    const bumped = (await bump(app, awaiting.id, 8)).json<OnchainPayoutBatch>();
    expect(bumped).toMatchObject({ state: 'awaiting_signature', replacedTxids: [awaiting.txid] });
    expect(bumped.txid).not.toBe(awaiting.txid);
    // Nothing new is broadcast before the operator signs; the old transaction is still in the mempool.
    expect(esplora.chain.get(awaiting.txid)?.blockHeight).toBeNull();
    await run();
    expect((await payoutsOf(app.t, shop.id)).map((payout) => payout.state)).toEqual(['sent']);

    // A block takes the old transaction before the operator signs the replacement.
    esplora.mine(1);
    await run();
    const [settled] = await batches(app);
    expect(settled).toMatchObject({
      txid: awaiting.txid,
      state: 'broadcast',
      confirmations: 1,
      replacedTxids: [],
      replaceable: false,
    });
    expect((await payoutsOf(app.t, shop.id)).map((payout) => payout.txid)).toEqual([awaiting.txid]);
  });

  it('broadcasts the replacement once the operator signs it', async () => {
    const saved = esplora.feeEstimates;
    esplora.feeEstimates = { '6': 1 };
    await shopWithSale(app.t, 20_000n);
    await run();
    esplora.feeEstimates = saved;
    const [awaiting] = await batches(app);
    if (!awaiting) throw new Error('no batch');
    await signAndSend(awaiting.id);
    const bumped = (await bump(app, awaiting.id)).json<OnchainPayoutBatch>();
    const signed = await signAndSend(bumped.id);
    expect(signed).toMatchObject({ state: 'broadcast', txid: bumped.txid, replacedTxids: [awaiting.txid] });
    expect(esplora.chain.get(awaiting.txid)).toBeUndefined();
    expect(esplora.chain.get(bumped.txid)?.blockHeight).toBeNull();
  });
});
