import { LOGO_MAX_BYTES } from '@rayo/shared';
import type { Db } from '../../db/database.ts';
import { callerOf } from '../../http/access.ts';
import type { App } from '../../http/app-type.ts';
import { registerCall } from '../../http/contract.ts';
import { readSingleUpload } from '../../http/upload.ts';
import { getBranding, getPublicLogo, removeLogo, setAccentColor, uploadLogo } from './branding.service.ts';

export function registerBrandingRoutes(app: App, deps: { db: Db }): void {
  const { db } = deps;

  registerCall(app, 'GET /api/settings/branding', async (request) => getBranding(db, callerOf(request)));

  registerCall(app, 'PUT /api/settings/branding', async (request) =>
    setAccentColor(callerOf(request), db, request.body),
  );

  registerCall(app, 'DELETE /api/settings/branding/logo', async (request) => removeLogo(callerOf(request), db));

  registerCall(app, 'PUT /api/settings/branding/logo', async (request) => {
    const caller = callerOf(request);
    const upload = await readSingleUpload(request, LOGO_MAX_BYTES);
    return uploadLogo(caller, db, upload);
  });

  registerCall(app, 'GET /api/public/organizations/:id/logo', async (request, reply) => {
    const logo = await getPublicLogo(db, request.params.id);
    const etag = `"${logo.sha256}"`;
    // The address of the current logo names its hash (`logoUrl`), so that one never changes.
    const current =
      request.query.v !== undefined && logo.sha256.startsWith(request.query.v) && request.query.v.length >= 16;
    reply
      .header('content-type', logo.content_type)
      .header('x-content-type-options', 'nosniff')
      .header('content-security-policy', "default-src 'none'; style-src 'unsafe-inline'; sandbox")
      .header('cache-control', current ? 'public, max-age=31536000, immutable' : 'public, max-age=300')
      .header('etag', etag);
    if (request.headers['if-none-match'] === etag) return reply.status(304).send();
    return reply.send(logo.bytes);
  });
}
