import { hex } from '@scure/base';
import { Transaction } from '@scure/btc-signer';
import { fetch, type Response } from 'undici';
import { z } from 'zod';
import type { BitcoinNetwork } from '../../domain/bitcoin-address.ts';
import { deadline, describeFailure } from '../lightning/http.ts';
import { readCapped } from '../read-capped.ts';
import { type AddressOutput, type ChainBackend, ChainBackendError } from './types.ts';

export type EsploraOptions = {
  /** e.g. `https://blockstream.info/api` or `https://mempool.space/testnet4/api`. */
  baseUrl: string;
  network: BitcoinNetwork;
  /** Per request. Default 10 s. */
  timeoutMs?: number;
  /** Most pages read per address history (25 or more transactions each). Default 40. */
  maxPages?: number;
  /** The largest answer read; a bigger one is a failure. Default 8 MiB. */
  maxAnswerBytes?: number;
};

const TXID = /^[0-9a-f]{64}$/;

/**
 * Esplora's transaction status (API.md "Transaction format"): a confirmed one names its block;
 * electrs leaves the block fields out while unconfirmed (util/transaction.rs), others send null.
 */
const EsploraStatusSchema = z.union([
  z.object({ confirmed: z.literal(true), block_height: z.number().int().nonnegative() }),
  z.object({ confirmed: z.literal(false) }),
]);
type EsploraStatus = z.infer<typeof EsploraStatusSchema>;

/** Esplora's documented transaction shape, reduced to what Rayo reads (protocols.md §6). */
const EsploraTxSchema = z.object({
  txid: z.string().regex(TXID),
  vout: z.array(z.object({ scriptpubkey_address: z.string().optional(), value: z.number().int().nonnegative() })),
  status: EsploraStatusSchema,
});
type EsploraTx = z.infer<typeof EsploraTxSchema>;

const EsploraUtxoSchema = z.object({
  txid: z.string().regex(TXID),
  vout: z.number().int().nonnegative(),
  value: z.number().int().nonnegative(),
  status: EsploraStatusSchema,
});

/** Target (blocks) → sat/vB; `{}` when the node cannot estimate (electrs query.rs `estimate_fee_map`). */
const FeeEstimatesSchema = z.record(z.string().regex(/^\d{1,4}$/), z.number().positive().finite());

const ANY_SCRIPTS = { allowUnknownInputs: true, allowUnknownOutputs: true, disableScriptCheck: true } as const;

/** Esplora pages confirmed transactions 25 at a time (electrs rest.rs CHAIN_TXS_PER_PAGE). */
const CHAIN_PAGE_SIZE = 25;

function blockHeightOf(status: EsploraStatus): number | null {
  return status.confirmed ? status.block_height : null;
}

/** An Esplora HTTP API (Blockstream's or mempool.space's) as the chain source. */
export function createEsploraChain(options: EsploraOptions): ChainBackend {
  const base = options.baseUrl.replace(/\/+$/, '');
  const timeoutMs = options.timeoutMs ?? 10_000;
  const maxPages = options.maxPages ?? 40;
  const maxAnswerBytes = options.maxAnswerBytes ?? 8 * 1024 * 1024;

  /** The status and the whole body, read within the deadline and the size cap. */
  async function send(path: string, init: { method?: string; body?: string } = {}) {
    let response: Response;
    const signal = deadline(timeoutMs);
    try {
      response = await fetch(`${base}${path}`, {
        ...init,
        ...(init.body === undefined ? {} : { headers: { 'content-type': 'text/plain' } }),
        signal,
      });
    } catch (error) {
      throw new ChainBackendError(`Esplora ${path}: ${describeFailure(error)}`, { cause: error });
    }
    let text: string | undefined;
    try {
      text = await readCapped(response.body, maxAnswerBytes);
    } catch (error) {
      throw new ChainBackendError(`Esplora ${path}: ${describeFailure(error)}`, { cause: error });
    }
    if (text === undefined) throw new ChainBackendError(`Esplora ${path} answered more than ${maxAnswerBytes} bytes`);
    return { status: response.status, text };
  }

  async function get(path: string, options: { notFound?: true } = {}): Promise<string | null> {
    const { status, text } = await send(path);
    if (status === 404 && options.notFound) return null;
    if (status !== 200) throw new ChainBackendError(`Esplora ${path} answered HTTP ${status} ${text.slice(0, 200)}`);
    return text;
  }

  function parse<T>(path: string, text: string, schema: z.ZodType<T>): T {
    let body: unknown;
    try {
      body = JSON.parse(text);
    } catch (error) {
      throw new ChainBackendError(`Esplora ${path} answered something other than JSON`, { cause: error });
    }
    const parsed = schema.safeParse(body);
    if (!parsed.success) throw new ChainBackendError(`Esplora ${path} answered an unexpected body`);
    return parsed.data;
  }

  async function getJson<T>(path: string, schema: z.ZodType<T>): Promise<T> {
    return parse(path, (await get(path)) as string, schema);
  }

  function getTxs(path: string): Promise<EsploraTx[]> {
    return getJson(path, z.array(EsploraTxSchema));
  }

  return {
    name: 'esplora',
    network: options.network,

    async getTipHeight() {
      const text = ((await get('/blocks/tip/height')) as string).trim();
      if (!/^\d{1,9}$/.test(text)) throw new ChainBackendError('Esplora answered a tip height that is not a number');
      return Number(text);
    },

    async listAddressOutputs(address) {
      const path = `/address/${encodeURIComponent(address)}/txs`;
      // The first page holds the mempool and the newest confirmed transactions: 25 of them at
      // Blockstream, up to 50 at mempool.space, and a self-hosted mempool/electrs fills 25 places
      // with the mempool first. Whenever a page is that full, older confirmed transactions may
      // follow: they are read on from the last confirmed txid seen, until a page is not full.
      const txs = new Map<string, EsploraTx>();
      let page = await getTxs(path);
      let lastSeen: string | undefined;
      for (let pages = 1; ; pages += 1) {
        for (const tx of page) {
          txs.set(tx.txid, tx);
          if (tx.status.confirmed) lastSeen = tx.txid;
        }
        if (page.length < CHAIN_PAGE_SIZE) break;
        if (pages >= maxPages) {
          throw new ChainBackendError(`Esplora ${path}: more than ${maxPages} pages of transactions`);
        }
        page = await getTxs(lastSeen === undefined ? `${path}/chain` : `${path}/chain/${lastSeen}`);
      }
      const outputs: AddressOutput[] = [];
      for (const tx of txs.values()) {
        tx.vout.forEach((out, vout) => {
          if (out.scriptpubkey_address === address && out.value > 0) {
            outputs.push({ txid: tx.txid, vout, valueSats: BigInt(out.value), blockHeight: blockHeightOf(tx.status) });
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
          blockHeight: blockHeightOf(utxo.status),
        }));
    },

    async estimateFeeRate(targetBlocks) {
      const estimates = await getJson('/fee-estimates', FeeEstimatesSchema);
      // The estimate for the nearest target at or below the one asked for, else the slowest given.
      const targets = Object.keys(estimates)
        .map(Number)
        .filter((target) => target > 0)
        .sort((a, b) => a - b);
      const target = targets.filter((t) => t <= targetBlocks).pop() ?? targets[0];
      return target === undefined ? null : (estimates[String(target)] as number);
    },

    async broadcastTransaction(rawHex) {
      const { status, text } = await send('/tx', { method: 'POST', body: rawHex });
      const answer = text.trim();
      if (status !== 200) {
        throw new ChainBackendError(`Esplora refused the transaction: HTTP ${status} ${answer.slice(0, 300)}`);
      }
      if (!TXID.test(answer)) {
        throw new ChainBackendError('Esplora answered a broadcast with something other than a txid');
      }
      return answer;
    },

    async getTransactionStatus(txid) {
      // Not `/tx/:txid/status`: Esplora answers it `{"confirmed":false}` for a txid it has never
      // seen, the same as for one in its mempool (electrs query.rs `get_tx_status` reads only the
      // confirming block). `/tx/:txid` answers 404 "Transaction not found" for it (rest.rs).
      const path = `/tx/${encodeURIComponent(txid)}`;
      const text = await get(path, { notFound: true });
      if (text === null) return null;
      const tx = parse(path, text, EsploraTxSchema);
      if (tx.txid !== txid) throw new ChainBackendError(`Esplora ${path} answered another transaction`);
      return { blockHeight: blockHeightOf(tx.status) };
    },

    async getRawTransaction(txid) {
      const path = `/tx/${encodeURIComponent(txid)}/hex`;
      const text = await get(path, { notFound: true });
      if (text === null) return null;
      const raw = text.trim().toLowerCase();
      // The txid is the hash of what came back, so an answer for another transaction is caught.
      // It may be anyone's transaction (the payer's, for a checkout output), of any script type.
      let id: string | undefined;
      try {
        id = /^[0-9a-f]+$/.test(raw) ? Transaction.fromRaw(hex.decode(raw), ANY_SCRIPTS).id : undefined;
      } catch {
        id = undefined;
      }
      if (id !== txid) throw new ChainBackendError(`Esplora ${path} answered something other than that transaction`);
      return raw;
    },
  };
}
