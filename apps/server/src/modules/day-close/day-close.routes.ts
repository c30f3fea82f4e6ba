import { DayCloseQuerySchema, DayCloseSchema } from '@rayo/shared';
import type { Db, ReadDb } from '../../db/database.ts';
import { callerOf } from '../../http/access.ts';
import type { App } from '../../http/app-type.ts';
import { exportDayCloseCsv, getDayClose } from './day-close.service.ts';

/** The close is read from `readDb`, the replica when there is one, like the dashboard. */
export function registerDayCloseRoutes(app: App, deps: { db: Db; readDb: ReadDb }): void {
  app.get(
    '/api/close',
    {
      schema: {
        tags: ['dashboard'],
        summary: 'The end-of-day close of a local day: totals by account, terminal, payment method and hour',
        querystring: DayCloseQuerySchema,
        response: { 200: DayCloseSchema },
      },
    },
    async (request) => getDayClose(deps.db, deps.readDb, callerOf(request), request.query),
  );

  app.get(
    '/api/close/csv',
    {
      schema: {
        tags: ['dashboard'],
        summary: 'The end-of-day close of a local day as CSV (RFC 4180, header row)',
        querystring: DayCloseQuerySchema,
        produces: ['text/csv'],
      },
    },
    async (request, reply) => {
      const csv = await exportDayCloseCsv(deps.db, deps.readDb, callerOf(request), request.query);
      return reply
        .type('text/csv; charset=utf-8')
        .header('content-disposition', `attachment; filename="${csv.filename}"`)
        .send(csv.text);
    },
  );
}
