import { z } from 'zod';

// KYB documents (SPEC §2 Settings "KYB file upload"): the papers back office verifies an
// organization with. The limits are shared so that the settings screen refuses what the server would.

/** The largest document accepted, in bytes. */
export const KYB_MAX_BYTES = 10 * 1024 * 1024;

/** How many documents an organization may keep at once. */
export const KYB_MAX_FILES = 20;

export const KYB_TYPES = ['application/pdf', 'image/png', 'image/jpeg'] as const;
export type KybType = (typeof KYB_TYPES)[number];

export const KybDocumentSchema = z.object({
  id: z.string(),
  fileName: z.string(),
  contentType: z.enum(KYB_TYPES),
  size: z.number().int(),
  sha256: z.string(),
  createdAt: z.iso.datetime(),
});
export type KybDocument = z.infer<typeof KybDocumentSchema>;

export const KybDocumentListSchema = z.array(KybDocumentSchema);
