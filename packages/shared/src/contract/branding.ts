import { BrandingSchema, SetAccentColorRequestSchema } from '../branding.ts';
import { adminRoles, organizationRoles } from '../roles.ts';
import { defineCalls } from './call.ts';

const tags = ['settings'];

/**
 * The organization's branding on its public pages (SPEC §2 Settings). The logo's upload
 * (multipart/form-data) and its public download (the image's bytes) are not JSON calls and are
 * registered by hand in branding.routes.ts.
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
  'DELETE /api/settings/branding/logo': {
    operationId: 'removeLogo',
    tags,
    summary: 'Removes the logo',
    answer: BrandingSchema,
    who: adminRoles,
    refusals: [],
  },
});
