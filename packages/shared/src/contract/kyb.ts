import { KybDocumentListSchema } from '../kyb.ts';
import { adminRoles } from '../roles.ts';
import { defineCalls } from './call.ts';
import { IdParamsSchema } from './common.ts';

const tags = ['settings'];

/**
 * The organization's KYB documents (SPEC §2 Settings): its legal papers, so its admins only, not
 * its managers. The upload (multipart/form-data) and the download (the file's bytes) are not JSON
 * calls and are registered by hand in kyb.routes.ts.
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
