import type { Language } from '@rayo/shared';
import type { Db } from '../../db/database.ts';
import type { NewUser, User } from '../../db/schema.ts';

/** A user as the rest of the server sees one: everything but the password hash. */
export type UserProfile = Omit<User, 'password_hash'>;

const profileColumns = [
  'id',
  'organization_id',
  'email',
  'name',
  'role',
  'language',
  'email_confirmed_at',
  'created_at',
  'session_epoch',
] as const satisfies readonly (keyof UserProfile)[];

export async function findUserByEmail(db: Db, email: string): Promise<UserProfile | undefined> {
  return db
    .selectFrom('users')
    .select(profileColumns)
    .where((eb) => eb(eb.fn('lower', ['email']), '=', email.toLowerCase()))
    .executeTakeFirst();
}

/** The one read that carries the password hash, for the two places that check a password: sign-in and change of password. */
export async function findUserCredentials(
  db: Db,
  key: { email: string } | { userId: string },
): Promise<User | undefined> {
  return db
    .selectFrom('users')
    .select([...profileColumns, 'password_hash'])
    .where((eb) =>
      'email' in key ? eb(eb.fn('lower', ['email']), '=', key.email.toLowerCase()) : eb('id', '=', key.userId),
    )
    .executeTakeFirst();
}

export async function insertUser(db: Db, user: NewUser): Promise<UserProfile> {
  return db.insertInto('users').values(user).returning(profileColumns).executeTakeFirstOrThrow();
}

export async function linkManagerToAccounts(db: Db, userId: string, accountIds: string[]): Promise<void> {
  if (accountIds.length === 0) return;
  await db
    .insertInto('manager_accounts')
    .values(accountIds.map((accountId) => ({ user_id: userId, account_id: accountId })))
    .onConflict((oc) => oc.doNothing())
    .execute();
}

export async function findUserById(db: Db, userId: string): Promise<UserProfile | undefined> {
  return db.selectFrom('users').select(profileColumns).where('id', '=', userId).executeTakeFirst();
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

/** The organization's admins who can read mail: confirmed admins and super admins, oldest first. */
export async function listOrganizationAdmins(db: Db, organizationId: string): Promise<UserProfile[]> {
  return db
    .selectFrom('users')
    .select(profileColumns)
    .where('organization_id', '=', organizationId)
    .where('role', 'in', ['admin', 'super_admin'])
    .where('email_confirmed_at', 'is not', null)
    .orderBy('created_at')
    .orderBy('id')
    .execute();
}
