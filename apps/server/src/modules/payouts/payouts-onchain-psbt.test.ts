import { randomBytes } from 'node:crypto';
import { once } from 'node:events';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Account, Bpt, OnchainPayoutBatch, PayoutPage, PublicCheckout, VirtualBpt } from '@rayo/shared';
import { base64 } from '@scure/base';
import { HDKey } from '@scure/bip32';
import { Transaction } from '@scure/btc-signer';
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
import { createChainBackend } from '../../adapters/chain/index.ts';
import type { ChainBackend } from '../../adapters/chain/types.ts';
import { accountKeyFromSeed, deriveReceiveAddress } from '../../domain/onchain-wallet.ts';
import { listAuditEntries } from '../audit/audit.repo.ts';
import { createCheckout } from '../checkouts/checkouts.service.ts';
import { listNotifications } from '../notifications/notifications.repo.ts';
import { watchCheckoutPayments } from '../onchain/onchain.service.ts';
import { runOnchainPayouts } from './payouts-onchain.service.ts';

/**
 * An Esplora server as documented (protocols.md §6), holding a small chain: the transactions
 * paying checkout addresses, and what is broadcast to it. `refuse` makes `POST /tx` fail.
 */
function startEsploraStandIn() {
  type Tx = {
    txid: string;
    inputs: string[];
    outputs: Array<{ address: string; value: number }>;
    height: number | null;
  };
  const txs: Tx[] = [];
  const received: string[] = [];
  const state = { tip: 1_000, refuse: false };
  const spent = () => new Set(txs.flatMap((tx) => tx.inputs));
  const json = (tx: Tx) => ({
    txid: tx.txid,
    vout: tx.outputs.map((output) => ({ scriptpubkey_address: output.address, value: output.value })),
    status: tx.height === null ? { confirmed: false } : { confirmed: true, block_height: tx.height },
  });
  const server: Server = createServer((request, response) => {
    const url = request.url ?? '';
    const answer = (status: number, body: unknown) => {
      const text = typeof body === 'string' ? body : JSON.stringify(body);
      response.writeHead(status, { 'content-type': typeof body === 'string' ? 'text/plain' : 'application/json' });
      response.end(text);
    };
    const status = url.match(/^\/api\/tx\/([0-9a-f]{64})\/status$/)?.[1];
    const history = url.match(/^\/api\/address\/([a-z0-9]+)\/txs$/)?.[1];
    const unspent = url.match(/^\/api\/address\/([a-z0-9]+)\/utxo$/)?.[1];
    if (request.method === 'POST' && url === '/api/tx') {
      let body = '';
      request.on('data', (chunk: Buffer) => {
        body += chunk.toString();
      });
      request.on('end', () => {
        received.push(body);
        if (state.refuse)
          return answer(400, 'sendrawtransaction RPC error: {"code":-26,"message":"min relay fee not met"}');
        const tx = BitcoinjsTransaction.fromHex(body);
        txs.push({
          txid: tx.getId(),
          inputs: tx.ins.map((input) => `${Buffer.from(input.hash).reverse().toString('hex')}:${input.index}`),
          outputs: tx.outs.map((output) => ({
            address: bitcoinjsAddress.fromOutputScript(output.script, networks.regtest),
            value: Number(output.value),
          })),
          height: null,
        });
        answer(200, tx.getId());
      });
    } else if (url === '/api/blocks/tip/height') {
      answer(200, String(state.tip));
    } else if (url === '/api/fee-estimates') {
      answer(200, { '1': 20.5, '3': 9.1, '6': 4.2, '144': 1.01 });
    } else if (status) {
      const tx = txs.find((candidate) => candidate.txid === status);
      if (tx) answer(200, json(tx).status);
      else answer(404, 'Transaction not found');
    } else if (history) {
      answer(200, txs.filter((tx) => tx.outputs.some((output) => output.address === history)).map(json));
    } else if (unspent) {
      const gone = spent();
      answer(
        200,
        txs.flatMap((tx) =>
          tx.outputs.flatMap((output, vout) =>
            output.address === unspent && !gone.has(`${tx.txid}:${vout}`)
              ? [{ txid: tx.txid, vout, value: output.value, status: json(tx).status }]
              : [],
          ),
        ),
      );
    } else {
      answer(404, 'Not found');
    }
  });
  return {
    server,
    state,
    received,
    txs,
    /** A confirmed payment to `address`, as someone's wallet would make it. */
    pay(address: string, value: number) {
      txs.push({
        txid: randomBytes(32).toString('hex'),
        inputs: [],
        outputs: [{ address, value }],
        height: state.tip - 5,
      });
    },
  };
}

let esplora: ReturnType<typeof startEsploraStandIn>;
let t: TestApp;
let chain: ChainBackend;
let backOffice: { authorization: string };
const log = { debug: () => {}, info: () => {}, warn: () => {} };
// The operator's wallet: its master key signs; Rayo holds only the account's xpub.
const operatorMaster = HDKey.fromMasterSeed(randomBytes(32), { private: 0x04358394, public: 0x043587cf });
const merchantWallet = accountKeyFromSeed(randomBytes(32));

beforeAll(async () => {
  esplora = startEsploraStandIn();
  esplora.server.listen(0, '127.0.0.1');
  await once(esplora.server, 'listening');
  const account = operatorMaster.derive("m/84'/1'/0'");
  const fingerprint = operatorMaster.fingerprint.toString(16).padStart(8, '0');
  t = await createTestApp(
    {
      CHAIN_BACKEND: 'esplora',
      ESPLORA_URL: `http://127.0.0.1:${(esplora.server.address() as AddressInfo).port}/api`,
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
  esplora?.server.close();
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
  esplora.pay(onchain.address, onchain.amountSats);
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

function payoutsOf(organizationId: string) {
  return t.db.selectFrom('payouts').selectAll().where('organization_id', '=', organizationId).execute();
}

describe('on-chain payouts without a hot wallet', () => {
  it('offer a PSBT to back office, take the signed one back, broadcast it and mark the payouts sent', async () => {
    const shop = await shopWithSale(2500n, 0);
    await runOnchainPayouts({ db: t.db, config: t.config, chain }, log);
    const [batch] = await call<OnchainPayoutBatch[]>('GET', '/api/back-office/onchain-payouts', backOffice);
    expect(batch).toMatchObject({ state: 'awaiting_signature', outputs: 1, amountSats: 22_500, attempts: 0 });
    expect(esplora.received).toEqual([]);
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
    expect(esplora.received).toEqual([]);

    const signed = signAsOperator(download.rawPayload);
    const accepted = await submit(signed);
    expect(accepted.statusCode, accepted.body).toBe(200);
    expect(accepted.json()).toMatchObject({ state: 'broadcast', txid: batch?.txid });
    expect(esplora.received).toHaveLength(1);
    expect(BitcoinjsTransaction.fromHex(esplora.received[0] as string).getId()).toBe(batch?.txid);
    expect((await payoutsOf(shop.organizationId)).map((p) => p.state)).toEqual(['sent']);
    expect((await submit(signed)).json()).toMatchObject({ code: 'BatchNotAwaitingSignature' });

    // A block later the merchant sees one confirmation.
    const tx = esplora.txs.find((candidate) => candidate.txid === batch?.txid);
    if (tx) tx.height = esplora.state.tip + 1;
    esplora.state.tip += 1;
    await runOnchainPayouts({ db: t.db, config: t.config, chain }, log);
    const page = await call<PayoutPage>('GET', '/api/settings/payouts', shop.admin);
    expect(page.payouts[0]).toMatchObject({ kind: 'onchain', state: 'sent', txid: batch?.txid, confirmations: 1 });
  });

  it('retry a refused broadcast with backoff and tell back office after repeated failures', async () => {
    const shop = await shopWithSale(1800n, 1);
    await runOnchainPayouts({ db: t.db, config: t.config, chain }, log);
    const [batch] = await call<OnchainPayoutBatch[]>('GET', '/api/back-office/onchain-payouts', backOffice);
    expect(batch?.state).toBe('awaiting_signature');
    const download = await t.app.inject({
      method: 'GET',
      url: `/api/back-office/onchain-payouts/${batch?.id}/psbt`,
      headers: backOffice,
    });
    esplora.state.refuse = true;
    const answer = await call<OnchainPayoutBatch>(
      'POST',
      `/api/back-office/onchain-payouts/${batch?.id}/signed`,
      backOffice,
      { transaction: signAsOperator(download.rawPayload) },
    );
    expect(answer).toMatchObject({ state: 'signed', attempts: 1 });
    expect(answer.lastError).toContain('min relay fee not met');
    expect((await payoutsOf(shop.organizationId)).map((p) => [p.state, p.attempts])).toEqual([['failed', 1]]);

    // Not before its time: the backoff holds the next attempt.
    const sentSoFar = esplora.received.length;
    await runOnchainPayouts({ db: t.db, config: t.config, chain }, log);
    expect(esplora.received).toHaveLength(sentSoFar);
    await t.db.updateTable('onchain_payout_batches').set({ next_attempt_at: new Date() }).execute();
    await runOnchainPayouts({ db: t.db, config: t.config, chain }, log);
    expect((await payoutsOf(shop.organizationId)).map((p) => [p.state, p.attempts])).toEqual([['failed', 2]]);
    const alerts = (await listNotifications(t.db, { organizationId: shop.organizationId })).filter(
      (notification) => notification.kind === 'payout.failed',
    );
    expect(alerts).toHaveLength(1);

    esplora.state.refuse = false;
    await t.db.updateTable('onchain_payout_batches').set({ next_attempt_at: new Date() }).execute();
    await runOnchainPayouts({ db: t.db, config: t.config, chain }, log);
    expect((await payoutsOf(shop.organizationId)).map((p) => p.state)).toEqual(['sent']);
    expect(esplora.txs.filter((candidate) => candidate.txid === batch?.txid)).toHaveLength(1);
  });
});
