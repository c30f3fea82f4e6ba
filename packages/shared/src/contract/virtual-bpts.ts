import { adminRoles, organizationRoles } from '../roles.ts';
import { CreateVirtualBptRequestSchema, VirtualBptListSchema, VirtualBptSchema } from '../virtual-bpts.ts';
import { defineCalls } from './call.ts';
import { IdParamsSchema } from './common.ts';

const tags = ['virtual-bpts'];

/** Virtual BPTs (SPEC §5): what payment links, stores and donations sell through, each on a BPT. */
export const virtualBptCalls = defineCalls({
  'GET /api/virtual-bpts': {
    operationId: 'listVirtualBpts',
    tags,
    summary: "The organization's virtual BPTs; a manager's, those of their linked accounts",
    answer: VirtualBptListSchema,
    who: organizationRoles,
    refusals: [],
  },
  'POST /api/virtual-bpts': {
    operationId: 'createVirtualBpt',
    tags,
    summary: "Creates a virtual BPT selling through one of the organization's BPTs",
    body: CreateVirtualBptRequestSchema,
    answer: VirtualBptSchema,
    statuses: [201],
    who: adminRoles,
    scope: { param: 'bptId', within: 'organization', outside: 400 },
    refusals: ['BptRequired'],
  },
  'DELETE /api/virtual-bpts/:id': {
    operationId: 'deleteVirtualBpt',
    tags,
    summary: 'Deletes a virtual BPT',
    params: IdParamsSchema,
    who: adminRoles,
    scope: { param: 'id', within: 'organization' },
    refusals: [],
  },
});
