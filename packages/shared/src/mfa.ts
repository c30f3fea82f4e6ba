import { z } from 'zod';
import { RememberSchema } from './auth.ts';

// Multi-factor authentication (SPEC §7 `/settings/mfa/*`, DESIGN §6): TOTP with single-use
// recovery codes. The wire formats below are shared by the server's routes and the web app; the
// codes' header and shape are in mfa-code.ts.

/**
 * SPEC §3 "MFA config", and `required`: the platform makes the caller turn MFA on before anything
 * else (back office with BACKOFFICE_MFA_REQUIRED).
 */
export const MfaStatusSchema = z.object({ hasMfa: z.boolean(), required: z.boolean() });
export type MfaStatus = z.infer<typeof MfaStatusSchema>;

/** Shown once, when MFA is being turned on; the server keeps the codes only as hashes. */
export const MfaEnrollmentSchema = z.object({
  /** Base32, for typing into an authenticator app by hand. */
  secret: z.string(),
  otpauthUri: z.string(),
  recoveryCodes: z.array(z.string()),
});
export type MfaEnrollment = z.infer<typeof MfaEnrollmentSchema>;

// Codes are only bounded here; whether one is right is the server's answer (`WrongMfaCode`),
// so a mistyped code and a wrong one fail alike.
const CodeSchema = z.string().trim().min(1).max(64);
const MfaTokenSchema = z.string().min(1).max(2048);

export const ValidateMfaRequestSchema = z.object({ code: CodeSchema });
export type ValidateMfaRequest = z.infer<typeof ValidateMfaRequestSchema>;

export const MfaSignInRequestSchema = z.object({
  mfaToken: MfaTokenSchema,
  code: CodeSchema,
  remember: RememberSchema,
});
export type MfaSignInRequest = z.infer<typeof MfaSignInRequestSchema>;

export const RecoverMfaRequestSchema = z.object({
  mfaToken: MfaTokenSchema,
  recoveryCode: CodeSchema,
  remember: RememberSchema,
});
export type RecoverMfaRequest = z.infer<typeof RecoverMfaRequestSchema>;
