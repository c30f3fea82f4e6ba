import { randomBytes } from 'node:crypto';
import type { Account, Bpt, OnchainPayoutBatch, PayoutPage, PublicCheckout, VirtualBpt } from '@rayo/shared';
import { base64 } from '@scure/base';
import { HDKey } from '@scure/bip32';
import { Transaction } from '@scure/btc-signer';
import { Transaction as BitcoinjsTransaction, address as bitcoinjsAddress, networks, Psbt } from 'bitcoinjs-lib';
import * as ecc from 'tiny-secp256k1';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type FakeEsplora, startFakeEsplora } from '../../../test/fakes/esplora-server.ts';
import {
  bearer,
  createTestApp,
  createTestOrganization,
  createTestUser,
  signIn,
  type TestApp,
} from '../../../test/test-app.ts';
import { createChainBackend } from '../../adapters/chain/index.ts';
import type { ChainBackend } from '../../adapters/chain/types.ts';
import { accountKeyFromSeed, deriveReceiveAddress } from '../../domain/onchain-wallet.ts';
import { systemContext } from '../../http/request-context.ts';
import { listAuditEntries } from '../audit/audit.repo.ts';
import { createCheckout } from '../checkouts/checkouts.service.ts';
import { listNotifications } from '../notifications/notifications.repo.ts';
import { watchCheckoutPayments } from '../onchain/onchain.service.ts';
import { runOnchainPayouts } from './payouts-onchain.service.ts';

let esplora: FakeEsplora;
let t: TestApp;
let chain: ChainBackend;
let backOffice: { authorization: string };
const log = { debug: () => {}, info: () => {}, warn: () => {} };
// The operator's wallet: its master key signs; Rayo holds only the account's xpub.
const operatorMaster = HDKey.fromMasterSeed(randomBytes(32), { private: 0x04358394, public: 0x043587cf });
const merchantWallet = accountKeyFromSeed(randomBytes(32));

beforeAll(async () => {
  esplora = await startFakeEsplora();
  const account = operatorMaster.derive("m/84'/1'/0'");
  const fingerprint = operatorMaster.fingerprint.toString(16).padStart(8, '0');
  t = await createTestApp(
    {
      CHAIN_BACKEND: 'esplora',
      ESPLORA_URL: esplora.url,
      CHAIN_NETWORK: 'regtest',
      CHAIN_XPUB: account.publicExtendedKey,
      CHAIN_XPUB_ORIGIN: `${fingerprint}/84h/1h/0h`,
      // $1 is 1,000 sats; the 10 % fee leaves the platform wallet enough for the network fee and change.
      FIXED_RATES: 'USD=100000',
      TX_FEE_PERCENT: '10',
      CHAIN_PAYOUT_MIN_SATS: '1000',
      PAYOUT_ALERT_AFTER_ATTEMPTS: '2',
    },
    { jobs: false },
  );
  chain = createChainBackend(t.config, t.db);
  const user = await createTestUser(t.db, { role: 'back_office', organizationId: null });
  backOffice = bearer((await signIn(t.app, user.email, user.password)).accessToken);
});

afterAll(async () => {
  await t?.close();
  await esplora?.close();
});

async function call<T>(method: 'GET' | 'POST', url: string, headers?: { authorization: string }, payload?: object) {
  const response = await t.app.inject({ method, url, headers, ...(payload ? { payload } : {}) });
  expect(response.statusCode, response.body).toBeLessThan(300);
  return response.json() as T;
}

/** A shop paid out all on-chain, with one on-chain sale of `cents` confirmed on the stand-in chain. */
async function shopWithSale(cents: bigint, addressIndex: number) {
  const organization = await createTestOrganization(t.db);
  const user = await createTestUser(t.db, { role: 'admin', organizationId: organization.id });
  const admin = bearer((await signIn(t.app, user.email, user.password)).accessToken);
  const account = await call<Account>('POST', '/api/accounts', admin, { name: 'Online' });
  const bpt = await call<Bpt>('POST', '/api/bpts', admin, { name: 'Till', accountId: account.id, currency: 'USD' });
  const vbpt = await call<VirtualBpt>('POST', '/api/virtual-bpts', admin, { name: 'Web shop', bptId: bpt.id });
  const destination = deriveReceiveAddress(merchantWallet, addressIndex, 'regtest');
  await t.db
    .updateTable('organizations')
    .set({ onchain_address: destination, payout_fiat_bps: 0, payout_onchain_bps: 10_000, payout_lightning_bps: 0 })
    .where('id', '=', organization.id)
    .execute();
  const checkout = await createCheckout(t.runtime.deps, {
    organizationId: organization.id,
    virtualBptId: vbpt.id,
    kind: 'payment_link',
    description: 'PSBT test',
    amount: { currency: 'USD', minor: cents },
  });
  const onchain = (await call<PublicCheckout>('GET', `/api/public/checkouts/${checkout.id}`)).onchain;
  if (!onchain) throw new Error('no on-chain option');
  esplora.fund(onchain.address, BigInt(onchain.amountSats));
  esplora.mine(3);
  await watchCheckoutPayments({ db: t.db, config: t.config, chain });
  return { organizationId: organization.id, admin, destination };
}

/** The operator's wallet signs the PSBT with the keys its bip32 derivations name. */
function signAsOperator(psbt: Uint8Array): string {
  const tx = Transaction.fromPSBT(psbt);
  for (let index = 0; index < tx.inputsLength; index += 1) {
    const [[, origin]] = tx.getInput(index).bip32Derivation as [[Uint8Array, { fingerprint: number; path: number[] }]];
    expect(origin.fingerprint).toBe(operatorMaster.fingerprint);
    const key = origin.path.reduce((node, step) => node.deriveChild(step), operatorMaster);
    tx.signIdx(key.privateKey as Uint8Array, index);
  }
  return base64.encode(tx.toPSBT());
}

/** bitcoinjs-lib's view of the operator's master key, deriving and signing as a wallet does. */
type HdSigner = Parameters<Psbt['signAllInputsHD']>[0];
function hdSigner(key: HDKey): HdSigner {
  return {
    publicKey: key.publicKey as Uint8Array,
    fingerprint: Buffer.from(key.fingerprint.toString(16).padStart(8, '0'), 'hex'),
    derivePath: (path: string) => hdSigner(key.derive(path)),
    sign: (hash: Uint8Array) => ecc.sign(hash, key.privateKey as Uint8Array),
  };
}

function payoutsOf(organizationId: string) {
  return t.db.selectFrom('payouts').selectAll().where('organization_id', '=', organizationId).execute();
}

describe('on-chain payouts without a hot wallet', () => {
  it('offer a PSBT to back office, take the signed one back, broadcast it and mark the payouts sent', async () => {
    const shop = await shopWithSale(2500n, 0);
    await runOnchainPayouts(systemContext('pay-onchain-payouts'), { db: t.db, config: t.config, chain }, log);
    const [batch] = await call<OnchainPayoutBatch[]>('GET', '/api/back-office/onchain-payouts', backOffice);
    expect(batch).toMatchObject({ state: 'awaiting_signature', outputs: 1, amountSats: 22_500, attempts: 0 });
    expect(esplora.broadcasts).toEqual([]);
    expect((await payoutsOf(shop.organizationId)).map((p) => [p.state, p.txid])).toEqual([['pending', batch?.txid]]);

    const download = await t.app.inject({
      method: 'GET',
      url: `/api/back-office/onchain-payouts/${batch?.id}/psbt`,
      headers: backOffice,
    });
    expect(download.statusCode).toBe(200);
    expect(download.headers['content-disposition']).toMatch(/attachment; filename="payout-batch-[0-9a-f]{12}\.psbt"/);
    const psbt = Psbt.fromBuffer(download.rawPayload, { network: networks.regtest });
    const outputs = psbt.txOutputs.map((output) => ({
      address: bitcoinjsAddress.fromOutputScript(output.script, networks.regtest),
      value: Number(output.value),
    }));
    expect(outputs[0]).toEqual({ address: shop.destination, value: 22_500 });
    const inputs = psbt.data.inputs.reduce((sum, input) => sum + Number(input.witnessUtxo?.value ?? 0), 0);
    const fee = inputs - outputs.reduce((sum, output) => sum + output.value, 0);
    expect(fee).toBe(batch?.feeSats);
    // The estimate for 6 blocks, 4.2 sat/vB, paid as 5.
    expect(fee).toBeGreaterThanOrEqual((batch?.vsize ?? 0) * 5 - 5);
    expect(fee).toBeLessThanOrEqual((batch?.vsize ?? 0) * 5 + 10);
    const audit = await listAuditEntries(t.db);
    expect(audit.find((entry) => entry.action === 'back_office.onchain_batch_downloaded')?.target).toBe(
      `onchain_batch:${batch?.id}`,
    );

    const submit = (transaction: string) =>
      t.app.inject({
        method: 'POST',
        url: `/api/back-office/onchain-payouts/${batch?.id}/signed`,
        headers: backOffice,
        payload: { transaction },
      });
    // Unsigned, or not this transaction: refused, and nothing is broadcast.
    const unsigned = await submit(base64.encode(download.rawPayload));
    expect(unsigned.statusCode).toBe(400);
    expect(unsigned.json()).toMatchObject({ code: 'InvalidInput', message: 'The transaction is not signed yet' });
    expect((await submit('zz not a psbt')).statusCode).toBe(400);
    expect(esplora.broadcasts).toEqual([]);

    const signed = signAsOperator(download.rawPayload);
    const accepted = await submit(signed);
    expect(accepted.statusCode, accepted.body).toBe(200);
    expect(accepted.json()).toMatchObject({ state: 'broadcast', txid: batch?.txid });
    expect(esplora.broadcasts).toHaveLength(1);
    expect(BitcoinjsTransaction.fromHex(esplora.broadcasts[0] as string).getId()).toBe(batch?.txid);
    expect((await payoutsOf(shop.organizationId)).map((p) => p.state)).toEqual(['sent']);
    expect((await submit(signed)).json()).toMatchObject({ code: 'BatchNotAwaitingSignature' });

    // A block later the merchant sees one confirmation.
    esplora.mine(1);
    await runOnchainPayouts(systemContext('pay-onchain-payouts'), { db: t.db, config: t.config, chain }, log);
    const page = await call<PayoutPage>('GET', '/api/settings/payouts', shop.admin);
    expect(page.payouts[0]).toMatchObject({ kind: 'onchain', state: 'sent', txid: batch?.txid, confirmations: 1 });
  });

  it('retry a refused broadcast with backoff and tell back office after repeated failures', async () => {
    const shop = await shopWithSale(1800n, 1);
    await runOnchainPayouts(systemContext('pay-onchain-payouts'), { db: t.db, config: t.config, chain }, log);
    const [batch] = await call<OnchainPayoutBatch[]>('GET', '/api/back-office/onchain-payouts', backOffice);
    expect(batch?.state).toBe('awaiting_signature');
    const download = await t.app.inject({
      method: 'GET',
      url: `/api/back-office/onchain-payouts/${batch?.id}/psbt`,
      headers: backOffice,
    });
    // Bitcoin Core's answer while its mempool is full (src/validation.cpp CheckFeeRate).
    esplora.refuseBroadcasts = { code: -26, message: 'mempool min fee not met, 141 < 1410' };
    const answer = await call<OnchainPayoutBatch>(
      'POST',
      `/api/back-office/onchain-payouts/${batch?.id}/signed`,
      backOffice,
      { transaction: signAsOperator(download.rawPayload) },
    );
    expect(answer).toMatchObject({ state: 'signed', attempts: 1 });
    expect(answer.lastError).toContain('mempool min fee not met');
    expect((await payoutsOf(shop.organizationId)).map((p) => [p.state, p.attempts])).toEqual([['failed', 1]]);

    // Not before its time: the backoff holds the next attempt.
    const sentSoFar = esplora.broadcasts.length;
    await runOnchainPayouts(systemContext('pay-onchain-payouts'), { db: t.db, config: t.config, chain }, log);
    expect(esplora.broadcasts).toHaveLength(sentSoFar);
    await t.db.updateTable('onchain_payout_batches').set({ next_attempt_at: new Date() }).execute();
    await runOnchainPayouts(systemContext('pay-onchain-payouts'), { db: t.db, config: t.config, chain }, log);
    expect((await payoutsOf(shop.organizationId)).map((p) => [p.state, p.attempts])).toEqual([['failed', 2]]);
    const alerts = (await listNotifications(t.db, { organizationId: shop.organizationId })).filter(
      (notification) => notification.kind === 'payout.failed',
    );
    expect(alerts).toHaveLength(1);

    esplora.refuseBroadcasts = null;
    await t.db.updateTable('onchain_payout_batches').set({ next_attempt_at: new Date() }).execute();
    await runOnchainPayouts(systemContext('pay-onchain-payouts'), { db: t.db, config: t.config, chain }, log);
    expect((await payoutsOf(shop.organizationId)).map((p) => p.state)).toEqual(['sent']);
    expect(esplora.chain.get(batch?.txid ?? '')?.blockHeight).toBeNull();
  });
});

describe("a batch signed in the operator's wallet", () => {
  it('comes back finalized, as wallets hand it back (bitcoinjs-lib signs and finalizes), and completes', async () => {
    const shop = await shopWithSale(2100n, 3);
    await runOnchainPayouts(systemContext('pay-onchain-payouts'), { db: t.db, config: t.config, chain }, log);
    const [batch] = await call<OnchainPayoutBatch[]>('GET', '/api/back-office/onchain-payouts', backOffice);
    expect(batch?.state).toBe('awaiting_signature');
    const download = await t.app.inject({
      method: 'GET',
      url: `/api/back-office/onchain-payouts/${batch?.id}/psbt`,
      headers: backOffice,
    });
    const psbt = Psbt.fromBuffer(download.rawPayload, { network: networks.regtest });
    // Each input carries its previous transaction, which hardware wallets require.
    psbt.data.inputs.forEach((input, index) => {
      const spent = Buffer.from(psbt.txInputs[index]?.hash ?? [])
        .reverse()
        .toString('hex');
      expect(BitcoinjsTransaction.fromBuffer(input.nonWitnessUtxo as Uint8Array).getId()).toBe(spent);
    });
    // The change is the operator's own key under its master, so the wallet shows no payment out for it.
    const change = psbt.data.outputs.at(-1)?.bip32Derivation?.[0];
    expect(Buffer.from(change?.masterFingerprint ?? []).readUInt32BE(0)).toBe(operatorMaster.fingerprint);
    expect(change?.path).toMatch(/^m\/84'\/1'\/0'\/1\/\d+$/);
    expect(
      Buffer.from(change?.pubkey ?? []).equals(
        Buffer.from(operatorMaster.derive(change?.path ?? 'm').publicKey as Uint8Array),
      ),
    ).toBe(true);

    psbt.signAllInputsHD(hdSigner(operatorMaster));
    psbt.finalizeAllInputs();
    const accepted = await t.app.inject({
      method: 'POST',
      url: `/api/back-office/onchain-payouts/${batch?.id}/signed`,
      headers: backOffice,
      payload: { transaction: psbt.toBase64() },
    });
    expect(accepted.statusCode, accepted.body).toBe(200);
    expect(accepted.json()).toMatchObject({ state: 'broadcast', txid: batch?.txid });
    expect(esplora.chain.get(batch?.txid ?? '')?.hex).toBe(psbt.extractTransaction().toHex());
    expect((await payoutsOf(shop.organizationId)).map((p) => p.state)).toEqual(['sent']);
  });
});

describe('the fee of an on-chain payout batch', () => {
  it('is CHAIN_FALLBACK_FEE_RATE when Esplora has no estimate ({}), and the run goes on', async () => {
    const saved = esplora.feeEstimates;
    esplora.feeEstimates = {};
    try {
      await shopWithSale(1500n, 2);
      await runOnchainPayouts(systemContext('pay-onchain-payouts'), { db: t.db, config: t.config, chain }, log);
    } finally {
      esplora.feeEstimates = saved;
    }
    const [batch] = await call<OnchainPayoutBatch[]>('GET', '/api/back-office/onchain-payouts', backOffice);
    expect(batch?.state).toBe('awaiting_signature');
    // 10 sat/vB, the default fallback.
    const stored = await t.db
      .selectFrom('onchain_payout_batches')
      .select('fee_rate_sat_per_kvb')
      .where('id', '=', batch?.id ?? '')
      .executeTakeFirstOrThrow();
    expect(stored.fee_rate_sat_per_kvb).toBe('10000');
    expect(batch?.feeSats).toBeGreaterThanOrEqual((batch?.vsize ?? 0) * 10);
  });
});
