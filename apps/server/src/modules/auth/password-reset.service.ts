import { randomInt, timingSafeEqual } from 'node:crypto';
import {
  AppError,
  type ConfirmForgotPasswordRequest,
  type ForgotPasswordRequest,
  RESET_CODE_LENGTH,
} from '@rayo/shared';
import type { PublicContext } from '../../http/request-context.ts';
import { recordAuditEntry } from '../audit/audit.service.ts';
import { revokeUserDeveloperTokens } from '../settings/developer-tokens.service.ts';
import { confirmUserEmail, findUserByEmail, setUserPassword } from '../users/users.service.ts';
import { endUserSessions } from './auth.repo.ts';
import { passwordResetMail } from './auth-mails.ts';
import {
  countFailedAttempt,
  lockLiveCodeOfUser,
  replaceEmailCode,
  spendEmailCode,
  spendEmailCodesOfUser,
} from './email-codes.repo.ts';
import { hashPassword } from './passwords.ts';
import type { AccountMailDeps } from './signup.service.ts';
import { sha256Hex } from './tokens.ts';

const RESET_CODE_MINUTES = 30;
/** Six digits are a million guesses; five wrong ones spend the code. */
const RESET_CODE_MAX_ATTEMPTS = 5;
const MINUTE_MS = 60 * 1000;

function newResetCode(): string {
  return String(randomInt(0, 10 ** RESET_CODE_LENGTH)).padStart(RESET_CODE_LENGTH, '0');
}

/**
 * Mails a single-use code for setting a new password. SPEC §8 answers an unknown address with
 * 'The email doesn't exists in the product', so this call does reveal whether an email is known;
 * its rate limits keep that from being used to list addresses.
 */
export async function requestPasswordReset(
  ctx: PublicContext,
  deps: AccountMailDeps,
  request: ForgotPasswordRequest,
  now = new Date(),
): Promise<void> {
  const user = await findUserByEmail(deps.db, request.email);
  if (!user) throw new AppError('EmailNotFound', "The email doesn't exists in the product");
  const code = newResetCode();
  await replaceEmailCode(
    deps.db,
    {
      userId: user.id,
      purpose: 'reset_password',
      codeHash: sha256Hex(code),
      expiresAt: new Date(now.getTime() + RESET_CODE_MINUTES * MINUTE_MS),
    },
    now,
  );
  await recordAuditEntry(deps.db, {
    action: 'auth.password_reset_requested',
    actorUserId: user.id,
    actorEmail: user.email,
    organizationId: user.organization_id,
    ip: ctx.ip,
  });
  const link = new URL('/confirm-forgot-password', deps.config.publicUrl);
  link.searchParams.set('email', user.email);
  link.searchParams.set('code', code);
  await deps.mailer.send(passwordResetMail(user.email, user.language, code, link.toString(), RESET_CODE_MINUTES));
}

function sameCode(code: string, storedHash: string): boolean {
  const given = Buffer.from(sha256Hex(code), 'hex');
  const stored = Buffer.from(storedHash, 'hex');
  return given.length === stored.length && timingSafeEqual(given, stored);
}

/**
 * Sets the new password with the emailed code and ends every session of the user (refresh and
 * access tokens alike), and on request revokes the developer tokens they made. The code also
 * proves the mailbox, so an unconfirmed address counts as confirmed afterwards.
 */
export async function resetPassword(
  ctx: PublicContext,
  deps: AccountMailDeps,
  request: ConfirmForgotPasswordRequest,
  now = new Date(),
): Promise<void> {
  const user = await findUserByEmail(deps.db, request.email);
  const passwordHash = await hashPassword(request.password);
  const outcome = user
    ? await deps.db.transaction().execute(async (trx) => {
        const code = await lockLiveCodeOfUser(trx, user.id, 'reset_password', now);
        if (!code) return 'invalid';
        if (!sameCode(request.code, code.code_hash)) {
          await countFailedAttempt(trx, code.id, RESET_CODE_MAX_ATTEMPTS, now);
          return 'invalid';
        }
        await spendEmailCode(trx, code.id, now);
        await setUserPassword(trx, user.id, passwordHash);
        await confirmUserEmail(trx, user.id, now);
        // The password just set is the one that counts: no pending sign-up link may replace it.
        await spendEmailCodesOfUser(trx, user.id, 'confirm_email', now);
        await endUserSessions(trx, user.id, now);
        const revoked = request.revokeDeveloperTokens ? await revokeUserDeveloperTokens(trx, user.id, now) : 0;
        await recordAuditEntry(trx, {
          action: 'auth.password_reset',
          actorUserId: user.id,
          actorEmail: user.email,
          organizationId: user.organization_id,
          after: { developerTokensRevoked: revoked },
          ip: ctx.ip,
        });
        return 'done';
      })
    : 'invalid';
  if (outcome !== 'done') throw new AppError('InvalidCode', 'The code is not valid or has expired');
}
