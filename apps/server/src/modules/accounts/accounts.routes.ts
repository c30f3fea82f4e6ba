import {
  AccountListSchema,
  AccountSchema,
  AccountSummaryListSchema,
  CreateAccountRequestSchema,
  UpdateAccountRequestSchema,
} from '@rayo/shared';
import { z } from 'zod';
import type { Db } from '../../db/database.ts';
import { callerOf } from '../../http/access.ts';
import type { App } from '../../http/app-type.ts';
import {
  createAccount,
  deleteAccount,
  listAccountDetails,
  listVisibleAccounts,
  updateAccount,
} from './accounts.service.ts';

const IdParamsSchema = z.object({ id: z.uuid() });

export function registerAccountRoutes(app: App, deps: { db: Db }): void {
  app.get(
    '/api/account/all',
    { schema: { tags: ['accounts'], response: { 200: AccountSummaryListSchema } } },
    async (request) => listVisibleAccounts(deps.db, callerOf(request)),
  );

  app.get('/api/accounts', { schema: { tags: ['accounts'], response: { 200: AccountListSchema } } }, async (request) =>
    listAccountDetails(deps.db, callerOf(request)),
  );

  app.post(
    '/api/accounts',
    {
      schema: { tags: ['accounts'], body: CreateAccountRequestSchema, response: { 201: AccountSchema } },
    },
    async (request, reply) => reply.status(201).send(await createAccount(deps.db, callerOf(request), request.body)),
  );

  app.patch(
    '/api/accounts/:id',
    {
      schema: {
        tags: ['accounts'],
        params: IdParamsSchema,
        body: UpdateAccountRequestSchema,
        response: { 200: AccountSchema },
      },
    },
    async (request) => updateAccount(deps.db, callerOf(request), request.params.id, request.body),
  );

  app.delete(
    '/api/accounts/:id',
    { schema: { tags: ['accounts'], params: IdParamsSchema } },
    async (request, reply) => {
      await deleteAccount(deps.db, callerOf(request), request.params.id);
      return reply.status(204).send();
    },
  );
}
