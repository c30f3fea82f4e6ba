import { once } from 'node:events';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createEsploraChain } from './esplora.ts';
import { ChainBackendError, confirmationsAt } from './types.ts';

const ADDRESS = 'bc1qcr8te4kr609gcawutmrza0j4xv80jy8z306fyu';
const OTHER = 'bc1qnjg0jd8228aq7egyzacy8cys3knf9xvrerkf9g';

function txid(n: number): string {
  return n.toString(16).padStart(64, '0');
}

/** A transaction in Esplora's documented JSON (protocols.md §6), paying `outs` in order. */
function esploraTx(n: number, outs: Array<[string, number]>, blockHeight: number | null) {
  return {
    txid: txid(n),
    version: 2,
    locktime: 0,
    vin: [],
    vout: outs.map(([address, value]) => ({
      scriptpubkey: '0014…',
      scriptpubkey_asm: 'OP_0 OP_PUSHBYTES_20 …',
      scriptpubkey_type: 'v0_p2wpkh',
      scriptpubkey_address: address,
      value,
    })),
    size: 222,
    weight: 561,
    fee: 141,
    status:
      blockHeight === null
        ? { confirmed: false }
        : { confirmed: true, block_height: blockHeight, block_hash: 'ab'.repeat(32), block_time: 1_700_000_000 },
  };
}

// One mempool tx, then 30 confirmed ones: the first page holds 25 confirmed, the next page 5.
const mempool = [
  esploraTx(
    1000,
    [
      [ADDRESS, 5_000],
      [OTHER, 1_000],
    ],
    null,
  ),
];
const confirmed = Array.from({ length: 30 }, (_, i) =>
  esploraTx(
    i + 1,
    [
      [OTHER, 7],
      [ADDRESS, 100 + i],
    ],
    800_000 - i,
  ),
);

let server: Server;
let base: string;
const requests: string[] = [];
let tipAnswer = '800010';
let failWith: number | undefined;

beforeAll(async () => {
  server = createServer((request, response) => {
    const url = request.url ?? '';
    requests.push(url);
    if (failWith !== undefined) {
      response.writeHead(failWith).end('Too many requests');
      return;
    }
    const json = (body: unknown) => {
      response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(body));
    };
    if (url === '/api/blocks/tip/height') {
      response.writeHead(200, { 'content-type': 'text/plain' }).end(tipAnswer);
    } else if (url === `/api/address/${ADDRESS}/txs`) {
      json([...mempool, ...confirmed.slice(0, 25)]);
    } else if (url === `/api/address/${ADDRESS}/txs/chain/${txid(25)}`) {
      json(confirmed.slice(25));
    } else if (url === `/api/address/${OTHER}/txs`) {
      json([{ txid: 'nope' }]);
    } else {
      response.writeHead(404).end('Not found');
    }
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}/api/`;
});
afterAll(() => {
  server?.close();
});

describe('the Esplora chain source', () => {
  it('reads the tip height from the plain-text answer', async () => {
    tipAnswer = '800010\n';
    const chain = createEsploraChain({ baseUrl: base, network: 'mainnet' });
    expect(chain.name).toBe('esplora');
    expect(await chain.getTipHeight()).toBe(800_010);
  });

  it('lists the outputs paying the address across pages, mempool ones without a height', async () => {
    requests.length = 0;
    const chain = createEsploraChain({ baseUrl: base, network: 'mainnet' });
    const outputs = await chain.listAddressOutputs(ADDRESS);
    expect(requests).toEqual(
      [`/address/${ADDRESS}/txs`, `/address/${ADDRESS}/txs/chain/${txid(25)}`].map((p) => `/api${p}`),
    );
    expect(outputs).toHaveLength(31);
    expect(outputs[0]).toEqual({ txid: txid(1000), vout: 0, valueSats: 5_000n, blockHeight: null });
    expect(outputs.find((o) => o.txid === txid(30))).toEqual({
      txid: txid(30),
      vout: 1,
      valueSats: 129n,
      blockHeight: 799_971,
    });
    expect(outputs.every((o) => o.valueSats !== 7n && o.valueSats !== 1_000n)).toBe(true);
    expect(confirmationsAt(800_010, 799_971)).toBe(40);
    expect(confirmationsAt(800_010, null)).toBe(0);
  });

  it('turns an unexpected body, an HTTP error or a dead server into a ChainBackendError', async () => {
    const chain = createEsploraChain({ baseUrl: base, network: 'mainnet' });
    await expect(chain.listAddressOutputs(OTHER)).rejects.toBeInstanceOf(ChainBackendError);
    tipAnswer = 'not a height';
    await expect(chain.getTipHeight()).rejects.toThrow('tip height that is not a number');
    failWith = 429;
    await expect(chain.getTipHeight()).rejects.toThrow('HTTP 429');
    failWith = undefined;
    const dead = createEsploraChain({ baseUrl: 'http://127.0.0.1:9/api', network: 'mainnet', timeoutMs: 2_000 });
    await expect(dead.getTipHeight()).rejects.toBeInstanceOf(ChainBackendError);
  });
});
