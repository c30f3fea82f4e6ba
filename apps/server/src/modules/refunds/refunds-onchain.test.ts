import { randomBytes } from 'node:crypto';
import type { TransactionSums } from '@rayo/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openOnchainShop, sellOnchain } from '../../../test/onchain-shop.ts';
import { createTestApp, type TestApp } from '../../../test/test-app.ts';
import { createDevnetChain, mineDevnetBlocks, sendDevnetPayment } from '../../adapters/chain/devnet.ts';
import type { ChainBackend } from '../../adapters/chain/types.ts';
import { accountKeyFromSeed, deriveReceiveAddress } from '../../domain/onchain-wallet.ts';
import { systemContext } from '../../http/request-context.ts';
import { runOnchainPayouts } from '../payouts/payouts-onchain.service.ts';

/**
 * A refund of a sale paid out on-chain is taken from the on-chain payouts (decision 0057): from
 * the payout that carries the sale's share when it has not gone yet, else from the next one.
 * Through the devnet chain and the platform's hot wallet. USD at $100,000: $1 is 1,000 sats.
 */

let t: TestApp;
let chain: ChainBackend;
const log = { debug: () => {}, info: () => {}, warn: () => {} };
const merchantWallet = accountKeyFromSeed(randomBytes(32));
let nextAddress = 0;

beforeAll(async () => {
  t = await createTestApp({ FIXED_RATES: 'USD=100000', CHAIN_PAYOUT_MIN_SATS: '2000' }, { jobs: false });
  chain = createDevnetChain(t.db);
});
afterAll(() => t?.close());

async function pay(address: string, sats: bigint) {
  await sendDevnetPayment(t.db, address, sats);
  await mineDevnetBlocks(t.db, 4);
}

async function openShop() {
  return openOnchainShop(t, deriveReceiveAddress(merchantWallet, nextAddress++, 'regtest'));
}

type Shop = Awaited<ReturnType<typeof openShop>>;

async function sell(shop: Shop, cents: bigint) {
  await sellOnchain(t, shop, cents, pay);
  return t.db
    .selectFrom('transactions')
    .select(['id', 'onchain_msat', 'total_msat'])
    .where('organization_id', '=', shop.id)
    .orderBy('created_at', 'desc')
    .executeTakeFirstOrThrow();
}

let keys = 0;
async function refund(shop: Shop, transactionId: string, amountMsat: bigint) {
  keys += 1;
  const response = await t.app.inject({
    method: 'POST',
    url: `/api/transactions/${transactionId}/refunds`,
    headers: shop.admin,
    payload: { amountMsat: Number(amountMsat), idempotencyKey: `onchain-refund-${keys}` },
  });
  expect(response.statusCode, response.body).toBe(200);
}

async function payouts(shop: Shop) {
  return t.db
    .selectFrom('payouts')
    .select(['id', 'amount_msat', 'state'])
    .where('organization_id', '=', shop.id)
    .orderBy('created_at')
    .execute();
}

async function msatsToDisburse(shop: Shop): Promise<number> {
  const response = await t.app.inject({ method: 'GET', url: '/api/dashboard/transactions/sum', headers: shop.admin });
  expect(response.statusCode, response.body).toBe(200);
  return response.json<TransactionSums>().msatsToDisburse;
}

describe('refunds and on-chain payouts', () => {
  it('does not pay out a refunded on-chain share, and takes a refund of a paid one from the next payout', async () => {
    const shop = await openShop();
    const sale = await sell(shop, 5_000n);
    const owed = BigInt(sale.onchain_msat);
    await refund(shop, sale.id, 10_000_000n);
    expect(await msatsToDisburse(shop)).toBe(Number(owed - 10_000_000n));
    await runOnchainPayouts(systemContext('pay-onchain-payouts'), { db: t.db, config: t.config, chain }, log);
    const [first] = await payouts(shop);
    expect(first?.state).toBe('sent');
    expect(BigInt(first?.amount_msat ?? 0)).toBe(((owed - 10_000_000n) / 1000n) * 1000n);

    // The whole sale is refunded after its share went out: the next payout is smaller by the rest.
    await refund(shop, sale.id, BigInt(sale.total_msat) - 10_000_000n);
    const next = await sell(shop, 9_000n);
    await runOnchainPayouts(systemContext('pay-onchain-payouts'), { db: t.db, config: t.config, chain }, log);
    const [, second] = await payouts(shop);
    const rest = BigInt(sale.total_msat) - 10_000_000n;
    expect(BigInt(second?.amount_msat ?? 0)).toBe(((BigInt(next.onchain_msat) - rest) / 1000n) * 1000n);
    const refunds = await t.db
      .selectFrom('refunds')
      .select('onchain_payout_id')
      .where('transaction_id', '=', sale.id)
      .orderBy('created_at')
      .execute();
    expect(refunds.map((row) => row.onchain_payout_id)).toEqual([first?.id, second?.id]);
  });
});
