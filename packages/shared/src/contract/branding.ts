import { z } from 'zod';
import { BrandingSchema, LOGO_MAX_BYTES, LOGO_TYPES, SetAccentColorRequestSchema } from '../branding.ts';
import { adminRoles, organizationRoles } from '../roles.ts';
import { defineCalls } from './call.ts';
import { IdParamsSchema } from './common.ts';

const tags = ['settings'];

/** `v`, a prefix of the logo's hash: the address of the current logo (`logoUrl`), which never changes. */
const LogoQuerySchema = z.object({ v: z.string().max(64).optional() });

/** The organization's branding on its public pages (SPEC §2 Settings), and its logo there. */
export const brandingCalls = defineCalls({
  'GET /api/settings/branding': {
    operationId: 'getBranding',
    tags,
    summary: "The organization's logo and accent colour",
    answer: BrandingSchema,
    who: organizationRoles,
    refusals: [],
  },
  'PUT /api/settings/branding': {
    operationId: 'setAccentColor',
    tags,
    summary: 'Sets the accent colour (#rrggbb) of the public pages, or null for the default',
    body: SetAccentColorRequestSchema,
    answer: BrandingSchema,
    who: adminRoles,
    refusals: [],
  },
  'PUT /api/settings/branding/logo': {
    operationId: 'uploadLogo',
    tags,
    summary: 'Replaces the logo with a PNG or JPEG',
    description:
      'multipart/form-data with one field `file`, nothing else; the type is read from the bytes, and SVG is refused (`InvalidFileType`).',
    upload: { mediaTypes: LOGO_TYPES, maxBytes: LOGO_MAX_BYTES },
    answer: BrandingSchema,
    who: adminRoles,
    refusals: ['MissingFile', 'FileTooLarge', 'InvalidFileType'],
  },
  'GET /api/public/organizations/:id/logo': {
    operationId: 'getPublicLogo',
    tags: ['public'],
    summary: "An organization's logo, for its public pages",
    description:
      'The image as uploaded. Its `logoUrl` (with `v`, the hash) is cached for a year; any other address for 5 minutes. 404 when the organization has no logo.',
    params: IdParamsSchema,
    query: LogoQuerySchema,
    file: { mediaType: LOGO_TYPES },
    who: 'public',
    refusals: ['NotFound'],
  },
  'DELETE /api/settings/branding/logo': {
    operationId: 'removeLogo',
    tags,
    summary: 'Removes the logo',
    answer: BrandingSchema,
    who: adminRoles,
    refusals: [],
  },
});
