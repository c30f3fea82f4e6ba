import { UpdateLanguageRequestSchema } from '@rayo/shared';
import type { Db } from '../../db/database.ts';
import { callerOf } from '../../http/access.ts';
import type { App } from '../../http/app-type.ts';
import { changeLanguage } from './language.service.ts';

export function registerLanguageRoutes(app: App, deps: { db: Db }): void {
  app.put(
    '/api/settings/language',
    {
      schema: {
        tags: ['settings'],
        summary: "Sets the caller's language, which sign-in answers from then on",
        body: UpdateLanguageRequestSchema,
      },
    },
    async (request, reply) => {
      await changeLanguage(callerOf(request), deps.db, request.body.language);
      return reply.status(204).send();
    },
  );
}
