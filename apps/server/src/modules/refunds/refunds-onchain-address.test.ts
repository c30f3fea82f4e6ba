import { randomBytes } from 'node:crypto';
import type { ErrorResponse, Invoice, OnchainPayoutBatch, Refund } from '@rayo/shared';
import { HDKey } from '@scure/bip32';
import { Transaction as BitcoinjsTransaction, address as bitcoinjsAddress, networks, payments } from 'bitcoinjs-lib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type FakeEsplora, startFakeEsplora } from '../../../test/fakes/esplora-server.ts';
import { type OnchainShop, openOnchainShop, sellOnchain } from '../../../test/onchain-shop.ts';
import { bearer, createTestApp, createTestUser, signIn, type TestApp } from '../../../test/test-app.ts';
import { waitFor } from '../../../test/wait-for.ts';
import { createChainBackend } from '../../adapters/chain/index.ts';
import type { ChainBackend } from '../../adapters/chain/types.ts';
import { accountKeyFromSeed, deriveReceiveAddress } from '../../domain/onchain-wallet.ts';
import { systemContext } from '../../http/request-context.ts';
import { runOnchainPayouts } from '../payouts/payouts-onchain.service.ts';

/**
 * Refunds sent on-chain to the customer's Bitcoin address by the platform's hot wallet (decision
 * 0063), against the Esplora stand-in, whose node applies Bitcoin Core's rules. USD at $100,000:
 * $1 is 1,000 sats. The organizations' own on-chain payouts stay below their minimum here, so
 * every transaction the wallet sends is a refund's.
 */

const log = { debug: () => {}, info: () => {}, warn: () => {} };
const merchantWallet = accountKeyFromSeed(randomBytes(32));
let nextAddress = 0;
let esplora: FakeEsplora;
let t: TestApp;
let chain: ChainBackend;
let backOffice: { authorization: string };

beforeAll(async () => {
  esplora = await startFakeEsplora();
  const master = HDKey.fromMasterSeed(randomBytes(32));
  const account = master.derive("m/84'/1'/0'");
  t = await createTestApp(
    {
      CHAIN_BACKEND: 'esplora',
      ESPLORA_URL: esplora.url,
      CHAIN_NETWORK: 'regtest',
      CHAIN_XPUB: account.publicExtendedKey,
      CHAIN_XPUB_ORIGIN: `${master.fingerprint.toString(16).padStart(8, '0')}/84h/1h/0h`,
      CHAIN_PAYOUT_XPRV: account.privateExtendedKey,
      FIXED_RATES: 'USD=100000',
      CHAIN_PAYOUT_MIN_SATS: '100000000',
    },
    { jobs: false },
  );
  chain = createChainBackend(t.config, t.db);
  const staff = await createTestUser(t.db, { role: 'back_office', organizationId: null });
  backOffice = bearer((await signIn(t.app, staff.email, staff.password)).accessToken);
});
afterAll(async () => {
  await t?.close();
  await esplora?.close();
});

/** A shop with one on-chain sale of `cents`, whose payment funds the platform wallet (confirmed). */
async function shopWithSale(cents: bigint): Promise<{ shop: OnchainShop; saleId: string; totalMsat: number }> {
  const shop = await openOnchainShop(t, deriveReceiveAddress(merchantWallet, nextAddress++, 'regtest'));
  await sellOnchain(t, shop, cents, async (address, sats) => {
    esplora.fund(address, sats);
    esplora.mine(3);
  });
  const sale = await t.db
    .selectFrom('transactions')
    .select(['id', 'total_msat'])
    .where('organization_id', '=', shop.id)
    .executeTakeFirstOrThrow();
  return { shop, saleId: sale.id, totalMsat: Number(sale.total_msat) };
}

/** A customer's P2WPKH address nobody here holds the key of, as bitcoinjs-lib encodes it. */
function customerAddress(network = networks.regtest): string {
  return payments.p2wpkh({ hash: randomBytes(20), network }).address as string;
}

let keys = 0;
function refundTo(
  saleId: string,
  headers: { authorization: string },
  amountMsat: number,
  destination: string,
  idempotencyKey = `onchain-address-${++keys}`,
) {
  return t.app.inject({
    method: 'POST',
    url: `/api/transactions/${saleId}/refunds`,
    headers,
    payload: { amountMsat, idempotencyKey, destination },
  });
}

function codeOf(response: { json: <T>() => T }): string {
  return response.json<ErrorResponse>().code;
}

async function refundRow(id: string) {
  return t.db.selectFrom('refunds').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
}

async function batchOf(refundId: string) {
  const { batch_id } = await refundRow(refundId);
  return t.db
    .selectFrom('onchain_payout_batches')
    .selectAll()
    .where('id', '=', batch_id as string)
    .executeTakeFirstOrThrow();
}

/** What the transaction pays to `address`, as bitcoinjs-lib, a decoder independent of the builder, reads it. */
function paidTo(rawHex: string, address: string): bigint[] {
  return BitcoinjsTransaction.fromHex(rawHex)
    .outs.filter((output) => bitcoinjsAddress.fromOutputScript(output.script, networks.regtest) === address)
    .map((output) => BigInt(output.value));
}

async function countRows(table: 'refunds' | 'onchain_payout_batches'): Promise<number> {
  const rows = await t.db.selectFrom(table).select('id').execute();
  return rows.length;
}

describe('a refund to a Bitcoin address', () => {
  it('refuses a bad or foreign address, dust, over-refunds, unpaid sales and managers, sending nothing', async () => {
    const { shop, saleId, totalMsat } = await shopWithSale(20_000n);
    const address = customerAddress();
    const foreign = customerAddress(networks.bitcoin);
    // bitcoinjs-lib agrees: the one is a regtest script, the other is not.
    expect(bitcoinjsAddress.toOutputScript(address, networks.regtest)).toHaveLength(22);
    expect(() => bitcoinjsAddress.toOutputScript(foreign, networks.regtest)).toThrow();
    const refundsBefore = await countRows('refunds');
    const batchesBefore = await countRows('onchain_payout_batches');

    const answers: Array<[Awaited<ReturnType<typeof refundTo>>, number, string]> = [
      [await refundTo(saleId, shop.admin, 1_000_000, 'bitcoin:bcrt1qnotanaddress'), 400, 'InvalidOnchainAddress'],
      [await refundTo(saleId, shop.admin, 1_000_000, `bitcoin:${address}?amount=0.01`), 400, 'InvalidOnchainAddress'],
      [await refundTo(saleId, shop.admin, 1_000_000, foreign), 400, 'OnchainAddressWrongNetwork'],
      [await refundTo(saleId, shop.admin, 1_000_000, `bitcoin:${foreign}`), 400, 'OnchainAddressWrongNetwork'],
      // 545,999 msat is 545 whole sats, one below the dust limit.
      [await refundTo(saleId, shop.admin, 545_999, address), 400, 'RefundBelowDust'],
      [await refundTo(saleId, shop.admin, totalMsat + 1000, address), 409, 'RefundExceedsSale'],
    ];
    for (const [response, status, code] of answers) {
      expect(response.statusCode, response.body).toBe(status);
      expect(codeOf(response)).toBe(code);
    }

    const invoice = await t.app.inject({
      method: 'POST',
      url: `/api/bpts/${shop.bpt.id}/invoices`,
      headers: shop.admin,
      payload: { amount: '1.00' },
    });
    expect(invoice.statusCode, invoice.body).toBe(201);
    const unpaid = await refundTo(invoice.json<Invoice>().id, shop.admin, 1_000_000, address);
    expect(unpaid.statusCode, unpaid.body).toBe(409);
    expect(codeOf(unpaid)).toBe('SaleNotPaid');

    const manager = await createTestUser(t.db, {
      role: 'manager',
      organizationId: shop.id,
      accountIds: [shop.bpt.accountId],
    });
    const managerHeaders = bearer((await signIn(t.app, manager.email, manager.password)).accessToken);
    expect((await refundTo(saleId, managerHeaders, 1_000_000, address)).statusCode).toBe(403);

    expect(await countRows('refunds')).toBe(refundsBefore);
    expect(await countRows('onchain_payout_batches')).toBe(batchesBefore);
    expect(esplora.broadcasts).toEqual([]);
  });

  it('sends one transaction for a double click, paying the address the refund in whole sats', async () => {
    const { shop, saleId } = await shopWithSale(30_000n);
    const address = customerAddress();
    const broadcastsBefore = esplora.broadcasts.length;
    const key = `double-click-${randomBytes(4).toString('hex')}`;
    // 12,345,678 msat: the customer gets 12,345 sats; the part below one sat stays, as payouts do.
    const [first, second] = await Promise.all([
      refundTo(saleId, shop.admin, 12_345_678, `bitcoin:${address}`, key),
      refundTo(saleId, shop.admin, 12_345_678, `bitcoin:${address}`, key),
    ]);
    expect(first.statusCode, first.body).toBe(200);
    expect(second.statusCode, second.body).toBe(200);
    const made = first.json<Refund>();
    expect(second.json<Refund>().id).toBe(made.id);
    expect(made).toMatchObject({ method: 'onchain-address', state: 'paying', destination: address, lnurl: null });

    await waitFor(async () => (await refundRow(made.id)).state === 'paid');
    const batch = await batchOf(made.id);
    expect(batch.state).toBe('broadcast');
    expect(esplora.broadcasts.slice(broadcastsBefore)).toEqual([batch.raw_tx]);
    expect(paidTo(batch.raw_tx as string, address)).toEqual([12_345n]);
    expect(made.txid).toBe(batch.txid);
    expect(BitcoinjsTransaction.fromHex(batch.raw_tx as string).getId()).toBe(batch.txid);
    expect(await chain.getTransactionStatus(batch.txid)).toEqual({ blockHeight: null });

    // Back office sees the batch's one output and what it pays.
    const batches = await t.app.inject({ method: 'GET', url: '/api/back-office/onchain-payouts', headers: backOffice });
    expect(batches.json<OnchainPayoutBatch[]>().find((listed) => listed.id === batch.id)).toMatchObject({
      outputs: 1,
      amountSats: 12_345,
    });

    // The payout pass finds it on the chain and sends nothing more.
    await runOnchainPayouts(systemContext('pay-onchain-payouts'), { db: t.db, config: t.config, chain }, log);
    expect(esplora.broadcasts.length).toBe(broadcastsBefore + 1);
    const listed = await t.app.inject({
      method: 'GET',
      url: `/api/transactions/${saleId}/refunds`,
      headers: shop.admin,
    });
    expect(
      listed.json<{ refunds: Refund[] }>().refunds.map((refund) => [refund.state, refund.destination, refund.txid]),
    ).toEqual([['paid', address, batch.txid]]);
  });

  it('after a crash between broadcasting and recording it, finds the txid and never sends twice', async () => {
    const { shop, saleId } = await shopWithSale(30_000n);
    const address = customerAddress();
    const made = (await refundTo(saleId, shop.admin, 5_000_000, address)).json<Refund>();
    await waitFor(async () => (await refundRow(made.id)).state === 'paid');
    const batch = await batchOf(made.id);
    const sent = esplora.broadcasts.length;
    // The dead process had handed the transaction to the node, and recorded nothing after.
    await t.db
      .updateTable('onchain_payout_batches')
      .set({ state: 'signed', broadcast_at: null })
      .where('id', '=', batch.id)
      .execute();
    await t.db.updateTable('refunds').set({ state: 'paying', paid_at: null }).where('id', '=', made.id).execute();

    await runOnchainPayouts(systemContext('pay-onchain-payouts'), { db: t.db, config: t.config, chain }, log);
    expect(esplora.broadcasts.length).toBe(sent);
    expect((await refundRow(made.id)).state).toBe('paid');
    expect((await batchOf(made.id)).state).toBe('broadcast');
  });

  it('is sent by the payout pass when the node refused it at first, once', async () => {
    const { shop, saleId } = await shopWithSale(30_000n);
    const address = customerAddress();
    esplora.refuseBroadcasts = { code: -26, message: 'mempool min fee not met' };
    const made = (await refundTo(saleId, shop.admin, 7_000_000, address)).json<Refund>();
    const refused = await waitFor(async () => {
      const batch = await batchOf(made.id);
      return batch.attempts > 0 ? batch : undefined;
    });
    expect((await refundRow(made.id)).state).toBe('paying');
    esplora.refuseBroadcasts = null;
    await t.db
      .updateTable('onchain_payout_batches')
      .set({ next_attempt_at: new Date() })
      .where('id', '=', refused.id)
      .execute();
    const before = esplora.broadcasts.length;

    await runOnchainPayouts(systemContext('pay-onchain-payouts'), { db: t.db, config: t.config, chain }, log);
    await runOnchainPayouts(systemContext('pay-onchain-payouts'), { db: t.db, config: t.config, chain }, log);
    expect(esplora.broadcasts.slice(before)).toEqual([refused.raw_tx]);
    expect((await refundRow(made.id)).state).toBe('paid');
    expect(paidTo(refused.raw_tx as string, address)).toEqual([7_000n]);
  });

  it('keeps paying the address when back office raises the fee of its transaction', async () => {
    const { shop, saleId } = await shopWithSale(30_000n);
    const address = customerAddress();
    const made = (await refundTo(saleId, shop.admin, 8_000_000, address)).json<Refund>();
    await waitFor(async () => (await refundRow(made.id)).state === 'paid');
    const batch = await batchOf(made.id);
    const bumped = await t.app.inject({
      method: 'POST',
      url: `/api/back-office/onchain-payouts/${batch.id}/bump`,
      headers: backOffice,
      payload: { feeRate: 20 },
    });
    expect(bumped.statusCode, bumped.body).toBe(200);
    expect(bumped.json<OnchainPayoutBatch>().replacedTxids).toEqual([batch.txid]);
    const replaced = await batchOf(made.id);
    expect(replaced.txid).not.toBe(batch.txid);
    expect(paidTo(replaced.raw_tx as string, address)).toEqual([8_000n]);
    expect(esplora.broadcasts.at(-1)).toBe(replaced.raw_tx);
    // The refund names the transaction that replaced the first.
    const listed = await t.app.inject({
      method: 'GET',
      url: `/api/transactions/${saleId}/refunds`,
      headers: shop.admin,
    });
    expect(listed.json<{ refunds: Refund[] }>().refunds.map((refund) => refund.txid)).toEqual([replaced.txid]);
  });
});
