import { createHash } from 'node:crypto';
import { type ErrorResponse, KYB_MAX_BYTES, KYB_MAX_FILES, type KybDocument, type MfaEnrollment } from '@rayo/shared';
import { Secret, TOTP } from 'otpauth';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, createTestApp, createTestUser, openTestShop, signIn, type TestApp } from '../../../test/test-app.ts';
import { fileUpload, jpegHead, multipart, tinyPdf, tinyPng } from '../../../test/upload-files.ts';
import { listAuditEntries } from '../audit/audit.repo.ts';
import { listNotifications } from '../notifications/notifications.repo.ts';

type Headers = Record<string, string>;

let t: TestApp;

/** The notices a settings change raised: every organization also has the one of its creation. */
async function settingsNotices(organizationId: string) {
  return (await listNotifications(t.db, { organizationId })).filter((n) => n.kind !== 'organization.created');
}

beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

function upload(headers: Headers, body: { payload: Buffer; headers: Headers }) {
  return t.app.inject({
    method: 'POST',
    url: '/api/settings/kyb-documents',
    headers: { ...headers, ...body.headers },
    payload: body.payload,
  });
}

function list(headers: Headers) {
  return t.app.inject({ method: 'GET', url: '/api/settings/kyb-documents', headers });
}

async function storedCount(organizationId: string): Promise<number> {
  const rows = await t.db
    .selectFrom('kyb_documents')
    .select('id')
    .where('organization_id', '=', organizationId)
    .execute();
  return rows.length;
}

function refusal(response: { statusCode: number; json: <T>() => T }) {
  return [response.statusCode, response.json<ErrorResponse>().code];
}

describe('uploading KYB documents', () => {
  it('stores a PDF, lists it, gives it back byte for byte, and resets KYB, audits and tells back office', async () => {
    const shop = await openTestShop(t);
    await t.db
      .updateTable('organizations')
      .set({ kyb_verified: true })
      .where('id', '=', shop.organization.id)
      .execute();
    const pdf = tinyPdf('articles of incorporation');
    const sha256 = createHash('sha256').update(pdf).digest('hex');

    // The client's word for the type is ignored; the bytes say PDF.
    const response = await upload(shop.admin, fileUpload(pdf, 'Escritura constitutiva ñ.pdf', 'image/gif'));
    expect(response.statusCode, response.body).toBe(201);
    const document = response.json<KybDocument>();
    expect(document).toMatchObject({
      fileName: 'Escritura constitutiva ñ.pdf',
      contentType: 'application/pdf',
      size: pdf.length,
      sha256,
    });
    expect((await list(shop.admin)).json<KybDocument[]>()).toEqual([document]);

    const download = await t.app.inject({
      method: 'GET',
      url: `/api/settings/kyb-documents/${document.id}`,
      headers: shop.admin,
    });
    expect(download.statusCode).toBe(200);
    expect(download.rawPayload.equals(pdf)).toBe(true);
    expect(download.headers).toMatchObject({
      'content-type': 'application/pdf',
      'x-content-type-options': 'nosniff',
      'cache-control': 'private, no-store',
    });
    expect(download.headers['content-disposition']).toBe(
      `attachment; filename="Escritura constitutiva _.pdf"; filename*=UTF-8''${encodeURIComponent('Escritura constitutiva ñ.pdf')}`,
    );
    expect(download.headers['content-security-policy']).toContain('sandbox');

    const organization = await t.db
      .selectFrom('organizations')
      .select('kyb_verified')
      .where('id', '=', shop.organization.id)
      .executeTakeFirstOrThrow();
    expect(organization.kyb_verified).toBe(false);

    const [audit] = await listAuditEntries(t.db, { organizationId: shop.organization.id });
    expect(audit).toMatchObject({
      action: 'settings.kyb_document_uploaded',
      actor_user_id: shop.user.id,
      target: `kyb_document:${document.id}`,
    });
    const described = {
      documentId: document.id,
      fileName: document.fileName,
      size: pdf.length,
      contentType: 'application/pdf',
      sha256,
    };
    expect(audit?.after).toEqual(described);
    expect(JSON.stringify(audit)).not.toContain('articles of incorporation');

    const notices = await settingsNotices(shop.organization.id);
    expect(notices).toHaveLength(1);
    expect(notices[0]).toMatchObject({ kind: 'settings.kyb_document_uploaded', payload: described });
  });

  it('takes PNG and JPEG documents, and names a nameless one', async () => {
    const shop = await openTestShop(t);
    const png = await upload(shop.admin, fileUpload(tinyPng(), 'passport.png', 'image/png'));
    expect(png.json<KybDocument>()).toMatchObject({ contentType: 'image/png', fileName: 'passport.png' });
    const jpeg = await upload(shop.admin, fileUpload(jpegHead(), '', 'application/pdf'));
    expect(jpeg.statusCode, jpeg.body).toBe(201);
    expect(jpeg.json<KybDocument>()).toMatchObject({ contentType: 'image/jpeg', fileName: 'document' });
  });

  it('keeps only the last segment of a path-like name, without control characters', async () => {
    const shop = await openTestShop(t);
    const response = await upload(shop.admin, fileUpload(tinyPdf(), '..\\..\\etc/pass\u0007wd.pdf'));
    expect(response.json<KybDocument>().fileName).toBe('passwd.pdf');
  });

  it('refuses a file whose bytes are not PDF, PNG or JPEG, whatever its name and type say', async () => {
    const shop = await openTestShop(t);
    for (const body of [
      fileUpload('<html><script>alert(1)</script></html>', 'statement.pdf', 'application/pdf'),
      fileUpload(Buffer.from('GIF89a\x01\x00\x01\x00'), 'id.png', 'image/png'),
      fileUpload('<svg xmlns="http://www.w3.org/2000/svg"/>', 'id.pdf', 'application/pdf'),
      fileUpload(Buffer.from('PK\x03\x04zip'), 'papers.pdf', 'application/pdf'),
    ]) {
      expect(refusal(await upload(shop.admin, body))).toEqual([400, 'InvalidFileType']);
    }
    expect(await storedCount(shop.organization.id)).toBe(0);
  });

  it('refuses a file over 10 MB with 413 and stores nothing', async () => {
    const shop = await openTestShop(t);
    const big = Buffer.concat([tinyPdf(), Buffer.alloc(KYB_MAX_BYTES)]);
    const response = await upload(shop.admin, fileUpload(big, 'big.pdf', 'application/pdf'));
    expect(refusal(response)).toEqual([413, 'FileTooLarge']);
    expect(await storedCount(shop.organization.id)).toBe(0);
    expect(await settingsNotices(shop.organization.id)).toEqual([]);
  });

  it('refuses a request without exactly one file, and one that is not multipart', async () => {
    const shop = await openTestShop(t);
    const two = multipart([
      { name: 'file', fileName: 'a.pdf', data: tinyPdf() },
      { name: 'file', fileName: 'b.pdf', data: tinyPdf() },
    ]);
    const withField = multipart([
      { name: 'note', data: 'hello' },
      { name: 'file', fileName: 'a.pdf', data: tinyPdf() },
    ]);
    const wrongField = multipart([{ name: 'document', fileName: 'a.pdf', data: tinyPdf() }]);
    for (const body of [two, withField, wrongField]) {
      expect(refusal(await upload(shop.admin, body))).toEqual([400, 'InvalidInput']);
    }
    expect(refusal(await upload(shop.admin, multipart([])))).toEqual([400, 'MissingFile']);
    expect(refusal(await upload(shop.admin, fileUpload(Buffer.alloc(0))))).toEqual([400, 'MissingFile']);
    const json = await t.app.inject({
      method: 'POST',
      url: '/api/settings/kyb-documents',
      headers: shop.admin,
      payload: { file: '%PDF-1.4' },
    });
    expect(refusal(json)).toEqual([400, 'MissingFile']);
    // A body cut off in the middle of its part.
    const cut = fileUpload(tinyPdf());
    const truncated = await upload(shop.admin, { ...cut, payload: cut.payload.subarray(0, 60) });
    expect(truncated.statusCode).toBe(400);
    expect(await storedCount(shop.organization.id)).toBe(0);
  });

  it(`keeps at most ${KYB_MAX_FILES} documents per organization`, async () => {
    const shop = await openTestShop(t);
    // Uploads at once: the count is taken under a lock, so none slips past it.
    const answers = await Promise.all(
      Array.from({ length: KYB_MAX_FILES + 3 }, (_, i) => upload(shop.admin, fileUpload(tinyPdf(`#${i}`), `${i}.pdf`))),
    );
    expect(answers.filter((a) => a.statusCode === 201)).toHaveLength(KYB_MAX_FILES);
    expect(answers.filter((a) => a.statusCode !== 201).map(refusal)).toEqual(
      Array.from({ length: 3 }, () => [409, 'TooManyFiles']),
    );
    expect(await storedCount(shop.organization.id)).toBe(KYB_MAX_FILES);
  });
});

describe('deleting KYB documents', () => {
  it('deletes its own document, resets KYB, audits and tells back office', async () => {
    const shop = await openTestShop(t);
    const document = (await upload(shop.admin, fileUpload(tinyPdf(), 'a.pdf'))).json<KybDocument>();
    await t.db
      .updateTable('organizations')
      .set({ kyb_verified: true })
      .where('id', '=', shop.organization.id)
      .execute();
    const url = `/api/settings/kyb-documents/${document.id}`;
    expect((await t.app.inject({ method: 'DELETE', url, headers: shop.admin })).statusCode).toBe(204);
    expect((await list(shop.admin)).json()).toEqual([]);
    expect((await t.app.inject({ method: 'GET', url, headers: shop.admin })).statusCode).toBe(404);
    const row = await t.db
      .selectFrom('organizations')
      .select('kyb_verified')
      .where('id', '=', shop.organization.id)
      .executeTakeFirstOrThrow();
    expect(row.kyb_verified).toBe(false);
    const [audit] = await listAuditEntries(t.db, { organizationId: shop.organization.id });
    expect(audit).toMatchObject({ action: 'settings.kyb_document_deleted', before: { documentId: document.id } });
    const [notice] = await settingsNotices(shop.organization.id);
    expect(notice).toMatchObject({ kind: 'settings.kyb_document_deleted', payload: { documentId: document.id } });
  });
});

describe('who sees KYB documents', () => {
  it("answers 404 for another organization's document, and 403 to managers", async () => {
    const shop = await openTestShop(t);
    const other = await openTestShop(t);
    const document = (await upload(shop.admin, fileUpload(tinyPdf(), 'a.pdf'))).json<KybDocument>();
    const url = `/api/settings/kyb-documents/${document.id}`;
    for (const method of ['GET', 'DELETE'] as const) {
      expect(refusal(await t.app.inject({ method, url, headers: other.admin }))).toEqual([404, 'NotFound']);
    }
    expect((await list(other.admin)).json()).toEqual([]);

    const manager = await createTestUser(t.db, { role: 'manager', organizationId: shop.organization.id });
    const headers = bearer((await signIn(t.app, manager.email, manager.password)).accessToken);
    expect(refusal(await list(headers))).toEqual([403, 'Forbidden']);
    expect(refusal(await t.app.inject({ method: 'GET', url, headers }))).toEqual([403, 'Forbidden']);
    expect(refusal(await upload(headers, fileUpload(tinyPdf())))).toEqual([403, 'Forbidden']);
    expect(await storedCount(shop.organization.id)).toBe(1);
  });

  it('needs no MFA code: an upload only withdraws verification', async () => {
    const shop = await openTestShop(t);
    const enable = await t.app.inject({ method: 'POST', url: '/api/settings/mfa/enable', headers: shop.admin });
    const totp = new TOTP({ secret: Secret.fromBase32(enable.json<MfaEnrollment>().secret) });
    const payload = { code: totp.generate() };
    await t.app.inject({ method: 'POST', url: '/api/settings/mfa/validate', headers: shop.admin, payload });
    expect((await upload(shop.admin, fileUpload(tinyPdf()))).statusCode).toBe(201);
  });
});
