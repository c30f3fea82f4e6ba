import { HealthSchema, PublicConfigSchema, ReadinessSchema } from '../catalog.ts';
import { defineCalls } from './call.ts';

const tags = ['meta'];

/** The server's own state and the settings the web app reads before sign-in. */
export const metaCalls = defineCalls({
  'GET /api/health': {
    operationId: 'getHealth',
    tags,
    summary: 'Whether the process answers at all (liveness)',
    answer: HealthSchema,
    who: 'public',
    refusals: [],
  },
  'GET /api/ready': {
    operationId: 'getReadiness',
    tags,
    summary: 'Whether the server can take traffic (readiness)',
    description:
      'Refused with `ServiceUnavailable` while the server shuts down or cannot reach its database. A demo server also tells whether its demo sales are recorded yet.',
    answer: ReadinessSchema,
    who: 'public',
    refusals: ['ServiceUnavailable'],
  },
  'GET /api/public-config': {
    operationId: 'getPublicConfig',
    tags,
    summary: 'The settings the web app needs before sign-in: support address, devnet, Ecwid app',
    answer: PublicConfigSchema,
    who: 'public',
    refusals: [],
  },
});
