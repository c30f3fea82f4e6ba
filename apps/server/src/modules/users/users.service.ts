import { AppError, type Language, type Role } from '@rayo/shared';
import { type Db, isUniqueViolation } from '../../db/database.ts';
import { hashPassword } from '../auth/passwords.ts';
import type { AccessClaims } from '../auth/tokens.ts';
import type { UserProfile } from './users.repo.ts';
import * as users from './users.repo.ts';

export type { UserProfile };

export type NewUserInput = {
  organizationId: string | null;
  email: string;
  name: string;
  password: string;
  role: Role;
  language: Language;
  /** False for a sign-up, whose address is confirmed by the emailed link; users made by an admin or the CLI are trusted. */
  emailConfirmed?: boolean;
};

export async function createUser(db: Db, input: NewUserInput): Promise<UserProfile> {
  const organizationFits =
    input.role === 'back_office'
      ? input.organizationId === null
      : input.organizationId !== null || input.role === 'admin';
  if (!organizationFits) {
    throw new AppError(
      'InvalidInput',
      'Back-office users belong to no organization; admins to one once onboarded; every other role to one',
    );
  }
  try {
    return await users.insertUser(db, {
      organization_id: input.organizationId,
      email: input.email.toLowerCase(),
      name: input.name,
      password_hash: await hashPassword(input.password),
      role: input.role,
      language: input.language,
      email_confirmed_at: input.emailConfirmed === false ? null : new Date(),
    });
  } catch (error) {
    if (isUniqueViolation(error)) throw new AppError('UserAlreadyExist', 'User already exist');
    throw error;
  }
}

/**
 * Access tokens are not stored, so a valid token is refused here once its user is gone, or once
 * a password reset or change ended the sessions it was signed in: without this read a deleted
 * manager's token, or a thief's, would keep opening the API until it expired.
 */
export async function requireCallerUser(db: Db, caller: AccessClaims): Promise<UserProfile> {
  const user = await findUserById(db, caller.userId);
  if (!user || user.session_epoch !== caller.sessionEpoch) {
    throw new AppError('Unauthorized', 'A valid access token is required');
  }
  return user;
}

export async function findUserById(db: Db, userId: string): Promise<UserProfile | undefined> {
  return users.findUserById(db, userId);
}

export async function findUserByEmail(db: Db, email: string): Promise<UserProfile | undefined> {
  return users.findUserByEmail(db, email);
}

/** The user with the password hash, for the two places that check a password: sign-in and change of password. */
export async function findUserCredentials(db: Db, key: { email: string } | { userId: string }) {
  return users.findUserCredentials(db, key);
}

/** `passwordHash` is hashed by the caller before its transaction opens, so scrypt holds no row lock. */
export async function setUserPassword(db: Db, userId: string, passwordHash: string): Promise<void> {
  await users.updateUserPassword(db, userId, passwordHash);
}

/** False when the address was already confirmed. */
export async function confirmUserEmail(db: Db, userId: string, now: Date): Promise<boolean> {
  return users.confirmUserEmail(db, userId, now);
}

export async function setUserLanguage(db: Db, userId: string, language: Language): Promise<void> {
  await users.updateUserLanguage(db, userId, language);
}

/** False when the user already belongs to an organization. */
export async function assignUserOrganization(
  db: Db,
  userId: string,
  organizationId: string,
  language: Language,
): Promise<boolean> {
  return users.assignUserOrganization(db, userId, organizationId, language);
}

/** Lets a manager see these accounts; a link that exists stays. */
export async function linkManagerToAccounts(db: Db, userId: string, accountIds: string[]): Promise<void> {
  await users.linkManagerToAccounts(db, userId, accountIds);
}

/** The organization's admins who can read mail: confirmed admins and super admins, oldest first. */
export async function listOrganizationAdmins(db: Db, organizationId: string): Promise<UserProfile[]> {
  return users.listOrganizationAdmins(db, organizationId);
}
