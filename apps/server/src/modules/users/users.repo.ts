import type { Language } from '@rayo/shared';
import type { Db } from '../../db/database.ts';
import type { NewUser, User } from '../../db/schema.ts';

export async function findUserByEmail(db: Db, email: string): Promise<User | undefined> {
  return db
    .selectFrom('users')
    .selectAll()
    .where((eb) => eb(eb.fn('lower', ['email']), '=', email.toLowerCase()))
    .executeTakeFirst();
}

export async function insertUser(db: Db, user: NewUser): Promise<User> {
  return db.insertInto('users').values(user).returningAll().executeTakeFirstOrThrow();
}

export async function linkManagerToAccounts(db: Db, userId: string, accountIds: string[]): Promise<void> {
  if (accountIds.length === 0) return;
  await db
    .insertInto('manager_accounts')
    .values(accountIds.map((accountId) => ({ user_id: userId, account_id: accountId })))
    .onConflict((oc) => oc.doNothing())
    .execute();
}

export async function findUserById(db: Db, userId: string): Promise<User | undefined> {
  return db.selectFrom('users').selectAll().where('id', '=', userId).executeTakeFirst();
}

export async function updateUserLanguage(db: Db, userId: string, language: Language): Promise<void> {
  await db.updateTable('users').set({ language }).where('id', '=', userId).execute();
}

export async function updateUserPassword(db: Db, userId: string, passwordHash: string): Promise<void> {
  await db.updateTable('users').set({ password_hash: passwordHash }).where('id', '=', userId).execute();
}

/** False when the address was already confirmed. */
export async function confirmUserEmail(db: Db, userId: string, now: Date): Promise<boolean> {
  const result = await db
    .updateTable('users')
    .set({ email_confirmed_at: now })
    .where('id', '=', userId)
    .where('email_confirmed_at', 'is', null)
    .executeTakeFirst();
  return result.numUpdatedRows > 0n;
}

/** False when the user already belongs to an organization. */
export async function assignUserOrganization(
  db: Db,
  userId: string,
  organizationId: string,
  language: User['language'],
): Promise<boolean> {
  const result = await db
    .updateTable('users')
    .set({ organization_id: organizationId, language })
    .where('id', '=', userId)
    .where('organization_id', 'is', null)
    .executeTakeFirst();
  return result.numUpdatedRows > 0n;
}
