import { OPEN_PAYOUT_STATES } from '@rayo/shared';
import { sql } from 'kysely';
import type { Db } from '../../db/database.ts';
import type { OnchainWaitReason } from '../../db/schema.ts';
import { unpaidShares } from './payouts.repo.ts';

// The platform wallet's side of on-chain payouts: what is owed, who waits and why, deposit addresses.

/**
 * What every organization with unpaid on-chain shares is owed (msat), whatever stops them being
 * paid: those without an on-chain address or blocked are here too, so the run can say why.
 */
export async function listOnchainDebts(
  db: Db,
): Promise<Array<{ organizationId: string; owedMsat: bigint; hasAddress: boolean; blocked: boolean }>> {
  const rows = await unpaidShares(db, 'onchain')
    .innerJoin('organizations as o', 'o.id', 't.organization_id')
    .select(['t.organization_id', 'o.blocked'])
    .select(sql<string>`sum(t.onchain_msat)`.as('owed'))
    .select(sql<boolean>`o.onchain_address is not null`.as('has_address'))
    .groupBy(['t.organization_id', 'o.blocked', 'o.onchain_address'])
    .execute();
  return rows.map((row) => ({
    organizationId: row.organization_id,
    owedMsat: BigInt(row.owed),
    hasAddress: row.has_address,
    blocked: row.blocked,
  }));
}

export type OnchainWait = { organizationId: string; reason: OnchainWaitReason; owedSats: bigint };

/**
 * The run's verdict on who waits and why, replacing the last one: an organization keeps its
 * `since` while it waits for the same reason. Answers the organizations that began waiting for
 * the platform wallet's funds with this run.
 */
export async function replaceOnchainWaits(trx: Db, waits: readonly OnchainWait[]): Promise<string[]> {
  const before = await trx
    .selectFrom('onchain_payout_waits')
    .select(['organization_id', 'reason'])
    .forUpdate()
    .execute();
  const previous = new Map(before.map((row) => [row.organization_id, row.reason]));
  const waiting = new Set(waits.map((wait) => wait.organizationId));
  const gone = before.map((row) => row.organization_id).filter((id) => !waiting.has(id));
  if (gone.length > 0) await trx.deleteFrom('onchain_payout_waits').where('organization_id', 'in', gone).execute();
  for (const wait of waits) {
    await trx
      .insertInto('onchain_payout_waits')
      .values({ organization_id: wait.organizationId, reason: wait.reason, owed_sats: wait.owedSats })
      .onConflict((oc) =>
        oc.column('organization_id').doUpdateSet({
          reason: wait.reason,
          owed_sats: wait.owedSats,
          since: sql`case when onchain_payout_waits.reason = ${wait.reason} then onchain_payout_waits.since else now() end`,
          updated_at: sql`now()`,
        }),
      )
      .execute();
  }
  return waits
    .filter((wait) => wait.reason === 'wallet_funds' && previous.get(wait.organizationId) !== 'wallet_funds')
    .map((wait) => wait.organizationId);
}

/** Every organization waiting, with its name, longest waiting first. */
export async function listOnchainWaits(db: Db) {
  return db
    .selectFrom('onchain_payout_waits as w')
    .innerJoin('organizations as o', 'o.id', 'w.organization_id')
    .select(['w.organization_id', 'o.name', 'w.reason', 'w.owed_sats', 'w.since'])
    .orderBy('w.since')
    .orderBy('o.name')
    .execute();
}

export async function findOnchainWait(db: Db, organizationId: string) {
  return db
    .selectFrom('onchain_payout_waits')
    .select(['reason', 'owed_sats', 'since'])
    .where('organization_id', '=', organizationId)
    .executeTakeFirst();
}

/** What one organization's unpaid on-chain shares add up to (msat). */
export async function sumUnpaidOnchainShares(db: Db, organizationId: string): Promise<bigint> {
  const row = await unpaidShares(db, 'onchain')
    .where('t.organization_id', '=', organizationId)
    .select(sql<string | null>`sum(t.onchain_msat)`.as('owed'))
    .executeTakeFirst();
  return BigInt(row?.owed ?? 0);
}

/** On-chain payouts written and not sent yet: their amount (msat) and organizations. */
export async function sumOpenOnchainPayouts(db: Db): Promise<Array<{ organizationId: string; amountMsat: bigint }>> {
  const rows = await db
    .selectFrom('payouts')
    .select(['organization_id', sql<string>`sum(amount_msat)`.as('amount')])
    .where('kind', '=', 'onchain')
    .where('state', 'in', OPEN_PAYOUT_STATES)
    .groupBy('organization_id')
    .execute();
  return rows.map((row) => ({ organizationId: row.organization_id, amountMsat: BigInt(row.amount) }));
}

/** A receive address handed to back office to fund the platform wallet. */
export async function insertDepositAddress(
  db: Db,
  deposit: { address: string; wallet: string; index: number; createdBy: string },
): Promise<void> {
  await db
    .insertInto('platform_wallet_deposits')
    .values({
      address: deposit.address,
      wallet: deposit.wallet,
      derivation_index: deposit.index,
      created_by: deposit.createdBy,
    })
    .execute();
}

/** The wallet's deposit addresses, newest first. */
export async function listDepositAddresses(db: Db, wallet: string) {
  return db
    .selectFrom('platform_wallet_deposits')
    .select(['address', 'derivation_index'])
    .where('wallet', '=', wallet)
    .orderBy('derivation_index', 'desc')
    .execute();
}

/** The highest receive index of a checkout address the watcher saw paid; -1 when none was. */
export async function readHighestPaidCheckoutIndex(db: Db, wallet: string): Promise<number> {
  const row = await db
    .selectFrom('checkout_onchain_addresses as a')
    .select((eb) => eb.fn.max('a.derivation_index').as('highest'))
    .where('a.wallet', '=', wallet)
    .where(({ exists, selectFrom }) =>
      exists(
        selectFrom('checkout_onchain_outputs as o').select('o.txid').whereRef('o.checkout_id', '=', 'a.checkout_id'),
      ),
    )
    .executeTakeFirst();
  return row?.highest ?? -1;
}

/** The next receive index the wallet will hand out (its checkout and deposit addresses share it). */
export async function readNextReceiveIndex(db: Db, wallet: string): Promise<number> {
  const row = await db
    .selectFrom('onchain_wallet_counters')
    .select('next_index')
    .where('wallet', '=', wallet)
    .executeTakeFirst();
  return row?.next_index ?? 0;
}
