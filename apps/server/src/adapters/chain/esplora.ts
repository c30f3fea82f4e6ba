import { fetch, type Response } from 'undici';
import { z } from 'zod';
import type { BitcoinNetwork } from '../../domain/bitcoin-address.ts';
import { deadline, describeFailure } from '../lightning/http.ts';
import { type AddressOutput, type ChainBackend, ChainBackendError } from './types.ts';

export type EsploraOptions = {
  /** e.g. `https://blockstream.info/api` or `https://mempool.space/testnet4/api`. */
  baseUrl: string;
  network: BitcoinNetwork;
  /** Per request. Default 10 s. */
  timeoutMs?: number;
  /** Most pages of confirmed transactions read per address (25 each). Default 40. */
  maxPages?: number;
};

/** Esplora's documented transaction shape, reduced to what the watcher reads (protocols.md §6). */
const EsploraTxSchema = z.object({
  txid: z.string().regex(/^[0-9a-f]{64}$/),
  vout: z.array(z.object({ scriptpubkey_address: z.string().optional(), value: z.number().int().nonnegative() })),
  status: z.object({ confirmed: z.boolean(), block_height: z.number().int().nonnegative().nullish() }),
});
type EsploraTx = z.infer<typeof EsploraTxSchema>;
const TXID = /^[0-9a-f]{64}$/;
const EsploraStatusSchema = z.object({
  confirmed: z.boolean(),
  block_height: z.number().int().nonnegative().nullish(),
});
const EsploraUtxoSchema = z.object({
  txid: z.string().regex(TXID),
  vout: z.number().int().nonnegative(),
  value: z.number().int().nonnegative(),
  status: EsploraStatusSchema,
});

/** Esplora answers at most 25 confirmed transactions per page. */
const CHAIN_PAGE_SIZE = 25;

/** An Esplora HTTP API (Blockstream's or mempool.space's) as the chain source. */
export function createEsploraChain(options: EsploraOptions): ChainBackend {
  const base = options.baseUrl.replace(/\/+$/, '');
  const timeoutMs = options.timeoutMs ?? 10_000;
  const maxPages = options.maxPages ?? 40;

  async function send(path: string, init: { method?: string; body?: string } = {}): Promise<Response> {
    try {
      return await fetch(`${base}${path}`, {
        ...init,
        ...(init.body === undefined ? {} : { headers: { 'content-type': 'text/plain' } }),
        signal: deadline(timeoutMs),
      });
    } catch (error) {
      throw new ChainBackendError(`Esplora ${path}: ${describeFailure(error)}`, { cause: error });
    }
  }

  async function get(path: string): Promise<Response> {
    const response = await send(path);
    if (!response.ok) {
      await response.body?.cancel();
      throw new ChainBackendError(`Esplora ${path} answered HTTP ${response.status}`);
    }
    return response;
  }

  async function getJson<T>(path: string, schema: z.ZodType<T>): Promise<T> {
    const body: unknown = await (await get(path)).json().catch((error: unknown) => {
      throw new ChainBackendError(`Esplora ${path} answered something other than JSON`, { cause: error });
    });
    const parsed = schema.safeParse(body);
    if (!parsed.success) throw new ChainBackendError(`Esplora ${path} answered an unexpected body`);
    return parsed.data;
  }

  function getTxs(path: string): Promise<EsploraTx[]> {
    return getJson(path, z.array(EsploraTxSchema));
  }

  return {
    name: 'esplora',
    network: options.network,

    async getTipHeight() {
      const text = (await (await get('/blocks/tip/height')).text()).trim();
      if (!/^\d{1,9}$/.test(text)) throw new ChainBackendError('Esplora answered a tip height that is not a number');
      return Number(text);
    },

    async listAddressOutputs(address) {
      const path = `/address/${encodeURIComponent(address)}/txs`;
      // The first page holds the mempool and the newest confirmed transactions; older confirmed
      // ones follow in pages after the last txid seen.
      const first = await getTxs(path);
      const txs = new Map(first.map((tx) => [tx.txid, tx]));
      let confirmed = first.filter((tx) => tx.status.confirmed);
      for (let page = 1; confirmed.length === CHAIN_PAGE_SIZE && page < maxPages; page += 1) {
        const lastSeen = confirmed[confirmed.length - 1]?.txid as string;
        confirmed = await getTxs(`${path}/chain/${lastSeen}`);
        for (const tx of confirmed) txs.set(tx.txid, tx);
      }
      const outputs: AddressOutput[] = [];
      for (const tx of txs.values()) {
        const blockHeight = tx.status.confirmed ? (tx.status.block_height ?? null) : null;
        tx.vout.forEach((out, vout) => {
          if (out.scriptpubkey_address === address && out.value > 0) {
            outputs.push({ txid: tx.txid, vout, valueSats: BigInt(out.value), blockHeight });
          }
        });
      }
      return outputs;
    },

    async listAddressUtxos(address) {
      const utxos = await getJson(`/address/${encodeURIComponent(address)}/utxo`, z.array(EsploraUtxoSchema));
      return utxos
        .filter((utxo) => utxo.value > 0)
        .map((utxo) => ({
          txid: utxo.txid,
          vout: utxo.vout,
          valueSats: BigInt(utxo.value),
          blockHeight: utxo.status.confirmed ? (utxo.status.block_height ?? null) : null,
        }));
    },

    async estimateFeeRate(targetBlocks) {
      const estimates = await getJson('/fee-estimates', z.record(z.string(), z.number().positive()));
      // The estimate for the nearest target at or below the one asked for, else the slowest given.
      const targets = Object.keys(estimates)
        .map(Number)
        .filter((target) => Number.isInteger(target) && target > 0)
        .sort((a, b) => a - b);
      const target = targets.filter((t) => t <= targetBlocks).pop() ?? targets[0];
      if (target === undefined) throw new ChainBackendError('Esplora answered no fee estimate');
      return estimates[String(target)] as number;
    },

    async broadcastTransaction(rawHex) {
      const response = await send('/tx', { method: 'POST', body: rawHex });
      const text = (await response.text()).trim();
      if (!response.ok) {
        throw new ChainBackendError(`Esplora refused the transaction: HTTP ${response.status} ${text.slice(0, 200)}`);
      }
      if (!TXID.test(text))
        throw new ChainBackendError('Esplora answered a broadcast with something other than a txid');
      return text;
    },

    async getTransactionStatus(txid) {
      const path = `/tx/${encodeURIComponent(txid)}/status`;
      const response = await send(path);
      if (response.status === 404) {
        await response.body?.cancel();
        return null;
      }
      if (!response.ok) {
        await response.body?.cancel();
        throw new ChainBackendError(`Esplora ${path} answered HTTP ${response.status}`);
      }
      const parsed = EsploraStatusSchema.safeParse(await response.json().catch(() => undefined));
      if (!parsed.success) throw new ChainBackendError(`Esplora ${path} answered an unexpected body`);
      return { blockHeight: parsed.data.confirmed ? (parsed.data.block_height ?? null) : null };
    },
  };
}
