import type { Db, ReadDb } from '../../db/database.ts';
import type { Clock } from '../../domain/clock.ts';
import { callerOf } from '../../http/access.ts';
import type { App } from '../../http/app-type.ts';
import { registerCall } from '../../http/contract.ts';
import { createCloseSchedule, listCloseSchedulesOf, removeCloseSchedule } from './close-schedules.service.ts';
import { exportDayCloseCsv, exportDayClosePdf, getDayClose } from './day-close.service.ts';

/** The close is read from `readDb`, the replica when there is one, like the dashboard. */
export function registerDayCloseRoutes(app: App, deps: { db: Db; readDb: ReadDb; clock: Clock }): void {
  registerCall(app, 'GET /api/close', async (request) =>
    getDayClose(deps.db, deps.readDb, callerOf(request), request.query),
  );

  registerCall(app, 'GET /api/close/csv', async (request, reply) => {
    const csv = await exportDayCloseCsv(deps.db, deps.readDb, callerOf(request), request.query);
    return reply
      .type('text/csv; charset=utf-8')
      .header('content-disposition', `attachment; filename="${csv.filename}"`)
      .send(csv.text);
  });

  registerCall(app, 'GET /api/close/pdf', async (request, reply) => {
    const { language, ...query } = request.query;
    const pdf = await exportDayClosePdf(deps.db, deps.readDb, callerOf(request), query, language);
    return reply
      .type('application/pdf')
      .header('content-disposition', `attachment; filename="${pdf.filename}"`)
      .send(pdf.bytes);
  });

  registerCall(app, 'GET /api/close/schedules', async (request) => listCloseSchedulesOf(deps.db, callerOf(request)));

  registerCall(app, 'POST /api/close/schedules', async (request) =>
    createCloseSchedule(callerOf(request), deps.db, request.body, deps.clock()),
  );

  registerCall(app, 'DELETE /api/close/schedules/:id', async (request) =>
    removeCloseSchedule(callerOf(request), deps.db, request.params.id),
  );
}
