import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { Account, Bpt, ErrorResponse, Invoice } from '@rayo/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type FakeLnd, startFakeLnd } from '../../../test/fakes/lnd-server.ts';
import {
  bearer,
  createTestApp,
  createTestOrganization,
  createTestUser,
  signIn,
  type TestApp,
} from '../../../test/test-app.ts';
import { waitFor } from '../../../test/wait-for.ts';
import { countTransactionsForPayment } from '../transactions/transactions.repo.ts';

describe('charging through an lnd node', () => {
  let lnd: FakeLnd;
  let certDir: string;
  let t: TestApp;
  let admin: { authorization: string };
  let bpt: Bpt;

  beforeAll(async () => {
    lnd = await startFakeLnd({ network: 'regtest' });
    certDir = await mkdtemp(path.join(os.tmpdir(), 'rayo-lnd-'));
    const certPath = path.join(certDir, 'tls.cert');
    await writeFile(certPath, lnd.certPem);
    t = await createTestApp(
      {
        LIGHTNING_BACKEND: 'lnd',
        LND_REST_URL: lnd.url,
        LND_MACAROON_HEX: lnd.macaroonHex,
        LND_TLS_CERT_PATH: certPath,
      },
      { jobs: true },
    );
    const organization = await createTestOrganization(t.db);
    const user = await createTestUser(t.db, { role: 'admin', organizationId: organization.id });
    admin = bearer((await signIn(t.app, user.email, user.password)).accessToken);
    const account = (
      await t.app.inject({ method: 'POST', url: '/api/accounts', headers: admin, payload: { name: 'Counter' } })
    ).json<Account>();
    bpt = (
      await t.app.inject({
        method: 'POST',
        url: '/api/bpts',
        headers: admin,
        payload: { name: 'Till', accountId: account.id, currency: 'USD' },
      })
    ).json<Bpt>();
  });
  afterAll(async () => {
    await t?.close();
    await lnd?.close();
    await rm(certDir, { recursive: true, force: true });
  });

  const charge = () =>
    t.app.inject({ method: 'POST', url: `/api/bpts/${bpt.id}/invoices`, headers: admin, payload: { amount: '9.50' } });

  it('records a payment the node settles, from its settle stream', async () => {
    const response = await charge();
    expect(response.statusCode, response.body).toBe(201);
    const invoice = response.json<Invoice>();
    lnd.settle(invoice.paymentHash);
    await waitFor(async () => (await countTransactionsForPayment(t.db, invoice.paymentHash)) > 0);
    expect(await countTransactionsForPayment(t.db, invoice.paymentHash)).toBe(1);
    expect((await t.app.inject({ method: 'GET', url: `/api/invoices/${invoice.id}` })).json<Invoice>().status).toBe(
      'settled',
    );
  });

  it('answers Under maintenance when the node is down, and loses nothing', async () => {
    await lnd.close();
    const response = await charge();
    expect(response.statusCode).toBe(503);
    expect(response.json<ErrorResponse>()).toEqual({
      code: 'LightningUnavailable',
      message: 'Under maintenance, please try again later.',
    });
    const invoices = await t.db.selectFrom('invoices').select('status').execute();
    expect(invoices.map((row) => row.status)).toEqual(['settled']);
  });
});
