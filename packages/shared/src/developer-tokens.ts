import { z } from 'zod';

// Developer tokens (SPEC §2 Settings, §9, DESIGN §6): refresh tokens for scripts, valid for
// DEVELOPER_TOKEN_YEARS, that do not rotate. See "Developer tokens" in docs/decisions.md.

/** Every developer token starts with this, so it can be told apart, in a log or a leak scan, from a session's. */
export const DEVELOPER_TOKEN_PREFIX = 'rayo_dev_';

/** Active (not revoked, not expired) tokens an organization may hold at once. */
export const DEVELOPER_TOKEN_LIMIT = 10;

/** A token as the list shows it: never the token itself, which is shown only once. */
export const DeveloperTokenSchema = z.object({
  id: z.string(),
  name: z.string().nullable(),
  createdAt: z.iso.datetime(),
  /** The last exchange for an access token; null while it was never used. */
  lastUsedAt: z.iso.datetime().nullable(),
  expiresAt: z.iso.datetime(),
});
export type DeveloperToken = z.infer<typeof DeveloperTokenSchema>;
export const DeveloperTokenListSchema = z.array(DeveloperTokenSchema);

/** The name is an optional label, e.g. the script that holds the token. */
export const CreateDeveloperTokenRequestSchema = z.object({
  name: z
    .string()
    .trim()
    .max(100)
    .optional()
    .transform((name) => name || undefined),
});
export type CreateDeveloperTokenRequest = z.infer<typeof CreateDeveloperTokenRequestSchema>;

/** The answer to a creation, the only one that carries the token. */
export const CreatedDeveloperTokenSchema = DeveloperTokenSchema.extend({ token: z.string() });
export type CreatedDeveloperToken = z.infer<typeof CreatedDeveloperTokenSchema>;
