import {
  CloseScheduleInputSchema,
  CloseScheduleListSchema,
  CloseScheduleSchema,
  DayCloseQuerySchema,
  DayCloseSchema,
  LanguageSchema,
} from '@rayo/shared';
import { z } from 'zod';
import type { Db, ReadDb } from '../../db/database.ts';
import type { Clock } from '../../domain/clock.ts';
import { callerOf } from '../../http/access.ts';
import type { App } from '../../http/app-type.ts';
import { createCloseSchedule, listCloseSchedulesOf, removeCloseSchedule } from './close-schedules.service.ts';
import { exportDayCloseCsv, exportDayClosePdf, getDayClose } from './day-close.service.ts';

// The PDF's language is the reader's, as the web app shows it.
const DayClosePdfQuerySchema = DayCloseQuerySchema.extend({ language: LanguageSchema.default('en') });

/** The close is read from `readDb`, the replica when there is one, like the dashboard. */
export function registerDayCloseRoutes(app: App, deps: { db: Db; readDb: ReadDb; clock: Clock }): void {
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

  app.get(
    '/api/close/pdf',
    {
      schema: {
        tags: ['dashboard'],
        summary: 'The end-of-day close of a local day as an A4 PDF, in English or Spanish',
        querystring: DayClosePdfQuerySchema,
        produces: ['application/pdf'],
      },
    },
    async (request, reply) => {
      const { language, ...query } = request.query;
      const pdf = await exportDayClosePdf(deps.db, deps.readDb, callerOf(request), query, language);
      return reply
        .type('application/pdf')
        .header('content-disposition', `attachment; filename="${pdf.filename}"`)
        .send(pdf.bytes);
    },
  );

  app.get(
    '/api/close/schedules',
    {
      schema: {
        tags: ['dashboard'],
        summary: "The organization's mailed close schedules",
        response: { 200: CloseScheduleListSchema },
      },
    },
    async (request) => listCloseSchedulesOf(deps.db, callerOf(request)),
  );

  app.post(
    '/api/close/schedules',
    {
      schema: {
        tags: ['dashboard'],
        summary: 'Has the close mailed to the caller at closing time, daily, weekly or monthly',
        body: CloseScheduleInputSchema,
        response: { 201: CloseScheduleSchema },
      },
    },
    async (request, reply) =>
      reply.status(201).send(await createCloseSchedule(callerOf(request), deps.db, request.body, deps.clock())),
  );

  app.delete(
    '/api/close/schedules/:id',
    { schema: { tags: ['dashboard'], summary: 'Stops a mailed close', params: z.object({ id: z.uuid() }) } },
    async (request, reply) => {
      await removeCloseSchedule(callerOf(request), deps.db, request.params.id);
      return reply.status(204).send();
    },
  );
}
