import type { Account, Bpt, PublicCheckout, VirtualBpt } from '@rayo/shared';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  bearer,
  createTestApp,
  createTestOrganization,
  createTestUser,
  signIn,
  type TestApp,
} from '../../../test/test-app.ts';
import { createDevnetChain, mineDevnetBlocks, sendDevnetPayment } from '../../adapters/chain/devnet.ts';
import { createDatabase, type Db } from '../../db/database.ts';
import { checkBitcoinAddress } from '../../domain/bitcoin-address.ts';
import { createCheckout, expireDueCheckouts } from '../checkouts/checkouts.service.ts';
import { reconcileOpenInvoices } from '../invoices/invoices.service.ts';
import { allocateWalletIndex } from './onchain.repo.ts';
import { watchCheckoutPayments } from './onchain.service.ts';

let t: TestApp;
let otherProcessDb: Db;
let shop: { organizationId: string; vbpt: VirtualBpt };

async function call<T>(method: 'GET' | 'POST', url: string, headers?: { authorization: string }, payload?: object) {
  const response = await t.app.inject({ method, url, headers, ...(payload ? { payload } : {}) });
  expect(response.statusCode, response.body).toBeLessThan(300);
  return response.json() as T;
}

beforeAll(async () => {
  // GTQ at Q730,000 per bitcoin: Q73.00 is 10,000 sats. The watcher is run by hand here.
  t = await createTestApp({ FIXED_RATES: 'GTQ=730000' }, { jobs: false });
  otherProcessDb = createDatabase(t.config.databaseUrl as string, 4);
  const organization = await createTestOrganization(t.db, 'Tienda en cadena');
  const user = await createTestUser(t.db, { role: 'admin', organizationId: organization.id });
  const admin = bearer((await signIn(t.app, user.email, user.password)).accessToken);
  const account = await call<Account>('POST', '/api/accounts', admin, { name: 'Online' });
  const bpt = await call<Bpt>('POST', '/api/bpts', admin, { name: 'Till', accountId: account.id, currency: 'GTQ' });
  const vbpt = await call<VirtualBpt>('POST', '/api/virtual-bpts', admin, { name: 'Web shop', bptId: bpt.id });
  shop = { organizationId: organization.id, vbpt };
  // The store listens for its checkouts' on-chain events (delivering them is the webhooks' business).
  await t.db
    .insertInto('webhook_endpoints')
    .values({
      organization_id: organization.id,
      url: 'https://shop.example/hooks',
      secret_sealed: 'x',
      events: ['checkout.processing', 'checkout.underpaid', 'checkout.paid'],
    })
    .execute();
});
afterAll(async () => {
  await otherProcessDb?.destroy();
  await t?.close();
});

function watch(db: Db = t.db) {
  return watchCheckoutPayments({ db, config: t.config, chain: createDevnetChain(db) });
}

async function newCheckout(kind: 'store' | 'payment_link' = 'store', amount = 7300n) {
  const orderId = kind === 'store' ? `order-${Math.random().toString(36).slice(2)}` : undefined;
  const row = await createCheckout(t.runtime.deps, {
    organizationId: shop.organizationId,
    virtualBptId: shop.vbpt.id,
    kind,
    description: `Chain test ${Math.random()}`,
    amount: { currency: 'GTQ', minor: amount },
    ...(orderId ? { orderId } : {}),
  });
  return row.id;
}

async function read(id: string): Promise<PublicCheckout> {
  return call<PublicCheckout>('GET', `/api/public/checkouts/${id}`);
}

async function onchainOf(id: string) {
  const onchain = (await read(id)).onchain;
  if (!onchain) throw new Error('no on-chain option');
  return onchain;
}

async function ledgerOf(checkoutId: string) {
  return t.db
    .selectFrom('transactions')
    .innerJoin('invoices', 'invoices.id', 'transactions.invoice_id')
    .select(['invoices.payment_hash', 'transactions.total_msat', 'transactions.source', 'transactions.total_minor'])
    .where('invoices.source_id', '=', checkoutId)
    .orderBy('transactions.settled_at')
    .execute();
}

async function checkoutRow(id: string) {
  return t.db.selectFrom('checkouts').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
}

describe('the on-chain option of a checkout', () => {
  it('gives each checkout its own regtest address for the amount at the locked rate, the same on every read', async () => {
    const first = await newCheckout();
    const second = await newCheckout();
    const a = await onchainOf(first);
    expect(a).toMatchObject({
      amountSats: 10_000,
      receivedSats: 0,
      missingSats: 10_000,
      confirmations: 0,
      requiredConfirmations: 4,
      state: 'awaiting_payment',
    });
    expect(checkBitcoinAddress(a.address, 'regtest')).toMatchObject({ valid: true, type: 'p2wpkh' });
    expect(a.bip21Uri).toBe(`bitcoin:${a.address}?amount=0.0001`);
    expect((await onchainOf(first)).address).toBe(a.address);
    expect((await onchainOf(second)).address).not.toBe(a.address);
  });

  it('hands out distinct wallet indexes to concurrent allocations from two processes', async () => {
    const indexes = await Promise.all(
      Array.from({ length: 10 }, (_, i) => allocateWalletIndex(i % 2 === 0 ? t.db : otherProcessDb, 'race-wallet')),
    );
    expect(new Set(indexes).size).toBe(10);
    expect(Math.max(...indexes)).toBe(9);
  });

  it('goes awaiting → confirming n/4 → confirmed at 4, and records the sale once under concurrent watchers', async () => {
    const id = await newCheckout();
    const { address } = await onchainOf(id);
    await watch();
    const { txid } = await sendDevnetPayment(t.db, address, 10_000n);
    await watch();
    expect(await onchainOf(id)).toMatchObject({ state: 'confirming', confirmations: 0, receivedSats: 10_000 });
    expect((await read(id)).status).toBe('processing');
    for (const n of [1, 2, 3]) {
      await mineDevnetBlocks(t.db, 1);
      await watch();
      expect(await onchainOf(id)).toMatchObject({ state: 'confirming', confirmations: n });
      expect(await ledgerOf(id)).toEqual([]);
    }
    await mineDevnetBlocks(t.db, 1);
    await Promise.all([watch(), watch(otherProcessDb), watch()]);
    await watch();
    expect(await onchainOf(id)).toMatchObject({ state: 'confirmed', confirmations: 4, missingSats: 0 });
    const paid = await read(id);
    expect(paid).toMatchObject({ status: 'paid', paidVia: 'onchain', latePayment: false, extraPayment: false });
    expect(await ledgerOf(id)).toEqual([
      { payment_hash: `onchain:${txid}:0`, total_msat: '10000000', source: 'checkout', total_minor: '7300' },
    ]);
  });

  it('shows an underpaid amount as missing, and records one payment once topped up and confirmed', async () => {
    const id = await newCheckout();
    const { address } = await onchainOf(id);
    await sendDevnetPayment(t.db, address, 4_000n);
    await mineDevnetBlocks(t.db, 4);
    await watch();
    expect(await onchainOf(id)).toMatchObject({ state: 'underpaid', receivedSats: 4_000, missingSats: 6_000 });
    expect((await read(id)).status).toBe('awaiting_payment');
    expect((await onchainOf(id)).bip21Uri).toBe(`bitcoin:${address}?amount=0.00006`);
    expect(await ledgerOf(id)).toEqual([]);

    const { txid } = await sendDevnetPayment(t.db, address, 6_000n);
    await watch();
    expect(await onchainOf(id)).toMatchObject({ state: 'confirming', confirmations: 0, missingSats: 0 });
    expect((await read(id)).status).toBe('processing');
    await mineDevnetBlocks(t.db, 4);
    await watch();
    expect((await read(id)).status).toBe('paid');
    expect(await ledgerOf(id)).toEqual([
      { payment_hash: `onchain:${txid}:0`, total_msat: '10000000', source: 'checkout', total_minor: '7300' },
    ]);
    const events = await t.db
      .selectFrom('webhook_deliveries')
      .select(['type', 'payload'])
      .where(sql<boolean>`payload->>'checkoutId' = ${id}`)
      .orderBy('created_at')
      .execute();
    expect(events).toMatchObject([
      { type: 'checkout.underpaid', payload: { status: 'awaiting_payment', amountSats: 10_000 } },
      { type: 'checkout.processing', payload: { status: 'processing', amountSats: 10_000 } },
      { type: 'checkout.paid', payload: { status: 'paid', paidVia: 'onchain', late: false } },
    ]);
  });

  it('records a payment link paid on-chain under the link, with no store to tell', async () => {
    const id = await newCheckout('payment_link');
    const { address } = await onchainOf(id);
    const { txid } = await sendDevnetPayment(t.db, address, 10_000n);
    await mineDevnetBlocks(t.db, 4);
    await watch();
    expect(await checkoutRow(id)).toMatchObject({ status: 'paid', paid_via: 'onchain' });
    expect(await ledgerOf(id)).toEqual([
      { payment_hash: `onchain:${txid}:0`, total_msat: '10000000', source: 'payment_link', total_minor: '7300' },
    ]);
  });

  it('books a sale paid in full on-chain at the price asked, not at its satoshis valued back', async () => {
    // Q61.00 at Q730,000 is 8,356.16 sats, asked as 8,356; valued back at the rate they are Q60.99.
    const id = await newCheckout('payment_link', 6100n);
    const { address, amountSats } = await onchainOf(id);
    expect(amountSats).toBe(8_356);
    const { txid } = await sendDevnetPayment(t.db, address, 8_356n);
    await mineDevnetBlocks(t.db, 4);
    await watch();
    expect(await checkoutRow(id)).toMatchObject({ status: 'paid', paid_via: 'onchain' });
    expect(await ledgerOf(id)).toEqual([
      { payment_hash: `onchain:${txid}:0`, total_msat: '8356000', source: 'payment_link', total_minor: '6100' },
    ]);
  });

  it('records an on-chain payment after a Lightning one as an extra payment, both in the ledger', async () => {
    const id = await newCheckout();
    const checkout = await read(id);
    const address = checkout.onchain?.address as string;
    await call('POST', '/api/devnet/pay', undefined, { paymentRequest: checkout.invoice?.paymentRequest });
    await reconcileOpenInvoices(t.runtime.deps);
    expect(await checkoutRow(id)).toMatchObject({ status: 'paid', paid_via: 'lightning', extra_payment: false });

    const { txid } = await sendDevnetPayment(t.db, address, 10_000n);
    await mineDevnetBlocks(t.db, 4);
    await watch();
    await watch();
    expect(await checkoutRow(id)).toMatchObject({ status: 'paid', paid_via: 'lightning', extra_payment: true });
    const ledger = await ledgerOf(id);
    expect(ledger).toHaveLength(2);
    expect(ledger[1]?.payment_hash).toBe(`onchain:${txid}:0`);
  });

  it('records a payment that arrives after expiry, flagged late, even when it falls short', async () => {
    const id = await newCheckout();
    const { address } = await onchainOf(id);
    await t.db
      .updateTable('checkouts')
      .set({ expires_at: new Date(Date.now() - 1000) })
      .where('id', '=', id)
      .execute();
    await expireDueCheckouts(t.db);
    expect((await read(id)).status).toBe('expired');

    const { txid } = await sendDevnetPayment(t.db, address, 9_000n);
    await watch();
    expect(await ledgerOf(id)).toEqual([]);
    await mineDevnetBlocks(t.db, 4);
    await watch();
    expect(await checkoutRow(id)).toMatchObject({ status: 'paid', paid_via: 'onchain', late_payment: true });
    expect(await ledgerOf(id)).toEqual([
      { payment_hash: `onchain:${txid}:0`, total_msat: '9000000', source: 'checkout', total_minor: '6570' },
    ]);
    expect(await onchainOf(id)).toMatchObject({ state: 'underpaid', missingSats: 1_000 });
  });

  it('counts a payment seen before the expiry as in time, however long its confirmations take', async () => {
    const id = await newCheckout();
    const { address } = await onchainOf(id);
    await sendDevnetPayment(t.db, address, 10_000n);
    await watch();
    expect((await checkoutRow(id)).status).toBe('processing');
    await t.db
      .updateTable('checkouts')
      .set({ expires_at: new Date(Date.now() - 1000) })
      .where('id', '=', id)
      .execute();
    await expireDueCheckouts(t.db);
    expect((await read(id)).status).toBe('processing');
    await mineDevnetBlocks(t.db, 4);
    await watch();
    expect(await checkoutRow(id)).toMatchObject({ status: 'paid', paid_via: 'onchain', late_payment: false });
  });

  it('offers no new address once a checkout has expired', async () => {
    const id = await newCheckout();
    await t.db
      .updateTable('checkouts')
      .set({ expires_at: new Date(Date.now() - 1000) })
      .where('id', '=', id)
      .execute();
    expect((await read(id)).onchain).toBeNull();
  });
});
