import {
  AuditCsvQuerySchema,
  BackOfficeNotificationPageSchema,
  BackOfficeOrganizationPageSchema,
  BackOfficeOrganizationsQuerySchema,
  BlockedRequestSchema,
  KybDocumentParamsSchema,
  NotificationIdParamsSchema,
  NotificationQuerySchema,
  OrganizationAdminRecordSchema,
  OrganizationIdParamsSchema,
  VerificationRequestSchema,
} from '@rayo/shared';
import type { Db, ReadDb } from '../../db/database.ts';
import { callerOf } from '../../http/access.ts';
import type { App } from '../../http/app-type.ts';
import { attachmentDisposition } from '../../http/upload.ts';
import {
  deleteNotification,
  downloadOrganizationKybDocument,
  exportAuditCsv,
  getOrganizationAdminRecord,
  listNotifications,
  listOrganizations,
  setBlocked,
  setVerification,
} from './back-office.service.ts';

const tags = ['back-office'];

/** SPEC §7 `/back-office/*`: organizations, their verification and blocking, notifications, the audit log. */
export function registerBackOfficeRoutes(app: App, deps: { db: Db; readDb: ReadDb }): void {
  const { db, readDb } = deps;

  app.get(
    '/api/back-office/organizations',
    {
      schema: {
        tags,
        summary: 'Organizations by name: search (name or id prefix), country (-1 = all), page, limit',
        querystring: BackOfficeOrganizationsQuerySchema,
        response: { 200: BackOfficeOrganizationPageSchema },
      },
    },
    async (request) => listOrganizations(db, request.query),
  );

  app.get(
    '/api/back-office/organization/:id/admin',
    {
      schema: {
        tags,
        summary: 'The organization admin record',
        params: OrganizationIdParamsSchema,
        response: { 200: OrganizationAdminRecordSchema },
      },
    },
    async (request) => getOrganizationAdminRecord(db, request.params.id),
  );

  app.put(
    '/api/back-office/organization/:id/verification',
    {
      schema: {
        tags,
        summary:
          'Verifies or invalidates one field (bank, crypto, disbursementAddress, conversionAddress, kyb); a field with nothing entered cannot be verified',
        params: OrganizationIdParamsSchema,
        body: VerificationRequestSchema,
        response: { 200: OrganizationAdminRecordSchema },
      },
    },
    async (request) => setVerification(callerOf(request), db, request.params.id, request.body),
  );

  app.put(
    '/api/back-office/organization/:id/blocked',
    {
      schema: {
        tags,
        summary: 'Blocks (no invoice creation) or unblocks the organization',
        params: OrganizationIdParamsSchema,
        body: BlockedRequestSchema,
        response: { 200: OrganizationAdminRecordSchema },
      },
    },
    async (request) => setBlocked(callerOf(request), db, request.params.id, request.body),
  );

  app.get(
    '/api/back-office/organization/:id/kyb-documents/:documentId',
    { schema: { tags, summary: 'Downloads a KYB document of the organization', params: KybDocumentParamsSchema } },
    async (request, reply) => {
      const { id, documentId } = request.params;
      const document = await downloadOrganizationKybDocument(callerOf(request), db, id, documentId);
      // As in Settings: a document is only ever saved, never shown in our origin.
      return reply
        .header('content-type', document.contentType)
        .header('content-disposition', attachmentDisposition(document.fileName))
        .header('x-content-type-options', 'nosniff')
        .header('content-security-policy', "default-src 'none'; sandbox")
        .header('cache-control', 'private, no-store')
        .send(document.bytes);
    },
  );

  app.get(
    '/api/back-office/notification',
    {
      schema: {
        tags,
        summary: 'Notifications, newest first',
        querystring: NotificationQuerySchema,
        response: { 200: BackOfficeNotificationPageSchema },
      },
    },
    async (request) => listNotifications(db, request.query),
  );

  app.delete(
    '/api/back-office/notification/:id',
    { schema: { tags, summary: 'Deletes a notification', params: NotificationIdParamsSchema } },
    async (request, reply) => {
      await deleteNotification(callerOf(request), db, request.params.id);
      return reply.status(204).send();
    },
  );

  app.get(
    '/api/back-office/audit/csv',
    {
      schema: {
        tags,
        summary: 'The audit log of [start, end) (unix seconds, at most a year) as CSV, streamed',
        querystring: AuditCsvQuerySchema,
        produces: ['text/csv'],
      },
    },
    async (request, reply) => {
      const csv = await exportAuditCsv(callerOf(request), db, readDb, request.query);
      reply.raw.on('close', () => {
        if (!csv.stream.readableEnded) csv.stream.destroy();
      });
      return reply
        .type('text/csv; charset=utf-8')
        .header('content-disposition', `attachment; filename="${csv.filename}"`)
        .send(csv.stream);
    },
  );
}
