import {
  CreateDeveloperTokenRequestSchema,
  CreatedDeveloperTokenSchema,
  DeveloperTokenListSchema,
  MFA_CODE_HEADER,
} from '@rayo/shared';
import { z } from 'zod';
import { callerOf } from '../../http/access.ts';
import type { App } from '../../http/app-type.ts';
import { requireMfaCode } from '../../http/mfa-code.ts';
import type { RateLimitDeps } from '../../http/rate-limit.ts';
import type { MfaDeps } from '../mfa/mfa-codes.ts';
import { createDeveloperToken, listDeveloperTokens, revokeDeveloperToken } from './developer-tokens.service.ts';

const tags = ['settings'];

export function registerDeveloperTokenRoutes(app: App, deps: MfaDeps & RateLimitDeps): void {
  app.get(
    '/api/settings/developer-tokens',
    {
      schema: {
        tags,
        summary: "The organization's developer tokens that still work, without the tokens themselves",
        response: { 200: DeveloperTokenListSchema },
      },
    },
    async (request) => listDeveloperTokens(deps.db, callerOf(request)),
  );

  app.post(
    '/api/settings/developer-tokens',
    {
      preHandler: requireMfaCode(deps),
      schema: {
        tags,
        summary: `Creates a developer token, answered this once; with MFA on, needs a code in the ${MFA_CODE_HEADER} header. Exchange it at POST /api/auth/refresh-access-token`,
        body: CreateDeveloperTokenRequestSchema,
        response: { 201: CreatedDeveloperTokenSchema },
      },
    },
    async (request, reply) =>
      reply.status(201).send(await createDeveloperToken(callerOf(request), deps.db, request.body)),
  );

  app.delete(
    '/api/settings/developer-tokens/:id',
    {
      schema: {
        tags,
        summary: 'Revokes a developer token: its next exchange is refused',
        params: z.object({ id: z.uuid() }),
      },
    },
    async (request, reply) => {
      await revokeDeveloperToken(callerOf(request), deps.db, request.params.id);
      return reply.status(204).send();
    },
  );
}
