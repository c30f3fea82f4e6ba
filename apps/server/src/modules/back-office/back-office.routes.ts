import type { Db, ReadDb } from '../../db/database.ts';
import { callerOf } from '../../http/access.ts';
import type { App } from '../../http/app-type.ts';
import { registerCall } from '../../http/contract.ts';
import { sendCsvStream, sendStoredDocument } from '../../http/upload.ts';
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

/**
 * SPEC §7 `/back-office/*`: organizations, their verification and blocking, notifications, the
 * audit log.
 */
export function registerBackOfficeRoutes(app: App, deps: { db: Db; readDb: ReadDb }): void {
  const { db, readDb } = deps;

  registerCall(app, 'GET /api/back-office/organizations', async (request) => listOrganizations(db, request.query));

  registerCall(app, 'GET /api/back-office/organization/:id/admin', async (request) =>
    getOrganizationAdminRecord(db, request.params.id),
  );

  registerCall(app, 'PUT /api/back-office/organization/:id/verification', async (request) =>
    setVerification(callerOf(request), db, request.params.id, request.body),
  );

  registerCall(app, 'PUT /api/back-office/organization/:id/blocked', async (request) =>
    setBlocked(callerOf(request), db, request.params.id, request.body),
  );

  registerCall(app, 'GET /api/back-office/organization/:id/kyb-documents/:documentId', async (request, reply) => {
    const { id, documentId } = request.params;
    const document = await downloadOrganizationKybDocument(callerOf(request), db, id, documentId);
    return sendStoredDocument(reply, document);
  });

  registerCall(app, 'GET /api/back-office/notification', async (request) => listNotifications(db, request.query));

  registerCall(app, 'DELETE /api/back-office/notification/:id', async (request) =>
    deleteNotification(callerOf(request), db, request.params.id),
  );

  registerCall(app, 'GET /api/back-office/audit/csv', async (request, reply) => {
    return sendCsvStream(reply, await exportAuditCsv(callerOf(request), db, readDb, request.query));
  });
}
