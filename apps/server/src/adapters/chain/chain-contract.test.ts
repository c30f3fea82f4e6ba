import { randomBytes } from 'node:crypto';
import { hex } from '@scure/base';
import { HDKey } from '@scure/bip32';
import { p2wpkh, Transaction } from '@scure/btc-signer';
import { Transaction as BitcoinjsTransaction } from 'bitcoinjs-lib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type FakeEsplora, startFakeEsplora } from '../../../test/fakes/esplora-server.ts';
import { createTestDatabase, type TestDatabase } from '../../../test/test-app.ts';
import { createDatabase, type Db } from '../../db/database.ts';
import { addressNetwork } from '../../domain/onchain-wallet.ts';
import { createDevnetChain, mineDevnetBlocks, sendDevnetPayment } from './devnet.ts';
import { createEsploraChain } from './esplora.ts';
import { type ChainBackend, ChainBackendError } from './types.ts';

/**
 * One contract, two chains: the devnet chain answers every question the payouts and the checkout
 * watcher ask exactly as the Esplora chain answers it against a server speaking Esplora's API as
 * electrs does (test/fakes/esplora-server.ts). Whatever passes on devnet therefore means the same
 * against a real explorer, unknown transactions above all.
 */

type Harness = {
  chain: ChainBackend;
  /** Someone else's wallet pays `sats` to `address`, in the mempool. */
  fund: (address: string, sats: bigint) => Promise<string>;
  mine: (count: number) => Promise<number>;
};

let database: TestDatabase;
let db: Db;
let esplora: FakeEsplora;
const harnesses: Record<string, () => Harness> = {
  devnet: () => ({
    chain: createDevnetChain(db),
    fund: async (address, sats) => (await sendDevnetPayment(db, address, sats)).txid,
    mine: (count) => mineDevnetBlocks(db, count),
  }),
  esplora: () => ({
    chain: createEsploraChain({ baseUrl: esplora.url, network: 'regtest' }),
    fund: async (address, sats) => esplora.fund(address, sats, { confirmed: false }),
    mine: async (count) => esplora.mine(count),
  }),
};

beforeAll(async () => {
  database = await createTestDatabase();
  db = createDatabase(database.url, 4);
  esplora = await startFakeEsplora();
});
afterAll(async () => {
  await esplora?.close();
  await db?.destroy();
  await database?.drop();
});

/** A key of the test's own wallet and its regtest address. */
function wallet() {
  const key = HDKey.fromMasterSeed(randomBytes(32)).deriveChild(0);
  const script = p2wpkh(key.publicKey as Uint8Array, addressNetwork('regtest'));
  return { key, address: script.address as string, script: script.script };
}

/** Spends one output of `from` to `to`, paying `feeSats`, signalling replaceability; signed unless told. */
function spend(
  from: ReturnType<typeof wallet>,
  prevout: { txid: string; vout: number; valueSats: bigint },
  to: string,
  feeSats: bigint,
  options: { sign?: boolean } = {},
): string {
  const tx = new Transaction();
  tx.addInput({
    txid: hex.decode(prevout.txid),
    index: prevout.vout,
    witnessUtxo: { script: from.script, amount: prevout.valueSats },
    sequence: 0xfffffffd,
  });
  tx.addOutputAddress(to, prevout.valueSats - feeSats, addressNetwork('regtest'));
  if (options.sign === false) return hex.encode(tx.unsignedTx);
  tx.signIdx(from.key.privateKey as Uint8Array, 0);
  tx.finalize();
  return tx.hex;
}

describe.each(Object.keys(harnesses))('the %s chain', (name) => {
  let h: Harness;
  beforeAll(() => {
    h = (harnesses[name] as () => Harness)();
  });

  it('does not know a txid it has never seen: null, never "in the mempool"', async () => {
    const unknown = randomBytes(32).toString('hex');
    expect(await h.chain.getTransactionStatus(unknown)).toBeNull();
    expect(await h.chain.getRawTransaction(unknown)).toBeNull();
  });

  it('follows a payment from the mempool into a block, and hands out the transaction itself', async () => {
    const payee = wallet();
    const txid = await h.fund(payee.address, 50_000n);
    expect(await h.chain.getTransactionStatus(txid)).toEqual({ blockHeight: null });
    expect(await h.chain.listAddressOutputs(payee.address)).toEqual([
      { txid, vout: 0, valueSats: 50_000n, blockHeight: null },
    ]);
    // The previous transaction a hardware wallet asks for: its hash is the txid.
    const raw = await h.chain.getRawTransaction(txid);
    expect(BitcoinjsTransaction.fromHex(raw as string).getId()).toBe(txid);
    const tip = await h.mine(1);
    expect(await h.chain.getTipHeight()).toBe(tip);
    expect(await h.chain.getTransactionStatus(txid)).toEqual({ blockHeight: tip });
    expect(await h.chain.listAddressUtxos(payee.address)).toEqual([
      { txid, vout: 0, valueSats: 50_000n, blockHeight: tip },
    ]);
  });

  it('takes a signed spend once, refuses what Bitcoin Core refuses, and lets a replacement evict it', async () => {
    const from = wallet();
    const to = wallet();
    const funded = await h.fund(from.address, 100_000n);
    await h.mine(1);
    const prevout = { txid: funded, vout: 0, valueSats: 100_000n };

    const unsigned = h.chain.broadcastTransaction(spend(from, prevout, to.address, 500n, { sign: false }));
    await expect(unsigned).rejects.toBeInstanceOf(ChainBackendError);
    await expect(unsigned).rejects.toThrow('mandatory-script-verify-flag-failed (Witness program hash mismatch)');
    // Signed, then changed: the signature no longer covers what it spends.
    const altered = BitcoinjsTransaction.fromHex(spend(from, prevout, to.address, 500n));
    (altered.outs[0] as { value: bigint }).value -= 1n;
    await expect(h.chain.broadcastTransaction(altered.toHex())).rejects.toThrow(
      'mandatory-script-verify-flag-failed (Signature must be zero',
    );
    await expect(h.chain.broadcastTransaction(spend(from, prevout, to.address, 0n))).rejects.toThrow(
      'min relay fee not met',
    );
    const first = spend(from, prevout, to.address, 300n);
    const firstTxid = await h.chain.broadcastTransaction(first);
    // Sent again while in the mempool: accepted again, same txid.
    expect(await h.chain.broadcastTransaction(first)).toBe(firstTxid);
    expect(await h.chain.getTransactionStatus(firstTxid)).toEqual({ blockHeight: null });
    expect(await h.chain.listAddressUtxos(from.address)).toEqual([]);
    expect((await h.chain.listAddressUtxos(to.address)).map((utxo) => utxo.valueSats)).toEqual([99_700n]);

    // A replacement must pay more than the replaced fee plus 1 sat/vB of its own size.
    await expect(h.chain.broadcastTransaction(spend(from, prevout, to.address, 350n))).rejects.toThrow(
      'insufficient fee',
    );
    const bumped = await h.chain.broadcastTransaction(spend(from, prevout, to.address, 800n));
    expect(await h.chain.getTransactionStatus(firstTxid)).toBeNull();
    expect(await h.chain.getRawTransaction(firstTxid)).toBeNull();
    expect((await h.chain.listAddressUtxos(to.address)).map((utxo) => utxo.valueSats)).toEqual([99_200n]);

    const tip = await h.mine(1);
    expect(await h.chain.getTransactionStatus(bumped)).toEqual({ blockHeight: tip });
    await expect(h.chain.broadcastTransaction(spend(from, prevout, to.address, 900n))).rejects.toThrow(
      'bad-txns-inputs-missingorspent',
    );
  });

  it('lists every output paying an address however long its history', async () => {
    const payee = wallet();
    for (let n = 0; n < 60; n += 1) {
      await h.fund(payee.address, BigInt(1_000 + n));
      await h.mine(1);
    }
    await h.fund(payee.address, 999n);
    const outputs = await h.chain.listAddressOutputs(payee.address);
    expect(outputs).toHaveLength(61);
    expect(outputs.filter((output) => output.blockHeight === null).map((output) => output.valueSats)).toEqual([999n]);
    expect(new Set(outputs.map((output) => output.valueSats)).size).toBe(61);
  });
});
