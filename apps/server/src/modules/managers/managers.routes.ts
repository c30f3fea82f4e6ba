import { CreateManagerRequestSchema, ManagerListSchema, ManagerSchema, UpdateManagerRequestSchema } from '@rayo/shared';
import { z } from 'zod';
import type { App } from '../../app.ts';
import type { Db } from '../../db/database.ts';
import { callerOf } from '../../http/access.ts';
import { createManager, deleteManager, listManagers, updateManager } from './managers.service.ts';

const IdParamsSchema = z.object({ id: z.uuid() });

export function registerManagerRoutes(app: App, deps: { db: Db }): void {
  app.get('/api/managers', { schema: { tags: ['managers'], response: { 200: ManagerListSchema } } }, async (request) =>
    listManagers(deps.db, callerOf(request)),
  );

  app.post(
    '/api/managers',
    {
      schema: { tags: ['managers'], body: CreateManagerRequestSchema, response: { 201: ManagerSchema } },
    },
    async (request, reply) =>
      reply.status(201).send(await createManager(deps.db, callerOf(request), request.body, request.ip)),
  );

  app.patch(
    '/api/managers/:id',
    {
      schema: {
        tags: ['managers'],
        params: IdParamsSchema,
        body: UpdateManagerRequestSchema,
        response: { 200: ManagerSchema },
      },
    },
    async (request) => updateManager(deps.db, callerOf(request), request.params.id, request.body, request.ip),
  );

  app.delete(
    '/api/managers/:id',
    { schema: { tags: ['managers'], params: IdParamsSchema } },
    async (request, reply) => {
      await deleteManager(deps.db, callerOf(request), request.params.id, request.ip);
      return reply.status(204).send();
    },
  );
}
