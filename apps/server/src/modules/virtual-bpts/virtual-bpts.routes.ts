import { CreateVirtualBptRequestSchema, VirtualBptListSchema, VirtualBptSchema } from '@rayo/shared';
import { z } from 'zod';
import type { Db } from '../../db/database.ts';
import { callerOf } from '../../http/access.ts';
import type { App } from '../../http/app-type.ts';
import { createVirtualBpt, deleteVirtualBpt, listVirtualBpts } from './virtual-bpts.service.ts';

const IdParamsSchema = z.object({ id: z.uuid() });

export function registerVirtualBptRoutes(app: App, deps: { db: Db }): void {
  const { db } = deps;

  app.get(
    '/api/virtual-bpts',
    { schema: { tags: ['virtual-bpts'], response: { 200: VirtualBptListSchema } } },
    async (request) => listVirtualBpts(db, callerOf(request)),
  );

  app.post(
    '/api/virtual-bpts',
    { schema: { tags: ['virtual-bpts'], body: CreateVirtualBptRequestSchema, response: { 201: VirtualBptSchema } } },
    async (request, reply) => reply.status(201).send(await createVirtualBpt(db, callerOf(request), request.body)),
  );

  app.delete(
    '/api/virtual-bpts/:id',
    { schema: { tags: ['virtual-bpts'], params: IdParamsSchema } },
    async (request, reply) => {
      await deleteVirtualBpt(db, callerOf(request), request.params.id);
      return reply.status(204).send();
    },
  );
}
