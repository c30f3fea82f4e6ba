import type { Account, Bpt, Invoice } from '@rayo/shared';
import { expect } from 'vitest';
import { updateLightningAddress } from '../src/modules/settings/payout-addresses.repo.ts';
import { countTransactionsForPayment } from '../src/modules/transactions/transactions.repo.ts';
import { openTestShop, type TestApp } from './test-app.ts';

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
