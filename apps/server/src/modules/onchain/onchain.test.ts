import type { Account, Bpt, PaymentLink, PublicCheckout, VirtualBpt } from '@rayo/shared';
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
import { reconcileOpenInvoices } from '../ledger/settlement.service.ts';
import { upsertRates } from '../rates/rates.repo.ts';
import { allocateWalletIndex } from './onchain.repo.ts';
import { watchCheckoutPayments } from './onchain.service.ts';

let t: TestApp;
let otherProcessDb: Db;
let shop: { organizationId: string; vbpt: VirtualBpt; usdVbpt: VirtualBpt; admin: { authorization: string } };

async function call<T>(method: 'GET' | 'POST', url: string, headers?: { authorization: string }, payload?: object) {
  const response = await t.app.inject({ method, url, headers, ...(payload ? { payload } : {}) });
  expect(response.statusCode, response.body).toBeLessThan(300);
  return response.json() as T;
}

beforeAll(async () => {
  // GTQ at Q730,000 per bitcoin: Q73.00 is 10,000 sats; USD at $100,000: $10.00 is 10,000 sats.
  // The watcher is run by hand here, and only the re-pricing tests change the USD rate.
  t = await createTestApp({ FIXED_RATES: 'GTQ=730000,USD=100000' }, { jobs: false });
  otherProcessDb = createDatabase(t.config.databaseUrl as string, 4);
  const organization = await createTestOrganization(t.db, 'Tienda en cadena');
  const user = await createTestUser(t.db, { role: 'admin', organizationId: organization.id });
  const admin = bearer((await signIn(t.app, user.email, user.password)).accessToken);
  const account = await call<Account>('POST', '/api/accounts', admin, { name: 'Online' });
  const bpt = await call<Bpt>('POST', '/api/bpts', admin, { name: 'Till', accountId: account.id, currency: 'GTQ' });
  const vbpt = await call<VirtualBpt>('POST', '/api/virtual-bpts', admin, { name: 'Web shop', bptId: bpt.id });
  const usd = await call<Bpt>('POST', '/api/bpts', admin, { name: 'Dollars', accountId: account.id, currency: 'USD' });
  const usdVbpt = await call<VirtualBpt>('POST', '/api/virtual-bpts', admin, { name: 'Dollar shop', bptId: usd.id });
  shop = { organizationId: organization.id, vbpt, usdVbpt, admin };
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

async function newCheckout(kind: 'store' | 'payment_link' = 'store', amount = 7300n, currency = 'GTQ') {
  const orderId = kind === 'store' ? `order-${Math.random().toString(36).slice(2)}` : undefined;
  const row = await createCheckout(t.runtime.deps, {
    organizationId: shop.organizationId,
    virtualBptId: currency === 'USD' ? shop.usdVbpt.id : shop.vbpt.id,
    kind,
    description: `Chain test ${Math.random()}`,
    amount: { currency, minor: amount },
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

function sumOf(ledger: Array<{ total_msat: string; total_minor: string }>) {
  return ledger.reduce(
    (sum, row) => ({ msat: sum.msat + BigInt(row.total_msat), minor: sum.minor + BigInt(row.total_minor) }),
    { msat: 0n, minor: 0n },
  );
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

  it('asks only for what is missing once part arrived, and books the parts at the price when topped up on-chain', async () => {
    const id = await newCheckout();
    const full = await read(id);
    const address = full.onchain?.address as string;
    expect(full.invoice?.amountMsat).toBe(10_000_000);
    const { txid: first } = await sendDevnetPayment(t.db, address, 4_000n);
    await mineDevnetBlocks(t.db, 4);
    await watch();
    const short = await read(id);
    expect(short).toMatchObject({
      status: 'awaiting_payment',
      amountSats: 10_000,
      fiatAmount: { currency: 'GTQ', value: '73.00' },
      underpaid: {
        received: { currency: 'GTQ', value: '29.20' },
        missing: { currency: 'GTQ', value: '43.80' },
        receivedSats: 4_000,
        missingSats: 6_000,
      },
      onchain: {
        state: 'underpaid',
        receivedSats: 4_000,
        missingSats: 6_000,
        bip21Uri: `bitcoin:${address}?amount=0.00006`,
      },
    });
    // The Lightning tab asks for the rest too, with a new invoice; the one for the whole price is gone.
    expect(short.invoice?.amountMsat).toBe(6_000_000);
    expect(short.invoice?.id).not.toBe(full.invoice?.id);
    expect((await read(id)).invoice?.id).toBe(short.invoice?.id);
    // The part that arrived is in the ledger, at its share of the price.
    expect(await ledgerOf(id)).toEqual([
      { payment_hash: `onchain:${first}:0`, total_msat: '4000000', source: 'checkout', total_minor: '2920' },
    ]);

    const { txid: second } = await sendDevnetPayment(t.db, address, 6_000n);
    await watch();
    expect(await onchainOf(id)).toMatchObject({ state: 'confirming', confirmations: 0, missingSats: 0 });
    expect(await read(id)).toMatchObject({ status: 'processing', underpaid: null, invoice: null });
    await mineDevnetBlocks(t.db, 4);
    await watch();
    expect(await read(id)).toMatchObject({ status: 'paid', paidVia: 'onchain', underpaid: null, extraPayment: false });
    expect(await ledgerOf(id)).toEqual([
      { payment_hash: `onchain:${first}:0`, total_msat: '4000000', source: 'checkout', total_minor: '2920' },
      { payment_hash: `onchain:${second}:0`, total_msat: '6000000', source: 'checkout', total_minor: '4380' },
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
      { type: 'checkout.paid', payload: { status: 'paid', paidVia: 'onchain', late: false, amountSats: 10_000 } },
    ]);
  });

  it('takes the rest by Lightning after a part seen on-chain, and is paid once that part confirms', async () => {
    // Q60.00 at Q730,000 is 8,219 sats; 6,219 arrive on-chain, as in issue 26.
    const id = await newCheckout('payment_link', 6000n);
    const address = (await onchainOf(id)).address;
    const { txid } = await sendDevnetPayment(t.db, address, 6_219n);
    await watch();
    const short = await read(id);
    expect(short).toMatchObject({
      status: 'awaiting_payment',
      underpaid: { received: { value: '45.39' }, missing: { value: '14.61' }, receivedSats: 6_219, missingSats: 2_000 },
    });
    expect(short.invoice?.amountMsat).toBe(2_000_000);

    await call('POST', '/api/devnet/pay', undefined, { paymentRequest: short.invoice?.paymentRequest });
    await reconcileOpenInvoices(t.runtime.deps);
    // All of it arrived; the on-chain part still needs its confirmations.
    expect(await read(id)).toMatchObject({
      status: 'processing',
      underpaid: null,
      invoice: null,
      onchain: { state: 'confirming', missingSats: 0 },
    });
    await watch();
    expect(await onchainOf(id)).toMatchObject({ state: 'confirming', confirmations: 0, missingSats: 0 });
    await mineDevnetBlocks(t.db, 4);
    await watch();
    expect(await checkoutRow(id)).toMatchObject({ status: 'paid', paid_via: 'onchain', extra_payment: false });
    const ledger = await ledgerOf(id);
    expect(ledger).toEqual([
      {
        // The Lightning invoice of the rest: its payment hash, not an output.
        payment_hash: expect.stringMatching(/^[0-9a-f]{64}$/),
        total_msat: '2000000',
        source: 'payment_link',
        total_minor: '1461',
      },
      { payment_hash: `onchain:${txid}:0`, total_msat: '6219000', source: 'payment_link', total_minor: '4539' },
    ]);
    expect(sumOf(ledger)).toEqual({ msat: 8_219_000n, minor: 6000n });
  });

  it('takes the rest by Lightning after a confirmed part, and books both at the price', async () => {
    const id = await newCheckout('payment_link', 6000n);
    const address = (await onchainOf(id)).address;
    await sendDevnetPayment(t.db, address, 6_219n);
    await mineDevnetBlocks(t.db, 4);
    await watch();
    expect(await checkoutRow(id)).toMatchObject({ status: 'awaiting_payment' });
    const short = await read(id);
    expect(short.invoice?.amountMsat).toBe(2_000_000);
    await call('POST', '/api/devnet/pay', undefined, { paymentRequest: short.invoice?.paymentRequest });
    await reconcileOpenInvoices(t.runtime.deps);
    expect(await read(id)).toMatchObject({
      status: 'paid',
      paidVia: 'lightning',
      underpaid: null,
      extraPayment: false,
    });
    expect(sumOf(await ledgerOf(id))).toEqual({ msat: 8_219_000n, minor: 6000n });
  });

  it('books an overpayment at the price plus the excess at the rate', async () => {
    const id = await newCheckout();
    const { address } = await onchainOf(id);
    await sendDevnetPayment(t.db, address, 10_500n);
    await mineDevnetBlocks(t.db, 4);
    await watch();
    expect(await read(id)).toMatchObject({ status: 'paid', underpaid: null, extraPayment: false });
    // 500 sats at Q730,000 are Q3.65.
    expect(sumOf(await ledgerOf(id))).toEqual({ msat: 10_500_000n, minor: 7665n });
  });

  it('records the rest paid by both methods, the second as an extra payment', async () => {
    const id = await newCheckout();
    const { address } = await onchainOf(id);
    await sendDevnetPayment(t.db, address, 4_000n);
    await watch();
    const short = await read(id);
    await call('POST', '/api/devnet/pay', undefined, { paymentRequest: short.invoice?.paymentRequest });
    await reconcileOpenInvoices(t.runtime.deps);
    await sendDevnetPayment(t.db, address, 6_000n);
    await mineDevnetBlocks(t.db, 4);
    await watch();
    await watch();
    expect(await checkoutRow(id)).toMatchObject({ status: 'paid', extra_payment: true });
    const ledger = await ledgerOf(id);
    expect(ledger).toHaveLength(2);
    // Everything that arrived is in the ledger: 4,000 + 6,000 on-chain and 6,000 by Lightning.
    expect(sumOf(ledger).msat).toBe(16_000_000n);
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

  it('records a short payment that arrives after expiry, and leaves the checkout expired and underpaid', async () => {
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
    expect(await checkoutRow(id)).toMatchObject({ status: 'expired', paid_via: null });
    expect(await ledgerOf(id)).toEqual([
      { payment_hash: `onchain:${txid}:0`, total_msat: '9000000', source: 'checkout', total_minor: '6570' },
    ]);
    expect(await read(id)).toMatchObject({
      status: 'expired',
      invoice: null,
      underpaid: { received: { value: '65.70' }, missing: { value: '7.30' }, missingSats: 1_000 },
      onchain: { state: 'underpaid', missingSats: 1_000 },
    });

    // The rest, late too, pays it: late, at the price asked.
    await sendDevnetPayment(t.db, address, 1_000n);
    await mineDevnetBlocks(t.db, 4);
    await watch();
    expect(await checkoutRow(id)).toMatchObject({ status: 'paid', paid_via: 'onchain', late_payment: true });
    expect(sumOf(await ledgerOf(id))).toEqual({ msat: 10_000_000n, minor: 7300n });
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

describe('the on-chain quote of a payment link', () => {
  /** The USD price of one bitcoin from now on, in cents. */
  async function setDollarPrice(cents: bigint, fetchedAt = new Date()) {
    await upsertRates(t.db, [{ currency: 'USD', rateMinorPerBtc: cents, source: 'fixed', fetchedAt }]);
  }

  /** The link's Lightning invoice and on-chain quote run out, as they do after 24 hours. */
  async function outliveQuote(id: string) {
    const past = new Date(Date.now() - 1000);
    await t.db.updateTable('invoices').set({ expires_at: past }).where('source_id', '=', id).execute();
    await t.db
      .updateTable('checkout_onchain_addresses')
      .set({ quote_expires_at: past })
      .where('checkout_id', '=', id)
      .execute();
  }

  it('is re-priced with each new Lightning invoice, keeping the address', async () => {
    await setDollarPrice(10_000_000n);
    const id = await newCheckout('payment_link', 1000n, 'USD');
    const first = await read(id);
    expect(first).toMatchObject({ amountSats: 10_000, onchain: { amountSats: 10_000 } });
    // The price of bitcoin halves: the quote holds while its invoice does.
    await setDollarPrice(5_000_000n);
    expect(await read(id)).toMatchObject({ invoice: { id: first.invoice?.id }, onchain: { amountSats: 10_000 } });

    await outliveQuote(id);
    const renewed = await read(id);
    expect(renewed.invoice?.id).not.toBe(first.invoice?.id);
    expect(renewed).toMatchObject({
      amountSats: 20_000,
      invoice: { amountMsat: 20_000_000 },
      onchain: { address: first.onchain?.address, amountSats: 20_000, missingSats: 20_000 },
    });
    const quote = await t.db
      .selectFrom('checkout_onchain_addresses')
      .select(['quote_expires_at', 'rate_minor_per_btc'])
      .where('checkout_id', '=', id)
      .executeTakeFirstOrThrow();
    expect(quote).toEqual({
      quote_expires_at: new Date(renewed.invoice?.expiresAt as string),
      rate_minor_per_btc: '5000000',
    });

    // The old quote's satoshis now pay half.
    await sendDevnetPayment(t.db, first.onchain?.address as string, 10_000n);
    await watch();
    expect(await read(id)).toMatchObject({
      status: 'awaiting_payment',
      underpaid: { received: { value: '5.00' }, missing: { value: '5.00' }, missingSats: 10_000 },
    });
  });

  it('counts a payment at the old quote seen inside its window in full', async () => {
    await setDollarPrice(10_000_000n);
    const id = await newCheckout('payment_link', 1000n, 'USD');
    const { address } = await onchainOf(id);
    await setDollarPrice(5_000_000n);
    await sendDevnetPayment(t.db, address, 10_000n);
    await watch();
    await outliveQuote(id);
    expect(await read(id)).toMatchObject({ status: 'processing', invoice: null, onchain: { amountSats: 10_000 } });
    await mineDevnetBlocks(t.db, 4);
    await watch();
    expect(await checkoutRow(id)).toMatchObject({ status: 'paid', paid_via: 'onchain' });
    expect(sumOf(await ledgerOf(id))).toEqual({ msat: 10_000_000n, minor: 1000n });
  });

  it('judges a payment first seen after its quote ran out against the price of then', async () => {
    await setDollarPrice(10_000_000n);
    const id = await newCheckout('payment_link', 1000n, 'USD');
    const { address } = await onchainOf(id);
    await setDollarPrice(5_000_000n);
    await outliveQuote(id);
    // Paid to the address as it was read a day ago, without reading the link again.
    await sendDevnetPayment(t.db, address, 10_000n);
    await watch();
    expect(await read(id)).toMatchObject({
      status: 'awaiting_payment',
      amountSats: 20_000,
      underpaid: { receivedSats: 10_000, missingSats: 10_000 },
      onchain: { address, amountSats: 20_000, state: 'underpaid' },
    });
  });

  it('waits for a rate before judging a payment seen after its quote ran out', async () => {
    await setDollarPrice(10_000_000n);
    const id = await newCheckout('payment_link', 1000n, 'USD');
    const { address } = await onchainOf(id);
    await outliveQuote(id);
    await setDollarPrice(5_000_000n, new Date(Date.now() - 3_600_000));
    await sendDevnetPayment(t.db, address, 10_000n);
    await watch();
    const unseen = await t.db
      .selectFrom('checkout_onchain_outputs')
      .select('txid')
      .where('checkout_id', '=', id)
      .execute();
    expect(unseen).toEqual([]);
    await setDollarPrice(5_000_000n);
    await watch();
    expect(await onchainOf(id)).toMatchObject({ amountSats: 20_000, receivedSats: 10_000, state: 'underpaid' });
  });
});

describe("the merchant's list of payment links", () => {
  it('says Underpaid with the amounts while part of a link is paid, then Payment completed', async () => {
    const link = await call<PaymentLink>('POST', `/api/virtual-bpts/${shop.vbpt.id}/payment-links`, shop.admin, {
      description: `Cake ${Math.random()}`,
      amount: '60.00',
      currency: 'GTQ',
    });
    const listed = async () => {
      const links = await call<PaymentLink[]>('GET', `/api/virtual-bpts/${shop.vbpt.id}/payment-links`, shop.admin);
      return links.find((candidate) => candidate.id === link.id);
    };
    expect(await listed()).toMatchObject({ status: 'awaiting_payment', underpaid: null });
    const { address } = await onchainOf(link.id);
    await sendDevnetPayment(t.db, address, 6_219n);
    await watch();
    expect(await listed()).toMatchObject({
      status: 'awaiting_payment',
      underpaid: {
        received: { currency: 'GTQ', value: '45.39' },
        missing: { currency: 'GTQ', value: '14.61' },
        receivedSats: 6_219,
        missingSats: 2_000,
      },
    });
    await sendDevnetPayment(t.db, address, 2_000n);
    await mineDevnetBlocks(t.db, 4);
    await watch();
    expect(await listed()).toMatchObject({ status: 'paid', underpaid: null });
  });
});
