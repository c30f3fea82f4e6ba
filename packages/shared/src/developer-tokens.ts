import { z } from 'zod';

// Developer tokens (SPEC §2 Settings, §9, DESIGN §6): refresh tokens for scripts, valid for
// DEVELOPER_TOKEN_YEARS, that do not rotate. See docs/decisions/0027-developer-tokens.md.

/** Every developer token starts with this, so it can be told apart, in a log or a leak scan, from a session's. */
export const DEVELOPER_TOKEN_PREFIX = 'rayo_dev_';

/** Active (not revoked, not expired) tokens an organization may hold at once. */
export const DEVELOPER_TOKEN_LIMIT = 10;

/**
 * What a token's access tokens may do, chosen when it is made (docs/security.md "Developer
 * tokens"): `checkouts` the store checkout API only, what a shop integration needs; `read-only`
 * every read of the organization; `full` everything its admin may do, except what only a person
 * does (their own password and MFA, developer tokens, managers' passwords).
 */
export const DEVELOPER_TOKEN_SCOPES = ['checkouts', 'read-only', 'full'] as const;
export const DeveloperTokenScopeSchema = z.enum(DEVELOPER_TOKEN_SCOPES);
export type DeveloperTokenScope = z.infer<typeof DeveloperTokenScopeSchema>;

/** A token as the list shows it: never the token itself, which is shown only once. */
export const DeveloperTokenSchema = z.object({
  id: z.string(),
  name: z.string().nullable(),
  scope: DeveloperTokenScopeSchema,
  createdAt: z.iso.datetime(),
  /** The last exchange for an access token; null while it was never used. */
  lastUsedAt: z.iso.datetime().nullable(),
  expiresAt: z.iso.datetime(),
});
export type DeveloperToken = z.infer<typeof DeveloperTokenSchema>;
export const DeveloperTokenListSchema = z.array(DeveloperTokenSchema);

/** The name is an optional label, e.g. the script that holds the token; the scope is the narrowest by default. */
export const CreateDeveloperTokenRequestSchema = z.object({
  name: z
    .string()
    .trim()
    .max(100)
    .optional()
    .transform((name) => name || undefined),
  scope: DeveloperTokenScopeSchema.default('checkouts'),
});
export type CreateDeveloperTokenRequest = z.infer<typeof CreateDeveloperTokenRequestSchema>;

/** The answer to a creation, the only one that carries the token. */
export const CreatedDeveloperTokenSchema = DeveloperTokenSchema.extend({ token: z.string() });
export type CreatedDeveloperToken = z.infer<typeof CreatedDeveloperTokenSchema>;
