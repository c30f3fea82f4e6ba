import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type FakeCln, startFakeCln } from '../../../test/fakes/cln-server.ts';
import { INVOICE_MACAROON } from '../../../test/fakes/lnd-gateway.ts';
import { type FakeLnd, startFakeLnd } from '../../../test/fakes/lnd-server.ts';
import { startServerProcess } from '../../../test/server-process.ts';
import { createTestDatabase, type TestDatabase } from '../../../test/test-app.ts';
import { repoRoot } from '../../config.ts';
import { createClnBackend } from './cln.ts';
import { createLndBackend } from './lnd.ts';
import type { LightningBackend } from './types.ts';

/**
 * A newcomer connects a node from docs/lightning.md alone: the macaroon and the rune the docs tell
 * them to make are made on the stand-ins, which check them per call as lnd and clnrest do, and
 * every call Rayo makes goes through with them. A real server process with lnd's own
 * invoice.macaroon says in one line what is missing.
 */

let docs: string;
let lnd: FakeLnd;
let cln: FakeCln;
let database: TestDatabase;
let certDir: string;

beforeAll(async () => {
  docs = await readFile(path.join(repoRoot, 'docs/lightning.md'), 'utf8');
  [lnd, cln, database, certDir] = await Promise.all([
    startFakeLnd(),
    startFakeCln(),
    createTestDatabase(),
    mkdtemp(path.join(os.tmpdir(), 'rayo-node-setup-')),
  ]);
});

afterAll(async () => {
  await Promise.all([lnd?.close(), cln?.close(), database?.drop(), rm(certDir, { recursive: true, force: true })]);
});

/** Every call of taking payments and of a payout, through `node`. */
async function everyCall(
  node: LightningBackend,
  settle: (paymentHash: string) => unknown,
  remote: { paymentRequest: string; paymentHash: string },
) {
  const invoice = await node.createInvoice({ amountMsat: 12_000n, description: 'espresso', expirySeconds: 600 });
  expect((await node.lookupInvoice(invoice.paymentHash)).state).toBe('open');
  expect((await node.decodeInvoice(invoice.paymentRequest)).paymentHash).toBe(invoice.paymentHash);
  settle(invoice.paymentHash);
  const controller = new AbortController();
  const settled: string[] = [];
  await node.subscribeSettlements(
    0n,
    async (settlement) => {
      settled.push(settlement.paymentHash);
      controller.abort();
    },
    controller.signal,
  );
  expect(settled).toEqual([invoice.paymentHash]);
  await node.payInvoice(remote.paymentRequest, { maxFeeMsat: 100n, timeoutSeconds: 30 });
  expect(await node.lookupPayment(remote.paymentHash)).toMatchObject({ state: 'succeeded' });
}

describe('connecting a node as docs/lightning.md says', () => {
  it('lnd: the baked macaroon of the docs allows every call Rayo makes', async () => {
    const bake = /lncli bakemacaroon --save_to=rayo\.macaroon ((?:[a-z]+:[a-z]+ ?)+)\n/.exec(docs);
    expect(bake).not.toBeNull();
    const permissions = (bake?.[1] ?? '').trim().split(' ');
    const node = await createLndBackend({
      restUrl: lnd.url,
      macaroonHex: lnd.bake(permissions),
      tlsCertPem: lnd.certPem,
      onWarning: (message) => {
        throw new Error(message);
      },
    });
    const remote = lnd.addRemoteInvoice({ amountMsat: 3_000n });
    await everyCall(node, (hash) => lnd.settle(hash), remote);
  });

  it('Core Lightning: the rune of the docs allows every call Rayo makes', async () => {
    const createrune = /lightning-cli createrune restrictions='(\[\[.*\]\])'\n/.exec(docs);
    expect(createrune).not.toBeNull();
    const restrictions = JSON.parse(createrune?.[1] ?? '[]') as string[][];
    const node = await createClnBackend({
      restUrl: cln.url,
      rune: cln.createRune(restrictions),
      tlsCaPem: cln.caPem,
    });
    const remote = cln.addRemoteInvoice({ amountMsat: 3_000n });
    await everyCall(node, (hash) => cln.settle(hash), {
      paymentRequest: remote.bolt11,
      paymentHash: remote.paymentHash,
    });
  });

  it("a server started with lnd's invoice.macaroon stops with one line naming what is missing", async () => {
    const certPath = path.join(certDir, 'tls.cert');
    await writeFile(certPath, lnd.certPem);
    const error = await startServerProcess(database.url, {
      LIGHTNING_BACKEND: 'lnd',
      LND_REST_URL: lnd.url,
      LND_MACAROON_HEX: lnd.bake(INVOICE_MACAROON),
      LND_TLS_CERT_PATH: certPath,
    }).catch((e: unknown) => e);
    const output = (error as Error).message;
    expect(output).toMatch(/server exited with 1/);
    expect(output).toContain(
      'Rayo cannot start: The lnd macaroon lacks info:read, offchain:read, which taking payments needs',
    );
    expect(output).toContain('lncli bakemacaroon info:read invoices:read invoices:write offchain:read offchain:write');
    // No stack trace.
    expect(output).not.toMatch(/^\s+at /m);
  });
});
