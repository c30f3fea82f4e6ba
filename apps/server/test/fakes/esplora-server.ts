import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { address, networks, script } from 'bitcoinjs-lib';
import { type ChainTx, EsploraChain, NodeRefusal, type Output } from './esplora-chain.ts';

/**
 * A local Esplora HTTP API for tests, answering as Blockstream's electrs does (Blockstream/esplora
 * `API.md`; Blockstream/electrs `src/rest.rs`, `src/util/transaction.rs`, `src/new_index/query.rs`),
 * over a chain of real transactions (esplora-chain.ts). The points Rayo's payouts hang on:
 * - `GET /tx/:txid/status` reads only the confirming block, so a txid the chain has never seen is
 *   `200 {"confirmed":false}`, exactly like one in the mempool (query.rs `get_tx_status`);
 * - `GET /tx/:txid` and `/tx/:txid/hex` answer `404 Transaction not found` for it (rest.rs);
 * - a malformed txid is `400 Invalid hex string` (rest.rs `From<HexToArrayError>`);
 * - `/address/:a/txs` is up to 50 mempool plus the newest 25 confirmed transactions, older ones
 *   come 25 a page from `/txs/chain/:last_seen_txid` (rest.rs CHAIN_TXS_PER_PAGE, MAX_MEMPOOL_TXS);
 *   mempool.space's first page holds up to 50 confirmed (`firstPageConfirmed`);
 * - `/fee-estimates` is `{}` while the node cannot estimate (query.rs `estimate_fee_map`);
 * - `POST /tx` relays Core's refusal as `400 sendrawtransaction RPC error: {"code":…,"message":…}`
 *   (electrs `daemon.rs`, rest.rs `From<errors::Error>`).
 */

export type Misbehaviour =
  /** The answer announces its full length and the connection drops halfway through it. */
  | 'truncated'
  /** Numbers where strings belong and the other way round. */
  | 'wrong-types'
  /** A valid JSON array of `hugeBytes` bytes. */
  | 'huge'
  /** 503 with a text body, as electrs answers a failed lookup (rest.rs `HttpError::lookup`). */
  | 'unavailable'
  /** Never answers. */
  | 'silent';

export type FakeEsplora = {
  /** The API base, `http://127.0.0.1:port/api`. */
  url: string;
  chain: EsploraChain;
  /** Every request, in order. */
  requests: Array<{ method: string; path: string }>;
  /** The body of every `POST /tx`, in order. */
  broadcasts: string[];
  /** While set, the node refuses every broadcast with this JSON-RPC error (say, a full mempool's minimum fee). */
  refuseBroadcasts: { code: number; message: string } | null;
  /** Someone pays `sats` to `address`: confirmed (one block of its own) unless told otherwise. Returns the txid. */
  fund: (to: string, sats: bigint, options?: { confirmed?: boolean }) => string;
  /** Mines `count` blocks, the first confirming the whole mempool; returns the tip height. */
  mine: (count?: number) => number;
  /** `GET /fee-estimates`' answer: target → sat/vB; `{}` when the node cannot estimate. */
  feeEstimates: Record<string, number>;
  /** Confirmed transactions on an address's first page: 25 (Blockstream) or 50 (mempool.space). */
  firstPageConfirmed: number;
  /** Answers of requests whose path matches misbehave in this way, until `behave()`. */
  misbehave: (path: RegExp, how: Misbehaviour, hugeBytes?: number) => void;
  behave: () => void;
  /**
   * Requests matching `path` are handled (a broadcast reaches the chain) but their answer waits
   * until `release()`; `arrived` resolves at the first of them.
   */
  hold: (method: string, path: RegExp | ((path: string) => boolean)) => { arrived: Promise<void>; release: () => void };
  close: () => Promise<void>;
};

const CHAIN_TXS_PER_PAGE = 25;
const MAX_MEMPOOL_TXS = 50;
const TXID = /^[0-9a-fA-F]{64}$/;

/** rust-bitcoin's script assembly: opcode names, pushes as `OP_PUSHBYTES_n <hex>`. */
function scriptAsm(bytes: Uint8Array): string {
  const chunks = script.decompile(bytes) ?? [];
  return chunks
    .map((chunk) =>
      typeof chunk === 'number'
        ? (script.toASM([chunk]) ?? '')
        : `OP_PUSHBYTES_${chunk.length} ${Buffer.from(chunk).toString('hex')}`,
    )
    .join(' ');
}

/** rest.rs TxOutValue's `scriptpubkey_type`. */
function scriptType(bytes: Uint8Array): string {
  const b = Buffer.from(bytes);
  if (b.length === 0) return 'empty';
  if (b[0] === 0x6a) return 'op_return';
  if (b.length === 25 && b[0] === 0x76 && b[1] === 0xa9 && b[2] === 0x14) return 'p2pkh';
  if (b.length === 23 && b[0] === 0xa9 && b[1] === 0x14 && b[22] === 0x87) return 'p2sh';
  if (b.length === 22 && b[0] === 0x00 && b[1] === 0x14) return 'v0_p2wpkh';
  if (b.length === 34 && b[0] === 0x00 && b[1] === 0x20) return 'v0_p2wsh';
  if (b.length === 34 && b[0] === 0x51 && b[1] === 0x20) return 'v1_p2tr';
  return 'unknown';
}

function outputJson(output: Output) {
  return {
    scriptpubkey: Buffer.from(output.script).toString('hex'),
    scriptpubkey_asm: scriptAsm(output.script),
    scriptpubkey_type: scriptType(output.script),
    ...(output.address === undefined ? {} : { scriptpubkey_address: output.address }),
    value: Number(output.value),
  };
}

/** util/transaction.rs TransactionStatus: the block fields are left out while unconfirmed. */
function statusJson(entry: ChainTx | undefined) {
  return entry?.blockHeight == null
    ? { confirmed: false }
    : { confirmed: true, block_height: entry.blockHeight, block_hash: entry.blockHash, block_time: entry.blockTime };
}

export async function startFakeEsplora(
  options: { network?: 'regtest' | 'testnet'; startHeight?: number } = {},
): Promise<FakeEsplora> {
  const network = options.network === 'testnet' ? networks.testnet : networks.regtest;
  const chain = new EsploraChain(network, options.startHeight ?? 200);
  const requests: FakeEsplora['requests'] = [];
  let misbehaving: Array<{ path: RegExp; how: Misbehaviour; hugeBytes: number }> = [];
  let holds: Array<{
    method: string;
    matches: (path: string) => boolean;
    arrive: () => void;
    released: Promise<void>;
  }> = [];

  function txJson(entry: ChainTx) {
    return {
      txid: entry.txid,
      version: entry.tx.version,
      locktime: entry.tx.locktime,
      vin: entry.tx.ins.map((input) => {
        const parentTxid = Buffer.from(input.hash).reverse().toString('hex');
        const parent = chain.get(parentTxid);
        const coinbase = entry.tx.isCoinbase();
        const prevout = parent ? chain.outputs(parent)[input.index] : undefined;
        return {
          txid: parentTxid,
          vout: input.index,
          prevout: prevout ? outputJson(prevout) : null,
          scriptsig: Buffer.from(input.script).toString('hex'),
          scriptsig_asm: coinbase ? '' : scriptAsm(input.script),
          ...(input.witness.length > 0 && {
            witness: input.witness.map((item) => Buffer.from(item).toString('hex')),
          }),
          is_coinbase: coinbase,
          sequence: input.sequence,
        };
      }),
      vout: chain.outputs(entry).map(outputJson),
      size: entry.tx.byteLength(),
      weight: entry.tx.weight(),
      fee: entry.fee,
      status: statusJson(entry),
    };
  }

  /** rest.rs `address_to_scripthash`: a parse error, or an address of another network. */
  function checkAddress(text: string): string | null {
    try {
      address.toOutputScript(text, network);
      return null;
    } catch {
      for (const other of [networks.bitcoin, networks.testnet, networks.regtest]) {
        try {
          address.toOutputScript(text, other);
          return 'Address on invalid network';
        } catch {
          // Not this network either.
        }
      }
      return 'invalid address';
    }
  }

  function paying(entry: ChainTx, to: string): boolean {
    return chain.outputs(entry).some((output) => output.address === to);
  }

  function history(to: string) {
    const mentions = chain.all().filter(
      (entry) =>
        paying(entry, to) ||
        entry.tx.ins.some((input) => {
          const parent = chain.get(Buffer.from(input.hash).reverse().toString('hex'));
          return parent !== undefined && chain.outputs(parent)[input.index]?.address === to;
        }),
    );
    const mempool = mentions.filter((entry) => entry.blockHeight === null).sort((a, b) => b.seq - a.seq);
    const confirmed = mentions
      .filter((entry) => entry.blockHeight !== null)
      .sort((a, b) => (b.blockHeight as number) - (a.blockHeight as number) || b.seq - a.seq);
    return { mempool, confirmed };
  }

  function utxos(to: string) {
    const found = [];
    for (const entry of chain.all()) {
      for (const [vout, output] of chain.outputs(entry).entries()) {
        if (output.address === to && chain.spender(entry.txid, vout) === undefined) {
          found.push({ txid: entry.txid, vout, status: statusJson(entry), value: Number(output.value) });
        }
      }
    }
    return found;
  }

  type Answer = { status: number; type: 'json' | 'text'; body: unknown };
  const json = (body: unknown): Answer => ({ status: 200, type: 'json', body });
  const text = (status: number, body: string): Answer => ({ status, type: 'text', body });

  function route(method: string, path: string, body: string): Answer {
    const parts = path.split('/').slice(1);
    const [head, a, b, c, d, e] = parts;
    if (method === 'POST' && head === 'tx' && a === undefined) {
      fake.broadcasts.push(body);
      try {
        if (fake.refuseBroadcasts) throw new NodeRefusal(fake.refuseBroadcasts.code, fake.refuseBroadcasts.message);
        return text(200, chain.accept(body.trim()));
      } catch (error) {
        if (!(error instanceof NodeRefusal)) throw error;
        return text(
          400,
          `sendrawtransaction RPC error: ${JSON.stringify({ code: error.code, message: error.message })}`,
        );
      }
    }
    if (method !== 'GET') return text(404, `endpoint does not exist ${JSON.stringify(path)}`);
    if (head === 'blocks' && a === 'tip' && b === 'height' && c === undefined)
      return text(200, String(chain.tipHeight()));
    if (head === 'blocks' && a === 'tip' && b === 'hash' && c === undefined) return text(200, chain.tipHash());
    if (head === 'fee-estimates' && a === undefined) return json(fake.feeEstimates);
    if (head === 'tx' && a !== undefined && (b === undefined || b === 'hex' || b === 'status') && c === undefined) {
      if (!TXID.test(a)) return text(400, 'Invalid hex string');
      const entry = chain.get(a.toLowerCase());
      if (b === 'status') return json(statusJson(entry));
      if (!entry) return text(404, 'Transaction not found');
      return b === 'hex' ? text(200, entry.hex) : json(txJson(entry));
    }
    if (head === 'address' && a !== undefined && (b === 'txs' || b === 'utxo')) {
      const refused = checkAddress(a);
      if (refused) return text(400, refused);
      if (b === 'utxo' && c === undefined) return json(utxos(a));
      const { mempool, confirmed } = history(a);
      if (c === undefined) {
        return json([...mempool.slice(0, MAX_MEMPOOL_TXS), ...confirmed.slice(0, fake.firstPageConfirmed)].map(txJson));
      }
      if (c === 'mempool' && d === undefined) return json(mempool.slice(0, MAX_MEMPOOL_TXS).map(txJson));
      if (c === 'chain' && e === undefined) {
        // rest.rs: an unparsable last_seen_txid is ignored; one not in the history ends it (chain.history).
        const after = d !== undefined && TXID.test(d) ? d.toLowerCase() : undefined;
        const start = after === undefined ? 0 : confirmed.findIndex((entry) => entry.txid === after) + 1;
        const page = after !== undefined && start === 0 ? [] : confirmed.slice(start, start + CHAIN_TXS_PER_PAGE);
        return json(page.map(txJson));
      }
    }
    return text(404, `endpoint does not exist ${JSON.stringify(path)}`);
  }

  /** The answer of a misbehaving server; 'truncated' and 'silent' are not answers and are handled apart. */
  function misbehaved(how: Misbehaviour, hugeBytes: number, answer: Answer): { status: number; body: string } {
    switch (how) {
      case 'wrong-types':
        return {
          status: answer.status,
          // A text answer comes quoted; in JSON, numbers become strings and strings numbers.
          body: JSON.stringify(answer.body, (_key, value) =>
            answer.type === 'text' || typeof value === 'number'
              ? String(value)
              : typeof value === 'string'
                ? value.length
                : value,
          ),
        };
      case 'huge':
        return { status: 200, body: `[${'0,'.repeat(Math.floor(hugeBytes / 2))}0]` };
      default:
        return { status: 503, body: 'Service Unavailable' };
    }
  }

  const server = http.createServer((request, response) => {
    let body = '';
    request.on('data', (chunk: Buffer) => {
      body += chunk.toString();
    });
    request.on('end', () => {
      const method = request.method ?? 'GET';
      const url = new URL(request.url ?? '/', 'http://127.0.0.1');
      if (!url.pathname.startsWith('/api/')) {
        response.writeHead(404, { 'content-type': 'text/plain' }).end('Not Found');
        return;
      }
      const path = url.pathname.slice('/api'.length);
      requests.push({ method, path });
      const answer = route(method, path, body);
      const wrong = misbehaving.find((entry) => entry.path.test(path));
      if (wrong?.how === 'silent') return;
      if (wrong?.how === 'truncated') {
        const whole = Buffer.from(answer.type === 'json' ? JSON.stringify(answer.body) : String(answer.body));
        response.writeHead(answer.status, { 'content-length': whole.length });
        response.write(whole.subarray(0, Math.floor(whole.length / 2)), () => response.destroy());
        return;
      }
      const sent = wrong
        ? misbehaved(wrong.how, wrong.hugeBytes, answer)
        : {
            status: answer.status,
            body: answer.type === 'json' ? JSON.stringify(answer.body) : String(answer.body),
          };
      const type = answer.type === 'json' && !wrong ? 'application/json' : 'text/plain';
      const send = () => response.writeHead(sent.status, { 'content-type': type }).end(sent.body);
      const held = holds.find((entry) => entry.method === method && entry.matches(path));
      if (!held) return send();
      held.arrive();
      held.released.then(send, send);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;

  const fake: FakeEsplora = {
    url: `http://127.0.0.1:${port}/api`,
    chain,
    requests,
    broadcasts: [],
    refuseBroadcasts: null,
    fund: (to, sats, fundOptions = {}) => chain.fund(to, sats, fundOptions.confirmed ?? true),
    mine: (count = 1) => chain.mine(count),
    feeEstimates: { '1': 20.5, '2': 12.1, '3': 9.1, '6': 4.2, '144': 1.01, '1008': 1 },
    firstPageConfirmed: CHAIN_TXS_PER_PAGE,
    misbehave: (path, how, hugeBytes = 32 * 1024 * 1024) => {
      misbehaving.push({ path, how, hugeBytes });
    },
    behave: () => {
      misbehaving = [];
    },
    hold: (method, path) => {
      let arrive = () => {};
      let release = () => {};
      const arrived = new Promise<void>((resolve) => {
        arrive = resolve;
      });
      const released = new Promise<void>((resolve) => {
        release = resolve;
      });
      const matches = typeof path === 'function' ? path : (candidate: string) => path.test(candidate);
      const entry = { method, matches, arrive, released };
      holds.push(entry);
      return {
        arrived,
        release: () => {
          holds = holds.filter((candidate) => candidate !== entry);
          release();
        },
      };
    },
    close: async () => {
      for (const entry of holds) entry.arrive();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
  return fake;
}
