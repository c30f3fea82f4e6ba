import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type FakeCln, startFakeCln } from '../../../test/fakes/cln-server.ts';
import { type FakeLnurlPay, startFakeLnurlPay } from '../../../test/fakes/lnurl-pay-server.ts';
import { openPayoutShop, sellAndSettle } from '../../../test/payout-shop.ts';
import { createTestApp, type TestApp } from '../../../test/test-app.ts';
import { systemContext } from '../../http/request-context.ts';
import { findPayout } from './payouts.repo.ts';
import { attemptLightningPayout, batchLightningPayouts } from './payouts.service.ts';

let cln: FakeCln;
let lnurl: FakeLnurlPay;
let caDir: string;
let t: TestApp;
const log = { debug: () => {}, warn: () => {} };

beforeAll(async () => {
  cln = await startFakeCln();
  lnurl = await startFakeLnurlPay(cln);
  caDir = await mkdtemp(path.join(os.tmpdir(), 'rayo-payouts-cln-'));
  const caPath = path.join(caDir, 'ca.pem');
  await writeFile(caPath, cln.caPem);
  t = await createTestApp(
    {
      LIGHTNING_BACKEND: 'cln',
      CLN_REST_URL: cln.url,
      CLN_RUNE: cln.rune,
      CLN_TLS_CA_PATH: caPath,
      LNURL_ALLOW_PRIVATE_HOSTS: 'true',
      PAYOUT_INTERVAL_SECONDS: '86400',
      PAYOUT_MIN_SATS: '1',
    },
    { jobs: true },
  );
});

afterAll(async () => {
  await t?.close();
  await lnurl?.close();
  await cln?.close();
  await rm(caDir, { recursive: true, force: true });
});

describe('Lightning-address payouts over Core Lightning', () => {
  it("pays the address's description-hash invoice, passing the LNURL metadata to pay, also on a retry", async () => {
    const shop = await openPayoutShop(t, lnurl.address('erin'));
    const organization = shop.organization;
    await sellAndSettle(t, shop, '9.50', (hash) => cln.settle(hash));
    const deps = { db: t.db, config: t.config, lightning: t.runtime.deps.lightning };
    const payout = (await batchLightningPayouts(systemContext('pay-lightning-payouts'), deps)).find(
      (p) => p.organizationId === organization.id,
    );
    if (!payout) throw new Error('no payout batched');

    // The first attempt allows no more than 1 sat of fee and the route wants 5: pay fails, and the
    // invoice and its metadata are kept for the retry.
    lnurl.payment({ routeFeeMsat: 5_000n });
    const stingy = { ...deps, config: { ...t.config, lightning: { ...t.config.lightning, maxFeeBps: 0 } } };
    await attemptLightningPayout(stingy, payout.id, log);
    const failed = await findPayout(t.db, payout.id);
    expect(failed).toMatchObject({ state: 'failed', invoiceMetadata: lnurl.metadataOf('erin') });
    expect(failed?.lastError).toMatch(/Route wanted fee/);

    const target = cln.calls.filter((c) => c.method === 'pay').at(-1);
    expect(target?.params.description).toBe(lnurl.metadataOf('erin'));
    await t.db.updateTable('payouts').set({ next_attempt_at: new Date() }).where('id', '=', payout.id).execute();
    await attemptLightningPayout(deps, payout.id, log);
    expect(await findPayout(t.db, payout.id)).toMatchObject({ state: 'sent', paymentHash: failed?.paymentHash });
    const pays = cln.calls.filter((c) => c.method === 'pay');
    expect(pays.at(-1)?.params).toMatchObject({
      bolt11: failed?.paymentRequest,
      description: lnurl.metadataOf('erin'),
    });
  });
});
