import { AppError, type Language, type Role } from '@rayo/shared';
import type { Db } from '../../db/database.ts';
import { hashPassword } from '../auth/passwords.ts';
import type { AccessClaims } from '../auth/tokens.ts';
import { findUserById, insertUser, type UserProfile } from './users.repo.ts';

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

function isUniqueViolation(error: unknown): boolean {
  return typeof error === 'object' && error !== null && (error as { code?: string }).code === '23505';
}

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
    return await insertUser(db, {
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
