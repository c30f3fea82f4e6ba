import { randomBytes } from 'node:crypto';
import { secp256k1 } from '@noble/curves/secp256k1.js';
import { p2wpkh } from '@scure/btc-signer';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type FakeEsplora, startFakeEsplora } from '../../../test/fakes/esplora-server.ts';
import { addressNetwork } from '../../domain/onchain-wallet.ts';
import { createEsploraChain } from './esplora.ts';
import { ChainBackendError } from './types.ts';

function newAddress(): string {
  return p2wpkh(secp256k1.getPublicKey(secp256k1.utils.randomSecretKey()), addressNetwork('regtest')).address as string;
}

const ADDRESS = newAddress();
const OTHER = newAddress();

let esplora: FakeEsplora;

beforeAll(async () => {
  esplora = await startFakeEsplora();
});
afterAll(async () => {
  await esplora?.close();
});
beforeEach(() => {
  esplora.behave();
  esplora.firstPageConfirmed = 25;
});

function chain(options: { timeoutMs?: number; maxAnswerBytes?: number } = {}) {
  return createEsploraChain({ baseUrl: `${esplora.url}/`, network: 'regtest', ...options });
}

function pathsSince(from: number): string[] {
  return esplora.requests.slice(from).map((request) => request.path);
}

describe('the Esplora chain source', () => {
  it('reads the tip height from the plain-text answer', async () => {
    expect(await chain().getTipHeight()).toBe(esplora.chain.tipHeight());
  });

  it('takes a txid Esplora has never seen as unknown, though its /status answers {"confirmed":false}', async () => {
    const unknown = randomBytes(32).toString('hex');
    const status = await fetch(`${esplora.url}/tx/${unknown}/status`);
    expect(status.status).toBe(200);
    expect(await status.json()).toEqual({ confirmed: false });
    expect(await chain().getTransactionStatus(unknown)).toBeNull();
    expect(await chain().getRawTransaction(unknown)).toBeNull();
  });

  it('reads every confirmed page at Blockstream (25 a page) and mempool.space (50 on the first)', async () => {
    const txids = [];
    for (let n = 0; n < 62; n += 1) txids.push(esplora.fund(ADDRESS, BigInt(1_000 + n)));
    const waiting = [esplora.fund(ADDRESS, 7n, { confirmed: false }), esplora.fund(ADDRESS, 8n, { confirmed: false })];
    esplora.fund(OTHER, 5n);
    for (const firstPage of [25, 50]) {
      esplora.firstPageConfirmed = firstPage;
      const from = esplora.requests.length;
      const outputs = await chain().listAddressOutputs(ADDRESS);
      expect(outputs).toHaveLength(64);
      expect(new Set(outputs.map((output) => output.txid))).toEqual(new Set([...txids, ...waiting]));
      expect(
        outputs
          .filter((output) => output.blockHeight === null)
          .map((output) => output.txid)
          .sort(),
      ).toEqual([...waiting].sort());
      const paths = pathsSince(from);
      expect(paths[0]).toBe(`/address/${ADDRESS}/txs`);
      expect(paths.slice(1).every((path) => path.startsWith(`/address/${ADDRESS}/txs/chain/`))).toBe(true);
      // 62 confirmed: 25 + 25 + 12 pages at Blockstream, 50 + 12 at mempool.space.
      expect(paths).toHaveLength(firstPage === 25 ? 3 : 2);
    }
  });

  it('goes on from the start of the confirmed history when the first page is all mempool', async () => {
    const address = newAddress();
    const confirmed = esplora.fund(address, 3_000n);
    for (let n = 0; n < 26; n += 1) esplora.fund(address, BigInt(100 + n), { confirmed: false });
    esplora.firstPageConfirmed = 0;
    const outputs = await chain().listAddressOutputs(address);
    expect(outputs).toHaveLength(27);
    expect(outputs.find((output) => output.txid === confirmed)?.blockHeight).toBe(
      esplora.chain.get(confirmed)?.blockHeight,
    );
  });

  it('answers null when the node has no fee estimate ({}), else the nearest target at or below', async () => {
    const saved = esplora.feeEstimates;
    expect(await chain().estimateFeeRate(6)).toBe(4.2);
    expect(await chain().estimateFeeRate(4)).toBe(9.1);
    expect(await chain().estimateFeeRate(2000)).toBe(1);
    esplora.feeEstimates = {};
    expect(await chain().estimateFeeRate(6)).toBeNull();
    esplora.feeEstimates = saved;
  });

  it('passes the node refusal of a broadcast on', async () => {
    await expect(chain().broadcastTransaction('00')).rejects.toThrow(
      'HTTP 400 sendrawtransaction RPC error: {"code":-22,"message":"TX decode failed.',
    );
  });

  it('turns truncated JSON, wrong types, huge or failed answers and silence into a ChainBackendError', async () => {
    const txid = esplora.fund(ADDRESS, 4_000n);
    const calls = {
      history: (c: ReturnType<typeof chain>) => c.listAddressOutputs(ADDRESS),
      utxos: (c: ReturnType<typeof chain>) => c.listAddressUtxos(ADDRESS),
      status: (c: ReturnType<typeof chain>) => c.getTransactionStatus(txid),
      raw: (c: ReturnType<typeof chain>) => c.getRawTransaction(txid),
      fees: (c: ReturnType<typeof chain>) => c.estimateFeeRate(6),
      tip: (c: ReturnType<typeof chain>) => c.getTipHeight(),
    };
    for (const how of ['truncated', 'wrong-types', 'huge', 'unavailable', 'silent'] as const) {
      esplora.behave();
      esplora.misbehave(/./, how, 2 * 1024 * 1024);
      for (const [name, call] of Object.entries(calls)) {
        const failure = call(chain({ timeoutMs: 300, maxAnswerBytes: 1024 * 1024 }));
        await expect(failure, `${how} ${name}`).rejects.toBeInstanceOf(ChainBackendError);
      }
    }
    esplora.behave();
    expect(await chain().getTransactionStatus(txid)).toEqual({ blockHeight: esplora.chain.get(txid)?.blockHeight });
    const dead = createEsploraChain({ baseUrl: 'http://127.0.0.1:9/api', network: 'regtest', timeoutMs: 2_000 });
    await expect(dead.getTipHeight()).rejects.toBeInstanceOf(ChainBackendError);
  });
});
