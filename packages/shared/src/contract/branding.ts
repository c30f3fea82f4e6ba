import { BrandingSchema, LOGO_MAX_BYTES, LOGO_TYPES, SetAccentColorRequestSchema } from '../branding.ts';
import { adminRoles, organizationRoles } from '../roles.ts';
import { defineCalls } from './call.ts';

const tags = ['settings'];

/**
 * The organization's branding on its public pages (SPEC §2 Settings). The public logo (the
 * image's bytes, answering 304 to its ETag) is registered by hand in branding.routes.ts.
 */
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
  'DELETE /api/settings/branding/logo': {
    operationId: 'removeLogo',
    tags,
    summary: 'Removes the logo',
    answer: BrandingSchema,
    who: adminRoles,
    refusals: [],
  },
});
