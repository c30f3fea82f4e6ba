import { KYB_MAX_BYTES } from '@rayo/shared';
import type { Db } from '../../db/database.ts';
import { callerOf } from '../../http/access.ts';
import type { App } from '../../http/app-type.ts';
import { registerCall } from '../../http/contract.ts';
import { readSingleUpload, sendStoredDocument } from '../../http/upload.ts';
import { deleteKybDocument, downloadKybDocument, listKybDocuments, uploadKybDocument } from './kyb.service.ts';

export function registerKybRoutes(app: App, deps: { db: Db }): void {
  const { db } = deps;

  registerCall(app, 'GET /api/settings/kyb-documents', async (request) => listKybDocuments(db, callerOf(request)));

  registerCall(app, 'GET /api/settings/kyb-documents/:id', async (request, reply) => {
    const document = await downloadKybDocument(db, callerOf(request), request.params.id);
    return sendStoredDocument(reply, document);
  });

  registerCall(app, 'DELETE /api/settings/kyb-documents/:id', async (request) =>
    deleteKybDocument(callerOf(request), db, request.params.id),
  );

  registerCall(app, 'POST /api/settings/kyb-documents', async (request) => {
    const caller = callerOf(request);
    const upload = await readSingleUpload(request, KYB_MAX_BYTES);
    return uploadKybDocument(caller, db, upload);
  });
}
