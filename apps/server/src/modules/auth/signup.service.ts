import { randomBytes } from 'node:crypto';
import { AppError, type ConfirmEmailRequest, type SignInResponse, type SignUpRequest } from '@rayo/shared';
import type { Mailer } from '../../adapters/mail/mailer.ts';
import type { PublicContext } from '../../http/request-context.ts';
import { recordAuditEntry } from '../audit/audit.service.ts';
import {
  confirmUserEmail,
  createUser,
  findUserByEmail,
  findUserById,
  setUserPassword,
  type UserProfile,
} from '../users/users.service.ts';
import { type AuthDeps, startSession } from './auth.service.ts';
import { emailConfirmationMail } from './auth-mails.ts';
import { lockLiveCodeByHash, replaceEmailCode, spendEmailCode } from './email-codes.repo.ts';
import { hashPassword } from './passwords.ts';
import { sha256Hex } from './tokens.ts';

export type AccountMailDeps = AuthDeps & { mailer: Mailer };

const CONFIRMATION_LINK_HOURS = 24;
const HOUR_MS = 60 * 60 * 1000;

/**
 * Creates an unconfirmed admin with no organization yet and mails the confirmation link. An
 * address that signed up but never confirmed gets a new link instead, so a lost mail is not a
 * dead end; the newest link retires the older ones. No link carries a password: anyone can make
 * an address mail one, so the password that counts is typed on the page the link opens, by
 * whoever holds the mailbox (see `confirmEmail`).
 */
export async function signUp(
  ctx: PublicContext,
  deps: AccountMailDeps,
  request: Required<SignUpRequest>,
  now = new Date(),
): Promise<void> {
  const existing = await findUserByEmail(deps.db, request.email);
  if (existing?.email_confirmed_at) throw new AppError('UserAlreadyExist', 'User already exist');
  if (existing) {
    await sendEmailConfirmation(deps, existing, now);
    return;
  }
  const user = await createUser(deps.db, {
    organizationId: null,
    email: request.email,
    name: request.email.split('@')[0] ?? request.email,
    password: request.password,
    role: 'admin',
    language: request.language,
    emailConfirmed: false,
  });
  await recordAuditEntry(deps.db, {
    action: 'auth.signup',
    actorUserId: user.id,
    actorEmail: user.email,
    ip: ctx.ip,
  });
  await sendEmailConfirmation(deps, user, now);
}

async function sendEmailConfirmation(deps: AccountMailDeps, user: UserProfile, now: Date): Promise<void> {
  const code = randomBytes(32).toString('base64url');
  await replaceEmailCode(
    deps.db,
    {
      userId: user.id,
      purpose: 'confirm_email',
      codeHash: sha256Hex(code),
      expiresAt: new Date(now.getTime() + CONFIRMATION_LINK_HOURS * HOUR_MS),
    },
    now,
  );
  const link = new URL('/onboard', deps.config.publicUrl);
  link.searchParams.set('code', code);
  await deps.mailer.send(emailConfirmationMail(user.email, user.language, link.toString(), CONFIRMATION_LINK_HOURS));
}

/**
 * Following the emailed link confirms the address, sets the password typed on the page the link
 * opened (whatever any sign-up for the address typed), and signs the user in, ready to onboard.
 * A link whose address is already confirmed (by a password reset, say) is spent without effect.
 */
export async function confirmEmail(
  ctx: PublicContext,
  deps: AuthDeps,
  request: ConfirmEmailRequest,
  now = new Date(),
): Promise<SignInResponse> {
  const passwordHash = await hashPassword(request.password);
  const userId = await deps.db.transaction().execute(async (trx) => {
    const code = await lockLiveCodeByHash(trx, 'confirm_email', sha256Hex(request.code), now);
    if (!code) return undefined;
    await spendEmailCode(trx, code.id, now);
    if (!(await confirmUserEmail(trx, code.user_id, now))) return undefined;
    await setUserPassword(trx, code.user_id, passwordHash);
    return code.user_id;
  });
  const user = userId ? await findUserById(deps.db, userId) : undefined;
  if (!user) throw new AppError('InvalidCode', 'This link is not valid or has expired');
  await recordAuditEntry(deps.db, {
    action: 'auth.email_confirmed',
    actorUserId: user.id,
    actorEmail: user.email,
    organizationId: user.organization_id,
    ip: ctx.ip,
  });
  return startSession(deps, user, request.remember, now);
}
