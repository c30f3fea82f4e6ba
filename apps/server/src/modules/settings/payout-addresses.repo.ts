import type { Db } from '../../db/database.ts';

export type PayoutAddressesRow = {
  onchain_address: string | null;
  lightning_address: string | null;
  bank_verified: boolean;
  crypto_verified: boolean;
  disbursement_address_verified: boolean;
};

/** `lock` takes the organization's row, so that a change and its flag reset follow any other. */
export async function findPayoutAddresses(
  db: Db,
  organizationId: string,
  options: { lock?: boolean } = {},
): Promise<PayoutAddressesRow | undefined> {
  let query = db
    .selectFrom('organizations')
    .select([
      'onchain_address',
      'lightning_address',
      'bank_verified',
      'crypto_verified',
      'disbursement_address_verified',
    ])
    .where('id', '=', organizationId);
  if (options.lock) query = query.forUpdate();
  return query.executeTakeFirst();
}

/** A new address is not the one back office verified: `crypto_verified` goes back to false. */
export async function updateOnchainAddress(db: Db, organizationId: string, address: string): Promise<void> {
  await db
    .updateTable('organizations')
    .set({ onchain_address: address, crypto_verified: false })
    .where('id', '=', organizationId)
    .execute();
}

/** A new address is not the one back office verified: `disbursement_address_verified` goes back to false. */
export async function updateLightningAddress(db: Db, organizationId: string, address: string): Promise<void> {
  await db
    .updateTable('organizations')
    .set({ lightning_address: address, disbursement_address_verified: false })
    .where('id', '=', organizationId)
    .execute();
}
