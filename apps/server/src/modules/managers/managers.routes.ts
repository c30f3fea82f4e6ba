import {
  CreateManagerRequestSchema,
  ManagerListSchema,
  ManagerSchema,
  MFA_CODE_HEADER,
  UpdateManagerRequestSchema,
} from '@rayo/shared';
import { z } from 'zod';
import { callerOf } from '../../http/access.ts';
import type { App } from '../../http/app-type.ts';
import { checkMfaCode, requireMfaCode } from '../../http/mfa-code.ts';
import { enforceRateLimit, type RateLimitDeps, type RateLimitRule } from '../../http/rate-limit.ts';
import type { MfaDeps } from '../mfa/mfa-codes.ts';
import { createManager, deleteManager, listManagers, updateManager } from './managers.service.ts';

const IdParamsSchema = z.object({ id: z.uuid() });

/**
 * Each new manager and each password set for one costs a scrypt hash, so an admin (or a stolen
 * admin session) gets a budget of them rather than a lever on the server's CPU.
 */
const managerPasswords: RateLimitRule = { name: 'manager-passwords', limit: 30, windowSeconds: 60 * 60 };

/**
 * Creating a manager, or setting one's password, hands the organization to whoever knows that
 * password, for as long as the manager exists: with MFA on it needs the `mfa-code` header, as
 * the other sensitive changes do (DESIGN §6).
 */
export function registerManagerRoutes(app: App, deps: MfaDeps & RateLimitDeps): void {
  app.get('/api/managers', { schema: { tags: ['managers'], response: { 200: ManagerListSchema } } }, async (request) =>
    listManagers(deps.db, callerOf(request)),
  );

  app.post(
    '/api/managers',
    {
      preHandler: requireMfaCode(deps),
      schema: {
        tags: ['managers'],
        summary: `Creates a manager with the password the admin chooses; with MFA on, needs a code in the ${MFA_CODE_HEADER} header`,
        body: CreateManagerRequestSchema,
        response: { 201: ManagerSchema },
      },
    },
    async (request, reply) => {
      const caller = callerOf(request);
      await enforceRateLimit(deps, reply, managerPasswords, caller.userId);
      return reply.status(201).send(await createManager(caller, deps.db, request.body));
    },
  );

  app.patch(
    '/api/managers/:id',
    {
      schema: {
        tags: ['managers'],
        summary: `Changes a manager; setting the password needs, with MFA on, a code in the ${MFA_CODE_HEADER} header`,
        params: IdParamsSchema,
        body: UpdateManagerRequestSchema,
        response: { 200: ManagerSchema },
      },
    },
    async (request, reply) => {
      const caller = callerOf(request);
      if (request.body.password !== undefined) {
        await checkMfaCode(deps, request, reply);
        await enforceRateLimit(deps, reply, managerPasswords, caller.userId);
      }
      return updateManager(caller, deps.db, request.params.id, request.body);
    },
  );

  app.delete(
    '/api/managers/:id',
    { schema: { tags: ['managers'], params: IdParamsSchema } },
    async (request, reply) => {
      await deleteManager(callerOf(request), deps.db, request.params.id);
      return reply.status(204).send();
    },
  );
}
