import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { Account, Bpt, Invoice } from '@rayo/shared';
import { expect } from 'vitest';
import { updateLightningAddress } from '../src/modules/settings/payout-addresses.repo.ts';
import { countTransactionsForPayment } from '../src/modules/transactions/transactions.repo.ts';
import { startFakeLnd } from './fakes/lnd-server.ts';
import { startFakeLnurlPay } from './fakes/lnurl-pay-server.ts';
import { createTestApp, openTestShop, type TestApp } from './test-app.ts';

/**
 * An app that pays out through a stand-in LND, with a stand-in Lightning-address service in
 * front of it; `env` adds to its configuration. `close` stops all three.
 */
export async function startLndPayoutApp(env: Record<string, string>) {
  const lnd = await startFakeLnd({ network: 'regtest' });
  const lnurl = await startFakeLnurlPay(lnd);
  const certDir = await mkdtemp(path.join(os.tmpdir(), 'rayo-payouts-'));
  const certPath = path.join(certDir, 'tls.cert');
  await writeFile(certPath, lnd.certPem);
  const t = await createTestApp(
    {
      LIGHTNING_BACKEND: 'lnd',
      LND_REST_URL: lnd.url,
      LND_MACAROON_HEX: lnd.macaroonHex,
      LND_TLS_CERT_PATH: certPath,
      LNURL_ALLOW_PRIVATE_HOSTS: 'true',
      // The job's own runs stay out of the way: the tests call the pass's steps themselves.
      PAYOUT_INTERVAL_SECONDS: '86400',
      ...env,
    },
    // Sales are recorded from the node's settle stream, which runs with the jobs.
    { jobs: true },
  );
  const close = async () => {
    await t.close();
    await lnurl.close();
    await lnd.close();
    await rm(certDir, { recursive: true, force: true });
  };
  return { lnd, lnurl, t, close };
}

export type PayoutShop = Awaited<ReturnType<typeof openPayoutShop>>;

/** An organization with a till, its admin signed in, and its Lightning address set to `address`. */
export async function openPayoutShop(t: TestApp, address: string) {
  const shop = await openTestShop(t);
  const account = (
    await t.app.inject({ method: 'POST', url: '/api/accounts', headers: shop.admin, payload: { name: 'Counter' } })
  ).json<Account>();
  const bpt = (
    await t.app.inject({
      method: 'POST',
      url: '/api/bpts',
      headers: shop.admin,
      payload: { name: 'Till', accountId: account.id, currency: 'USD' },
    })
  ).json<Bpt>();
  await updateLightningAddress(t.db, shop.organization.id, address);
  return { ...shop, bpt };
}

/**
 * A sale of `amount` dollars paid at the node (`settle` plays the payer) and recorded from its
 * settle stream; returns its Lightning share, which is what payouts carry.
 */
export async function sellAndSettle(
  t: TestApp,
  shop: PayoutShop,
  amount: string,
  settle: (paymentHash: string) => void,
): Promise<bigint> {
  const response = await t.app.inject({
    method: 'POST',
    url: `/api/bpts/${shop.bpt.id}/invoices`,
    headers: shop.admin,
    payload: { amount },
  });
  expect(response.statusCode, response.body).toBe(201);
  const invoice = response.json<Invoice>();
  settle(invoice.paymentHash);
  const deadline = Date.now() + 10_000;
  while ((await countTransactionsForPayment(t.db, invoice.paymentHash)) === 0) {
    if (Date.now() > deadline) throw new Error('sale not recorded');
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  const row = await t.db
    .selectFrom('transactions')
    .select('lightning_msat')
    .where('payment_hash', '=', invoice.paymentHash)
    .executeTakeFirstOrThrow();
  return BigInt(row.lightning_msat);
}
