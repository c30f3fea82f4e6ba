import { z } from 'zod';
import { languages } from './constants.ts';
import { roles } from './roles.ts';
import { EmailSchema, StrongPasswordSchema } from './validation.ts';

export const LanguageSchema = z.enum(languages);
export const RoleSchema = z.enum(roles);

/**
 * "Remember me" (SPEC §3), sent by every call that starts a session: with it on, the refresh
 * token lasts `REFRESH_TOKEN_TTL_DAYS`; off or absent, only `SESSION_TTL_HOURS`.
 */
export const RememberSchema = z.boolean().optional();

export const SignInRequestSchema = z.object({
  email: EmailSchema,
  password: z.string().min(1).max(256),
  remember: RememberSchema,
});
export type SignInRequest = z.infer<typeof SignInRequestSchema>;

export const SignInResponseSchema = z.object({
  accessToken: z.string(),
  refreshToken: z.string(),
  role: RoleSchema,
  language: LanguageSchema,
});
export type SignInResponse = z.infer<typeof SignInResponseSchema>;

/**
 * The answer to a right password when the user has MFA on: no tokens yet, but a short-lived
 * challenge that `POST /auth/signin/mfa` (with a code) or `POST /settings/mfa/recover` (with a
 * recovery code) exchanges for a `SignInResponse`. See docs/decisions/0024-sign-in-with-mfa.md.
 */
export const MfaChallengeSchema = z.object({
  mfaRequired: z.literal(true),
  mfaToken: z.string(),
});
export type MfaChallenge = z.infer<typeof MfaChallengeSchema>;

/** What `POST /auth/signin` answers: a session, or the MFA challenge. */
export const SignInResultSchema = z.union([SignInResponseSchema, MfaChallengeSchema]);
export type SignInResult = z.infer<typeof SignInResultSchema>;

export const RefreshAccessTokenRequestSchema = z.object({
  refreshToken: z.string().min(1).max(512),
});
export type RefreshAccessTokenRequest = z.infer<typeof RefreshAccessTokenRequestSchema>;

/**
 * Each refresh token works once: the answer carries the one that replaces it. A developer token
 * does not rotate, so its answer has no `refreshToken`: echoing the long-lived secret back would
 * only put another copy of it in the caller's logs.
 */
export const RefreshAccessTokenResponseSchema = z.object({
  accessToken: z.string(),
  refreshToken: z.string().optional(),
});
export type RefreshAccessTokenResponse = z.infer<typeof RefreshAccessTokenResponseSchema>;

export const LogoutRequestSchema = z.object({ refreshToken: z.string().max(512).optional() });
export type LogoutRequest = z.infer<typeof LogoutRequestSchema>;

/**
 * A password reset or change may also revoke the developer tokens the user made: whoever knew
 * the old password may have made one, and it outlives every session.
 */
export const RevokeDeveloperTokensSchema = z.boolean().default(false);

/**
 * Settings → password. `refreshToken` is the caller's own, sent so that this session survives
 * the change while every other session of the user ends (see docs/decisions/0020-password-change.md).
 */
export const ChangePasswordRequestSchema = z.object({
  currentPassword: z.string().min(1).max(256),
  newPassword: StrongPasswordSchema,
  refreshToken: z.string().max(512).optional(),
  revokeDeveloperTokens: RevokeDeveloperTokensSchema,
});
export type ChangePasswordRequest = z.infer<typeof ChangePasswordRequestSchema>;

/** Every access token signed before the change is refused: the caller's session goes on with this one. */
export const ChangePasswordResponseSchema = z.object({ accessToken: z.string() });
export type ChangePasswordResponse = z.infer<typeof ChangePasswordResponseSchema>;
