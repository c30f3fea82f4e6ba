import type { Db } from '../../db/database.ts';
import { callerOf } from '../../http/access.ts';
import type { App } from '../../http/app-type.ts';
import { registerCall } from '../../http/contract.ts';
import { changeLanguage } from './language.service.ts';

export function registerLanguageRoutes(app: App, deps: { db: Db }): void {
  registerCall(app, 'PUT /api/settings/language', async (request) =>
    changeLanguage(callerOf(request), deps.db, request.body.language),
  );
}
