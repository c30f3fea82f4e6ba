import { z } from 'zod';
import { LanguageSchema, RememberSchema, RevokeDeveloperTokensSchema } from './auth.ts';
import { CurrencyCodeSchema } from './payments.ts';
import { EmailSchema, StrongPasswordSchema } from './validation.ts';

/** `language` is the one the visitor used on the sign-up screen; mail is written in it. */
export const SignUpRequestSchema = z.object({
  email: EmailSchema,
  password: StrongPasswordSchema,
  language: LanguageSchema.default('en'),
});
export type SignUpRequest = z.input<typeof SignUpRequestSchema>;

/**
 * The code of the emailed confirmation link, and the password typed on the page it opens: the
 * one that counts, since anyone can make the address mail a link (docs/security.md).
 */
export const ConfirmEmailRequestSchema = z.object({
  code: z.string().trim().min(1).max(128),
  password: StrongPasswordSchema,
  remember: RememberSchema,
});
export type ConfirmEmailRequest = z.infer<typeof ConfirmEmailRequestSchema>;

export const OnboardRequestSchema = z.object({
  name: z.string().trim().min(1).max(120),
  countryCode: z
    .string()
    .trim()
    .toUpperCase()
    .regex(/^[A-Z]{2}$/),
  language: LanguageSchema,
  currency: CurrencyCodeSchema,
});
export type OnboardRequest = z.infer<typeof OnboardRequestSchema>;

/** A new access token: the one the caller holds names no organization. */
export const OnboardResponseSchema = z.object({ organizationId: z.string(), accessToken: z.string() });
export type OnboardResponse = z.infer<typeof OnboardResponseSchema>;

export const ForgotPasswordRequestSchema = z.object({ email: EmailSchema });
export type ForgotPasswordRequest = z.infer<typeof ForgotPasswordRequestSchema>;

export const RESET_CODE_LENGTH = 6;

export const ConfirmForgotPasswordRequestSchema = z.object({
  email: EmailSchema,
  code: z
    .string()
    .trim()
    .regex(new RegExp(`^[0-9]{${RESET_CODE_LENGTH}}$`)),
  password: StrongPasswordSchema,
  revokeDeveloperTokens: RevokeDeveloperTokensSchema,
});
export type ConfirmForgotPasswordRequest = z.infer<typeof ConfirmForgotPasswordRequestSchema>;
