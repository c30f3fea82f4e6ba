import type { Insertable, Selectable } from 'kysely';
import type { Db } from '../../db/database.ts';
import type { TransactionsTable } from '../../db/schema.ts';

export type TransactionRow = Selectable<TransactionsTable>;
export type NewTransaction = Insertable<TransactionsTable>;

export async function insertTransaction(db: Db, transaction: NewTransaction): Promise<TransactionRow> {
  return db.insertInto('transactions').values(transaction).returningAll().executeTakeFirstOrThrow();
}

export async function listLatestBptTransactions(db: Db, bptId: string, limit: number): Promise<TransactionRow[]> {
  return db
    .selectFrom('transactions')
    .selectAll()
    .where('bpt_id', '=', bptId)
    .orderBy('settled_at', 'desc')
    .orderBy('id', 'desc')
    .limit(limit)
    .execute();
}

export async function countTransactionsForPayment(db: Db, paymentHash: string): Promise<number> {
  const row = await db
    .selectFrom('transactions')
    .select((eb) => eb.fn.countAll<string>().as('count'))
    .where('payment_hash', '=', paymentHash)
    .executeTakeFirstOrThrow();
  return Number(row.count);
}
