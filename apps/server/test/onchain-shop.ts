import type { Account, Bpt, Invoice, PublicCheckout, VirtualBpt } from '@rayo/shared';
import { expect } from 'vitest';
import { createChainBackend } from '../src/adapters/chain/index.ts';
import { createCheckout } from '../src/modules/checkouts/checkouts.service.ts';
import { reconcileOpenInvoices } from '../src/modules/ledger/settlement.service.ts';
import { watchCheckoutPayments } from '../src/modules/onchain/onchain.service.ts';
import { openTestShop, type TestApp } from './test-app.ts';

/**
 * Shops paid out all on-chain, for the on-chain payout tests: their sales owe on-chain shares
 * that the platform wallet pays in batches.
 */

async function call<T>(t: TestApp, method: 'GET' | 'POST', url: string, headers?: object, payload?: object) {
  const response = await t.app.inject({ method, url, headers: headers as Record<string, string>, payload });
  expect(response.statusCode, response.body).toBeLessThan(300);
  return response.json() as T;
}

export type OnchainShop = Awaited<ReturnType<typeof openOnchainShop>>;

/** An organization with a USD till and a web shop, its admin signed in, paid out 100 % on-chain at `destination`. */
export async function openOnchainShop(t: TestApp, destination: string | null) {
  const shop = await openTestShop(t);
  const account = await call<Account>(t, 'POST', '/api/accounts', shop.admin, { name: 'Online' });
  const bpt = await call<Bpt>(t, 'POST', '/api/bpts', shop.admin, {
    name: 'Till',
    accountId: account.id,
    currency: 'USD',
  });
  const vbpt = await call<VirtualBpt>(t, 'POST', '/api/virtual-bpts', shop.admin, { name: 'Web shop', bptId: bpt.id });
  await t.db
    .updateTable('organizations')
    .set({ onchain_address: destination, payout_fiat_bps: 0, payout_onchain_bps: 10_000, payout_lightning_bps: 0 })
    .where('id', '=', shop.organization.id)
    .execute();
  return { id: shop.organization.id, admin: shop.admin, bpt, vbpt, destination };
}

/**
 * A payment link of `cents` paid on-chain at its checkout's address (which funds the platform
 * wallet) by `pay`, which must leave it with 4 confirmations, and recorded by the watcher.
 */
export async function sellOnchain(
  t: TestApp,
  shop: OnchainShop,
  cents: bigint,
  pay: (address: string, sats: bigint) => Promise<void>,
): Promise<void> {
  const checkout = await createCheckout(t.runtime.deps, {
    organizationId: shop.id,
    virtualBptId: shop.vbpt.id,
    kind: 'payment_link',
    description: `On-chain sale ${Math.random()}`,
    amount: { currency: 'USD', minor: cents },
  });
  const onchain = (await call<PublicCheckout>(t, 'GET', `/api/public/checkouts/${checkout.id}`)).onchain;
  if (!onchain) throw new Error('no on-chain option');
  await pay(onchain.address, BigInt(onchain.amountSats));
  await watchCheckoutPayments({ db: t.db, config: t.config, chain: createChainBackend(t.config, t.db) });
}

/** A sale of `dollars` paid by Lightning from the devnet wallet and recorded: it owes on-chain without funding the wallet. */
export async function sellByLightning(t: TestApp, shop: OnchainShop, dollars: string): Promise<void> {
  const invoice = await call<Invoice>(t, 'POST', `/api/bpts/${shop.bpt.id}/invoices`, shop.admin, { amount: dollars });
  await call(t, 'POST', '/api/devnet/pay', undefined, { paymentRequest: invoice.paymentRequest });
  await reconcileOpenInvoices(t.runtime.deps);
}
