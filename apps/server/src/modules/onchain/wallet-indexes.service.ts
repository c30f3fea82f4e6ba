import type { Db } from '../../db/database.ts';
import * as onchain from './onchain.repo.ts';

/**
 * The next unused derivation index of the wallet, for checkout addresses and payout change alike,
 * so that no two addresses share one. `db` is the caller's transaction, which holds the index.
 */
export async function allocateWalletIndex(db: Db, wallet: string): Promise<number> {
  return onchain.allocateWalletIndex(db, wallet);
}
