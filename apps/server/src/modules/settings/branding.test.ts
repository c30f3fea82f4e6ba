import { createHash } from 'node:crypto';
import { type Branding, type ErrorResponse, LOGO_MAX_BYTES, type TerminalInfo } from '@rayo/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  bearer,
  createTestAccount,
  createTestApp,
  createTestUser,
  openTestShop,
  signIn,
  type TestApp,
} from '../../../test/test-app.ts';
import { fileUpload, jpegHead, tinyPng } from '../../../test/upload-files.ts';
import { listAuditEntries } from '../audit/audit.repo.ts';

type Headers = Record<string, string>;

let t: TestApp;

beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

function putLogo(headers: Headers, body: { payload: Buffer; headers: Headers }) {
  return t.app.inject({
    method: 'PUT',
    url: '/api/settings/branding/logo',
    headers: { ...headers, ...body.headers },
    payload: body.payload,
  });
}

function putColor(headers: Headers, payload: unknown) {
  return t.app.inject({ method: 'PUT', url: '/api/settings/branding', headers, payload: payload as object });
}

function getBranding(headers: Headers) {
  return t.app.inject({ method: 'GET', url: '/api/settings/branding', headers });
}

function refusal(response: { statusCode: number; json: <T>() => T }) {
  return [response.statusCode, response.json<ErrorResponse>().code];
}

async function hasLogo(organizationId: string): Promise<boolean> {
  const row = await t.db
    .selectFrom('organization_logos')
    .select('organization_id')
    .where('organization_id', '=', organizationId)
    .executeTakeFirst();
  return row !== undefined;
}

describe('the logo', () => {
  it('stores a PNG, serves it publicly with its sniffed type and safe headers, and audits the change', async () => {
    const shop = await openTestShop(t);
    const png = tinyPng();
    const sha256 = createHash('sha256').update(png).digest('hex');
    // Named and typed as a JPEG: the bytes are what counts.
    const response = await putLogo(shop.admin, fileUpload(png, 'logo.jpg', 'image/jpeg'));
    expect(response.statusCode, response.body).toBe(200);
    const branding = response.json<Branding>();
    expect(branding.logo).toEqual({
      url: `/api/public/organizations/${shop.organization.id}/logo?v=${sha256.slice(0, 16)}`,
      contentType: 'image/png',
      size: png.length,
      sha256,
    });
    expect((await getBranding(shop.admin)).json()).toEqual(branding);

    const served = await t.app.inject({ method: 'GET', url: branding.logo?.url ?? '' });
    expect(served.statusCode).toBe(200);
    expect(served.rawPayload.equals(png)).toBe(true);
    expect(served.headers).toMatchObject({
      'content-type': 'image/png',
      'x-content-type-options': 'nosniff',
      'cache-control': 'public, max-age=31536000, immutable',
      etag: `"${sha256}"`,
    });
    expect(served.headers['content-security-policy']).toBe("default-src 'none'; style-src 'unsafe-inline'; sandbox");
    // An address without the current hash may be cached only briefly, and a cached copy is revalidated.
    const bare = `/api/public/organizations/${shop.organization.id}/logo`;
    expect((await t.app.inject({ method: 'GET', url: bare })).headers['cache-control']).toBe('public, max-age=300');
    const again = await t.app.inject({ method: 'GET', url: bare, headers: { 'if-none-match': `"${sha256}"` } });
    expect(again.statusCode).toBe(304);

    const [audit] = await listAuditEntries(t.db, { organizationId: shop.organization.id });
    expect(audit).toMatchObject({
      action: 'settings.branding_changed',
      actor_user_id: shop.user.id,
      before: { accentColor: null, logo: null },
      after: { accentColor: null, logo: { sha256, size: png.length, contentType: 'image/png' } },
    });
  });

  it('replaces a logo with a JPEG, and removes it', async () => {
    const shop = await openTestShop(t);
    await putLogo(shop.admin, fileUpload(tinyPng()));
    const jpeg = await putLogo(shop.admin, fileUpload(jpegHead(), 'logo.png', 'image/png'));
    expect(jpeg.json<Branding>().logo?.contentType).toBe('image/jpeg');
    const url = jpeg.json<Branding>().logo?.url ?? '';
    expect((await t.app.inject({ method: 'GET', url })).headers['content-type']).toBe('image/jpeg');

    const removed = await t.app.inject({ method: 'DELETE', url: '/api/settings/branding/logo', headers: shop.admin });
    expect(removed.json<Branding>().logo).toBeNull();
    expect(refusal(await t.app.inject({ method: 'GET', url }))).toEqual([404, 'NotFound']);
  });

  it('refuses a logo over 512 KB with 413, keeping the one it had', async () => {
    const shop = await openTestShop(t);
    await putLogo(shop.admin, fileUpload(tinyPng()));
    const before = (await getBranding(shop.admin)).json<Branding>();
    const big = tinyPng([1, 2, 3], 4, LOGO_MAX_BYTES);
    expect(refusal(await putLogo(shop.admin, fileUpload(big, 'big.png', 'image/png')))).toEqual([413, 'FileTooLarge']);
    expect((await getBranding(shop.admin)).json()).toEqual(before);
  });

  it('refuses anything but PNG and JPEG, whatever the name and type say', async () => {
    const shop = await openTestShop(t);
    for (const body of [
      fileUpload('%PDF-1.4 not an image', 'logo.png', 'image/png'),
      fileUpload(Buffer.from('GIF89a\x01\x00\x01\x00'), 'logo.png', 'image/png'),
      fileUpload('<html><body>hi</body></html>', 'logo.png', 'image/png'),
    ]) {
      const response = await putLogo(shop.admin, body);
      expect(refusal(response)).toEqual([400, 'InvalidFileType']);
    }
    expect(await hasLogo(shop.organization.id)).toBe(false);
  });

  it('refuses every SVG, hostile or not, with a message that says so', async () => {
    const shop = await openTestShop(t);
    const svgs = [
      '<svg xmlns="http://www.w3.org/2000/svg"><circle r="4"/></svg>',
      '<svg xmlns="http://www.w3.org/2000/svg" onload="alert(1)"/>',
      '<svg xmlns="http://www.w3.org/2000/svg"><script>alert(document.cookie)</script></svg>',
      '<svg xmlns="http://www.w3.org/2000/svg"><foreignObject><iframe src="https://evil.example"/></foreignObject></svg>',
      '<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink"><image xlink:href="https://evil.example/x.png"/></svg>',
      '<?xml version="1.0"?><!DOCTYPE svg [<!ENTITY xxe SYSTEM "file:///etc/passwd">]><svg>&xxe;</svg>',
    ];
    for (const svg of svgs) {
      const response = await putLogo(shop.admin, fileUpload(svg, 'logo.png', 'image/png'));
      expect(refusal(response)).toEqual([400, 'InvalidFileType']);
      expect(response.json<ErrorResponse>().message).toContain('SVG');
    }
    expect(await hasLogo(shop.organization.id)).toBe(false);
  });

  it('refuses a request without a file', async () => {
    const shop = await openTestShop(t);
    expect(refusal(await putLogo(shop.admin, fileUpload(Buffer.alloc(0))))).toEqual([400, 'MissingFile']);
    const json = await t.app.inject({
      method: 'PUT',
      url: '/api/settings/branding/logo',
      headers: shop.admin,
      payload: {},
    });
    expect(refusal(json)).toEqual([400, 'MissingFile']);
  });

  it('answers 404 for an organization without a logo, and 400 for an id that is none', async () => {
    const shop = await openTestShop(t);
    const url = `/api/public/organizations/${shop.organization.id}/logo`;
    expect(refusal(await t.app.inject({ method: 'GET', url }))).toEqual([404, 'NotFound']);
    const bad = await t.app.inject({ method: 'GET', url: '/api/public/organizations/not-an-id/logo' });
    expect(bad.statusCode).toBe(400);
  });
});

describe('the accent colour', () => {
  it('stores #rrggbb in lower case, audits it, and can be put back to the default', async () => {
    const shop = await openTestShop(t);
    const set = await putColor(shop.admin, { accentColor: '#0A7D5A' });
    expect(set.statusCode, set.body).toBe(200);
    expect(set.json<Branding>()).toEqual({ accentColor: '#0a7d5a', logo: null });
    const [audit] = await listAuditEntries(t.db, { organizationId: shop.organization.id });
    expect(audit).toMatchObject({ before: { accentColor: null }, after: { accentColor: '#0a7d5a' } });
    const reset = await putColor(shop.admin, { accentColor: null });
    expect(reset.json<Branding>().accentColor).toBeNull();
  });

  it('refuses anything but #rrggbb', async () => {
    const shop = await openTestShop(t);
    await putColor(shop.admin, { accentColor: '#123456' });
    for (const accentColor of ['#12345', '#1234567', '123456', '#12345g', 'red', 'rgb(1,2,3)', '#123456;x', 42]) {
      expect(refusal(await putColor(shop.admin, { accentColor }))).toEqual([400, 'InvalidAccentColor']);
    }
    // Blank or absent is not a colour either; null is how the default is asked for.
    expect(refusal(await putColor(shop.admin, { accentColor: '' }))).toEqual([400, 'InvalidInput']);
    expect(refusal(await putColor(shop.admin, {}))).toEqual([400, 'InvalidInput']);
    expect((await getBranding(shop.admin)).json<Branding>().accentColor).toBe('#123456');
  });
});

describe('who may change the branding', () => {
  it('lets a manager read it, and nothing more', async () => {
    const shop = await openTestShop(t);
    await putColor(shop.admin, { accentColor: '#123456' });
    const manager = await createTestUser(t.db, { role: 'manager', organizationId: shop.organization.id });
    const headers = bearer((await signIn(t.app, manager.email, manager.password)).accessToken);
    expect((await getBranding(headers)).json<Branding>().accentColor).toBe('#123456');
    expect(refusal(await putColor(headers, { accentColor: '#654321' }))).toEqual([403, 'Forbidden']);
    expect(refusal(await putLogo(headers, fileUpload(tinyPng())))).toEqual([403, 'Forbidden']);
    const remove = await t.app.inject({ method: 'DELETE', url: '/api/settings/branding/logo', headers });
    expect(refusal(remove)).toEqual([403, 'Forbidden']);
    expect(await hasLogo(shop.organization.id)).toBe(false);
  });
});

describe('the shareable terminal', () => {
  it('carries the logo and colour of its organization', async () => {
    const shop = await openTestShop(t);
    const account = await createTestAccount(t.db, shop.organization.id, 'Counter');
    const created = await t.app.inject({
      method: 'POST',
      url: '/api/bpts',
      headers: shop.admin,
      payload: { name: 'Till', accountId: account.id, currency: 'GTQ', shareable: true },
    });
    const token = created.json<{ shareToken: string }>().shareToken;
    const terminal = () =>
      t.app.inject({ method: 'GET', url: `/api/terminal/${token}` }).then((r) => r.json<TerminalInfo>());
    expect((await terminal()).branding).toEqual({ accentColor: null, logoUrl: null });
    await putColor(shop.admin, { accentColor: '#0a7d5a' });
    const logo = (await putLogo(shop.admin, fileUpload(tinyPng()))).json<Branding>().logo;
    expect((await terminal()).branding).toEqual({ accentColor: '#0a7d5a', logoUrl: logo?.url });
  });
});
