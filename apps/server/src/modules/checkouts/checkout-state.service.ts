import type { CheckoutStatus } from '@rayo/shared';
import type { Db } from '../../db/database.ts';
import type { CheckoutRow, SettledPayments } from './checkouts.repo.ts';
import * as checkouts from './checkouts.repo.ts';

// What other modules read of a checkout and change about it. Kept apart from checkouts.service.ts,
// which imports the on-chain module, so that the on-chain module can import this without a cycle.

export type { CheckoutRow, SettledPayments };

/**
 * A live checkout by its public id, of any organization. `lock` holds its row for the caller's
 * transaction; `includeDeleted` finds deleted ones too, whose payments still count.
 */
export async function findCheckout(
  db: Db,
  id: string,
  options: { lock?: boolean; includeDeleted?: boolean } = {},
): Promise<CheckoutRow | undefined> {
  return checkouts.findCheckout(db, id, options);
}

/** The organization's live checkout of this id. */
export async function findOrganizationCheckout(
  db: Db,
  organizationId: string,
  id: string,
): Promise<CheckoutRow | undefined> {
  return checkouts.findOrganizationCheckout(db, organizationId, id);
}

/** A store's checkout for its order id, kept so that a retried request gets the same one. */
export async function findStoreCheckoutByOrderId(
  db: Db,
  organizationId: string,
  orderId: string,
): Promise<CheckoutRow | undefined> {
  return checkouts.findStoreCheckoutByOrderId(db, organizationId, orderId);
}

/** The store checkout a ledger sale paid, if it paid one (kept when the checkout was deleted since). */
export async function findStoreCheckoutOfSale(db: Db, transactionId: string): Promise<CheckoutRow | undefined> {
  return checkouts.findStoreCheckoutOfSale(db, transactionId);
}

/** What the settled payments of each checkout add up to; checkouts paid nothing are left out. */
export async function sumSettledPayments(db: Db, checkoutIds: string[]): Promise<Map<string, SettledPayments>> {
  return checkouts.sumSettledPayments(db, checkoutIds);
}

/** `sumSettledPayments` of one checkout. */
export async function sumCheckoutSettledPayments(db: Db, checkoutId: string): Promise<SettledPayments> {
  return checkouts.sumCheckoutSettledPayments(db, checkoutId);
}

/** Moves a checkout between awaiting payment and processing; false when it was not in the state left. */
export async function setCheckoutProcessing(db: Db, checkoutId: string, processing: boolean): Promise<boolean> {
  return checkouts.setCheckoutProcessing(db, checkoutId, processing);
}

/** Tells every listening server process the checkout's status once the caller's transaction commits. */
export async function announceCheckoutStatus(db: Db, id: string, status: CheckoutStatus): Promise<void> {
  await checkouts.notifyCheckoutStatus(db, id, status);
}
