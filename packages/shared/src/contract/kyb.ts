import { KYB_MAX_BYTES, KYB_TYPES, KybDocumentListSchema, KybDocumentSchema } from '../kyb.ts';
import { adminRoles } from '../roles.ts';
import { defineCalls } from './call.ts';
import { IdParamsSchema } from './common.ts';

const tags = ['settings'];

/**
 * The organization's KYB documents (SPEC §2 Settings): its legal papers, so its admins only, not
 * its managers.
 */
export const kybCalls = defineCalls({
  'GET /api/settings/kyb-documents': {
    operationId: 'listKybDocuments',
    tags,
    summary: "The organization's KYB documents",
    answer: KybDocumentListSchema,
    who: adminRoles,
    refusals: [],
  },
  'POST /api/settings/kyb-documents': {
    operationId: 'uploadKybDocument',
    tags,
    summary: 'Uploads one KYB document (a PDF, PNG or JPEG); KYB goes back to unverified',
    description:
      'multipart/form-data with one field `file`, nothing else; the type is read from the bytes (`InvalidFileType`). `TooManyFiles` once the organization keeps the most documents it may.',
    upload: { mediaTypes: KYB_TYPES, maxBytes: KYB_MAX_BYTES },
    answer: KybDocumentSchema,
    statuses: [201],
    who: adminRoles,
    refusals: ['MissingFile', 'FileTooLarge', 'InvalidFileType', 'TooManyFiles'],
  },
  'GET /api/settings/kyb-documents/:id': {
    operationId: 'downloadKybDocument',
    tags,
    summary: 'Downloads a KYB document of the organization',
    description:
      'The bytes as uploaded, in their type, to be saved: never shown in our origin (`nosniff`, a sandboxing CSP, no caching).',
    params: IdParamsSchema,
    file: { mediaType: KYB_TYPES, disposition: 'attachment' },
    who: adminRoles,
    scope: { param: 'id', within: 'organization' },
    refusals: [],
  },
  'DELETE /api/settings/kyb-documents/:id': {
    operationId: 'deleteKybDocument',
    tags,
    summary: 'Deletes a KYB document of the organization; KYB goes back to unverified',
    params: IdParamsSchema,
    who: adminRoles,
    scope: { param: 'id', within: 'organization' },
    refusals: [],
  },
});
