import { randomUUID } from 'node:crypto';
import type {
  Account,
  BackOfficeNotificationPage,
  BackOfficeOrganizationPage,
  Bpt,
  ErrorResponse,
  KybDocument,
  OrganizationAdminRecord,
  PaymentLink,
  VirtualBpt,
} from '@rayo/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, createTestApp, createTestUser, openTestShop, signIn, type TestApp } from '../../../test/test-app.ts';
import { fileUpload, tinyPdf } from '../../../test/upload-files.ts';
import { listAuditEntries } from '../audit/audit.repo.ts';
import { listNotifications } from '../notifications/notifications.repo.ts';

type Headers = Record<string, string>;

let t: TestApp;
let backOffice: Headers;
let backOfficeUserId: string;
let backOfficeEmail: string;

beforeAll(async () => {
  t = await createTestApp();
  const user = await createTestUser(t.db, { role: 'back_office', organizationId: null });
  backOfficeUserId = user.id;
  backOfficeEmail = user.email;
  backOffice = bearer((await signIn(t.app, user.email, user.password)).accessToken);
});
afterAll(() => t.close());

function call(method: 'GET' | 'PUT' | 'POST' | 'DELETE', url: string, headers?: Headers, payload?: object) {
  return t.app.inject({ method, url, headers, ...(payload ? { payload } : {}) });
}

function refusal(response: { statusCode: number; json: <T>() => T }) {
  return [response.statusCode, response.json<ErrorResponse>().code];
}

async function adminRecord(id: string) {
  const response = await call('GET', `/api/back-office/organization/${id}/admin`, backOffice);
  expect(response.statusCode, response.body).toBe(200);
  return response.json<OrganizationAdminRecord>();
}

function verify(id: string, field: string, verified: boolean, headers = backOffice) {
  return call('PUT', `/api/back-office/organization/${id}/verification`, headers, { field, verified });
}

function block(id: string, blocked: boolean, reason?: 'missing_info' | 'other') {
  return call('PUT', `/api/back-office/organization/${id}/blocked`, backOffice, { blocked, reason });
}

describe('organizations list', () => {
  it('searches by name or id prefix, filters by country, pages, and counts sales and pending fiat from the rollups', async () => {
    const tag = randomUUID().slice(0, 8);
    const first = await openTestShop(t, `Alpha ${tag}`);
    await openTestShop(t, `Beta ${tag}`);
    await openTestShop(t, `Gamma ${tag}`);
    const mexico = await t.db.selectFrom('countries').select('id').where('code', '=', 'MX').executeTakeFirstOrThrow();
    await t.db
      .updateTable('organizations')
      .set({ country_id: mexico.id })
      .where('id', '=', first.organization.id)
      .execute();
    await t.db
      .updateTable('organizations')
      .set({
        bank_verified: true,
        kyb_verified: true,
        blocked: true,
        blocked_reason: 'other',
        currency: 'GTQ',
        onchain_address: 'bcrt1qexample',
      })
      .where('id', '=', first.organization.id)
      .execute();
    const account = (await call('POST', '/api/accounts', first.admin, { name: 'Till' })).json<Account>();
    await t.db
      .insertInto('transaction_daily')
      .values([
        {
          organization_id: first.organization.id,
          account_id: account.id,
          day: '2026-01-01',
          currency: 'GTQ',
          count: 3n,
          total_msat: 0n,
          bitcoin_to_disburse_msat: 0n,
          total_minor: 0n,
          tip_minor: 0n,
          fiat_to_disburse_minor: 0n,
        },
        {
          organization_id: first.organization.id,
          account_id: account.id,
          day: '2026-01-02',
          currency: 'GTQ',
          count: 4n,
          total_msat: 0n,
          bitcoin_to_disburse_msat: 0n,
          total_minor: 0n,
          tip_minor: 0n,
          fiat_to_disburse_minor: 0n,
        },
      ] as never)
      .execute();
    await t.db
      .insertInto('disbursement_totals')
      .values([
        {
          organization_id: first.organization.id,
          currency: 'GTQ',
          pending_count: 2n,
          pending_fiat_minor: 12345n,
          pending_msat: 1n,
          paid_count: 5n,
          paid_fiat_minor: 1n,
          paid_msat: 1n,
          fee_usd_micros: 0n,
        },
        {
          organization_id: first.organization.id,
          currency: 'USD',
          pending_count: 1n,
          pending_fiat_minor: 999n,
          pending_msat: 1n,
          paid_count: 0n,
          paid_fiat_minor: 0n,
          paid_msat: 0n,
          fee_usd_micros: 0n,
        },
      ] as never)
      .execute();

    const all = await call('GET', `/api/back-office/organizations?search=${tag}&country=-1`, backOffice);
    expect(all.statusCode, all.body).toBe(200);
    const page = all.json<BackOfficeOrganizationPage>();
    expect(page.total).toBe(3);
    expect(page.organizations.map((o) => o.name)).toEqual([`Alpha ${tag}`, `Beta ${tag}`, `Gamma ${tag}`]);
    expect(page.organizations[0]).toMatchObject({
      id: first.organization.id,
      countryId: mexico.id,
      blocked: true,
      // Bank and KYB verified; the on-chain address waits for review; nothing else is entered.
      verificationsToReview: 1,
      verificationsNotEntered: 2,
      transactionsCount: 7,
      unpaidFiatCount: 3,
      pendingFiat: '123.45',
      currency: 'GTQ',
    });
    expect(page.organizations[1]).toMatchObject({
      verificationsToReview: 0,
      verificationsNotEntered: 5,
      transactionsCount: 0,
      pendingFiat: '0.00',
    });

    const paged = (
      await call('GET', `/api/back-office/organizations?search=${tag}&page=2&limit=2`, backOffice)
    ).json<BackOfficeOrganizationPage>();
    expect(paged).toMatchObject({ total: 3 });
    expect(paged.organizations.map((o) => o.name)).toEqual([`Gamma ${tag}`]);

    const inMexico = (
      await call('GET', `/api/back-office/organizations?search=${tag}&country=${mexico.id}`, backOffice)
    ).json<BackOfficeOrganizationPage>();
    expect(inMexico.organizations.map((o) => o.id)).toEqual([first.organization.id]);

    const byId = (
      await call('GET', `/api/back-office/organizations?search=${first.organization.id.slice(0, 8)}`, backOffice)
    ).json<BackOfficeOrganizationPage>();
    expect(byId.organizations.map((o) => o.id)).toContain(first.organization.id);

    // LIKE's wildcards are searched as themselves.
    const wildcard = (
      await call('GET', '/api/back-office/organizations?search=%25%25%25', backOffice)
    ).json<BackOfficeOrganizationPage>();
    expect(wildcard.total).toBe(0);

    expect(refusal(await call('GET', '/api/back-office/organizations?limit=0', backOffice))).toEqual([
      400,
      'InvalidInput',
    ]);
    expect(refusal(await call('GET', '/api/back-office/organizations?country=abc', backOffice))).toEqual([
      400,
      'InvalidInput',
    ]);
  });

  it('answers 403 to every role but back office and super admin', async () => {
    const shop = await openTestShop(t);
    const manager = await createTestUser(t.db, { role: 'manager', organizationId: shop.organization.id });
    const managerHeaders = bearer((await signIn(t.app, manager.email, manager.password)).accessToken);
    const superAdmin = await createTestUser(t.db, { role: 'super_admin', organizationId: shop.organization.id });
    const superHeaders = bearer((await signIn(t.app, superAdmin.email, superAdmin.password)).accessToken);
    for (const headers of [shop.admin, managerHeaders]) {
      expect(refusal(await call('GET', '/api/back-office/organizations', headers))).toEqual([403, 'Forbidden']);
      expect(
        refusal(await call('GET', `/api/back-office/organization/${shop.organization.id}/admin`, headers)),
      ).toEqual([403, 'Forbidden']);
      expect(refusal(await verify(shop.organization.id, 'bank', false, headers))).toEqual([403, 'Forbidden']);
    }
    expect((await call('GET', '/api/back-office/organizations', superHeaders)).statusCode).toBe(200);
    expect((await call('GET', '/api/back-office/organizations')).statusCode).toBe(401);
  });
});

describe('organization admin record', () => {
  it('shows the organization, its admins without secrets, banking, addresses, split, KYB and flags; unknown is 404', async () => {
    const shop = await openTestShop(t, `Record ${randomUUID().slice(0, 6)}`);
    await t.db
      .insertInto('banking_info')
      .values({
        organization_id: shop.organization.id,
        metadata: JSON.stringify({ bank: 'Banco Industrial', accountNumber: '123' }),
      })
      .execute();
    await t.db
      .updateTable('organizations')
      .set({ onchain_address: 'bcrt1qexample', lightning_address: 'shop@example.com' })
      .where('id', '=', shop.organization.id)
      .execute();
    const record = await adminRecord(shop.organization.id);
    expect(record.organization).toMatchObject({
      id: shop.organization.id,
      name: shop.organization.name,
      currency: 'USD',
      language: 'en',
    });
    expect(record.users).toEqual([{ id: shop.user.id, name: shop.user.name, email: shop.user.email, role: 'admin' }]);
    expect(JSON.stringify(record)).not.toContain('password');
    expect(JSON.stringify(record)).not.toContain('$argon');
    expect(record.bankingInfo[0]?.bankingInfoMetadata).toEqual({ bank: 'Banco Industrial', accountNumber: '123' });
    expect(record).toMatchObject({
      onchainAddress: 'bcrt1qexample',
      lightningAddress: 'shop@example.com',
      payoutSplit: { fiatPercent: 0, onchainPercent: 0, lightningPercent: 100 },
      kybDocuments: [],
      blocked: false,
      verifications: { bank: false, crypto: false, disbursementAddress: false, conversionAddress: false, kyb: false },
    });

    expect(refusal(await call('GET', `/api/back-office/organization/${randomUUID()}/admin`, backOffice))).toEqual([
      404,
      'NotFound',
    ]);
    expect(refusal(await call('GET', '/api/back-office/organization/not-a-uuid/admin', backOffice))).toEqual([
      400,
      'InvalidInput',
    ]);
  });

  it("downloads a KYB document of any organization, audited, and not another organization's", async () => {
    const shop = await openTestShop(t);
    const other = await openTestShop(t);
    const pdf = tinyPdf('certificate');
    const upload = fileUpload(pdf, 'acta.pdf', 'application/pdf');
    const uploaded = await t.app.inject({
      method: 'POST',
      url: '/api/settings/kyb-documents',
      headers: { ...shop.admin, ...upload.headers },
      payload: upload.payload,
    });
    expect(uploaded.statusCode, uploaded.body).toBe(201);
    const document = uploaded.json<KybDocument>();
    expect((await adminRecord(shop.organization.id)).kybDocuments).toEqual([document]);

    const url = `/api/back-office/organization/${shop.organization.id}/kyb-documents/${document.id}`;
    const download = await call('GET', url, backOffice);
    expect(download.statusCode).toBe(200);
    expect(download.headers['content-type']).toBe('application/pdf');
    expect(download.headers['content-disposition']).toContain('attachment');
    expect(download.rawPayload.equals(pdf)).toBe(true);
    const [entry] = await listAuditEntries(t.db, { actorUserId: backOfficeUserId });
    expect(entry).toMatchObject({
      action: 'back_office.kyb_document_downloaded',
      target: `kyb_document:${document.id}`,
      organization_id: shop.organization.id,
      actor_email: backOfficeEmail,
    });

    const wrong = `/api/back-office/organization/${other.organization.id}/kyb-documents/${document.id}`;
    expect(refusal(await call('GET', wrong, backOffice))).toEqual([404, 'NotFound']);
    expect(refusal(await call('GET', url, shop.admin))).toEqual([403, 'Forbidden']);
  });
});

describe('verification', () => {
  it('refuses to verify a field with nothing entered, verifies and invalidates what is there, audited, and unlocks the split', async () => {
    const shop = await openTestShop(t);
    const id = shop.organization.id;
    for (const field of ['bank', 'crypto', 'disbursementAddress', 'conversionAddress', 'kyb']) {
      expect(refusal(await verify(id, field, true))).toEqual([409, 'NothingToVerify']);
    }
    // Invalidating what was never verified is allowed and changes nothing.
    expect((await verify(id, 'bank', false)).statusCode).toBe(200);
    expect(await listAuditEntries(t.db, { organizationId: id, actorUserId: backOfficeUserId })).toEqual([]);

    await t.db
      .insertInto('banking_info')
      .values({ organization_id: id, metadata: JSON.stringify({ bank: 'BAM' }) })
      .execute();
    await t.db
      .updateTable('organizations')
      .set({ onchain_address: 'bcrt1qexample', lightning_address: 'shop@example.com' })
      .where('id', '=', id)
      .execute();
    const upload = fileUpload(tinyPdf('kyb'), 'kyb.pdf', 'application/pdf');
    await t.app.inject({
      method: 'POST',
      url: '/api/settings/kyb-documents',
      headers: { ...shop.admin, ...upload.headers },
      payload: upload.payload,
    });

    const split = { fiatPercent: 50, onchainPercent: 0, lightningPercent: 50 };
    expect(refusal(await call('PUT', '/api/settings/payout-split', shop.admin, split))).toEqual([
      409,
      'SplitNeedsValidation',
    ]);

    let record: OrganizationAdminRecord | undefined;
    for (const field of ['bank', 'crypto', 'disbursementAddress', 'conversionAddress', 'kyb']) {
      const response = await verify(id, field, true);
      expect(response.statusCode, response.body).toBe(200);
      record = response.json<OrganizationAdminRecord>();
    }
    expect(record?.verifications).toEqual({
      bank: true,
      crypto: true,
      disbursementAddress: true,
      conversionAddress: true,
      kyb: true,
    });
    expect((await call('PUT', '/api/settings/payout-split', shop.admin, split)).statusCode).toBe(200);

    const invalidated = await verify(id, 'crypto', false);
    expect(invalidated.json<OrganizationAdminRecord>().verifications.crypto).toBe(false);
    const entries = await listAuditEntries(t.db, { organizationId: id, actorUserId: backOfficeUserId });
    expect(entries.map((e) => e.action)).toEqual(Array(6).fill('back_office.verification_changed'));
    expect(entries[0]).toMatchObject({
      actor_email: backOfficeEmail,
      target: `organization:${id}`,
      before: { field: 'crypto', verified: true },
      after: { field: 'crypto', verified: false },
    });
    expect(entries[0]?.ip).toBeTruthy();

    expect(refusal(await verify(id, 'nonsense', true))).toEqual([400, 'InvalidInput']);
    expect(
      refusal(await call('PUT', `/api/back-office/organization/${id}/verification`, backOffice, { field: 'bank' })),
    ).toEqual([400, 'InvalidInput']);
    expect(refusal(await verify(randomUUID(), 'bank', false))).toEqual([404, 'NotFound']);
  });
});

describe('blocking', () => {
  it('refuses invoice creation on the terminal, the shared terminal, payment links, store checkouts and donations, and unblocking restores them', async () => {
    const shop = await openTestShop(t);
    const id = shop.organization.id;
    const account = (await call('POST', '/api/accounts', shop.admin, { name: 'Counter' })).json<Account>();
    const bpt = (
      await call('POST', '/api/bpts', shop.admin, {
        name: 'Till',
        accountId: account.id,
        currency: 'GTQ',
        shareable: true,
      })
    ).json<Bpt>();
    const virtualBpt = (
      await call('POST', '/api/virtual-bpts', shop.admin, { name: 'Web', bptId: bpt.id })
    ).json<VirtualBpt>();
    const link = (
      await call('POST', `/api/virtual-bpts/${virtualBpt.id}/payment-links`, shop.admin, {
        description: 'Cake',
        amount: '73',
        currency: 'GTQ',
      })
    ).json<PaymentLink>();
    const donation = await call('POST', '/api/donation-links', shop.admin, {
      virtualBptId: virtualBpt.id,
      title: 'Tips',
      commentAllowed: 0,
    });
    expect(donation.statusCode, donation.body).toBe(201);
    const donationLink = donation.json<{ id: string }>();

    const attempts = {
      terminal: () => call('POST', `/api/bpts/${bpt.id}/invoices`, shop.admin, { amount: '10' }),
      sharedTerminal: () => call('POST', `/api/terminal/${bpt.shareToken}/invoices`, undefined, { amount: '10' }),
      paymentLink: () => call('GET', `/api/public/checkouts/${link.id}`),
      newPaymentLink: () =>
        call('POST', `/api/virtual-bpts/${virtualBpt.id}/payment-links`, shop.admin, {
          description: `Pie ${randomUUID()}`,
          amount: '12',
          currency: 'GTQ',
        }),
      storeCheckout: () =>
        call('POST', '/api/checkouts', shop.admin, {
          amount: '10',
          currency: 'GTQ',
          orderId: randomUUID(),
          virtualBptId: virtualBpt.id,
        }),
      donation: () =>
        call('POST', `/api/public/donation-links/${donationLink.id}/invoices`, undefined, { amountSats: 1000 }),
    };

    const blocked = await block(id, true);
    expect(blocked.statusCode, blocked.body).toBe(200);
    expect(blocked.json<OrganizationAdminRecord>()).toMatchObject({ blocked: true, blockedReason: 'other' });
    expect((await call('GET', '/api/organization/current', shop.admin)).json()).toMatchObject({
      blockedReason: 'other',
    });
    for (const [path, attempt] of Object.entries(attempts)) {
      const response = await attempt();
      expect([path, response.statusCode, response.json<ErrorResponse>()]).toEqual([
        path,
        403,
        { code: 'OrganizationBlocked', message: 'Your organization is blocked; contact support' },
      ]);
    }
    // Blocked because information is missing in Settings: SPEC §8's words.
    const missing = await block(id, true, 'missing_info');
    expect(missing.json<OrganizationAdminRecord>()).toMatchObject({ blocked: true, blockedReason: 'missing_info' });
    const refused = await attempts.terminal();
    expect(refused.json<ErrorResponse>()).toEqual({
      code: 'OrganizationDisabled',
      message: 'Your organization is disabled, missing info in Settings',
    });

    expect((await block(id, false)).json<OrganizationAdminRecord>()).toMatchObject({
      blocked: false,
      blockedReason: null,
    });
    expect((await call('GET', '/api/organization/current', shop.admin)).json()).toMatchObject({ blockedReason: null });
    for (const [path, attempt] of Object.entries(attempts)) {
      const response = await attempt();
      expect([path, response.statusCode < 300], response.body).toEqual([path, true]);
    }

    const entries = await listAuditEntries(t.db, { organizationId: id, actorUserId: backOfficeUserId });
    expect(entries.map((e) => [e.action, e.after])).toEqual([
      ['back_office.organization_unblocked', { blocked: false, reason: null }],
      ['back_office.organization_blocked', { blocked: true, reason: 'missing_info' }],
      ['back_office.organization_blocked', { blocked: true, reason: 'other' }],
    ]);
    expect(refusal(await block(randomUUID(), true))).toEqual([404, 'NotFound']);
    expect(
      refusal(await call('PUT', `/api/back-office/organization/${id}/blocked`, backOffice, { blocked: 'yes' })),
    ).toEqual([400, 'InvalidInput']);
  });
});

describe('notifications', () => {
  it('raises one for a new organization, lists newest first with the name, deletes (audited), 404 when unknown', async () => {
    const user = await createTestUser(t.db, { role: 'admin', organizationId: null });
    const name = `Fresh ${randomUUID().slice(0, 6)}`;
    const headers = bearer((await signIn(t.app, user.email, user.password)).accessToken);
    const response = await call('POST', '/api/onboard', headers, {
      name,
      countryCode: 'GT',
      language: 'es',
      currency: 'GTQ',
    });
    expect(response.statusCode, response.body).toBeLessThan(300);
    const onboarded = response.json<{ organizationId: string }>();
    const [raised] = await listNotifications(t.db, { organizationId: onboarded.organizationId });
    expect(raised).toMatchObject({
      kind: 'organization.created',
      payload: { name, countryCode: 'GT', currency: 'GTQ' },
    });

    const listed = await call('GET', '/api/back-office/notification?limit=100', backOffice);
    expect(listed.statusCode, listed.body).toBe(200);
    const page = listed.json<BackOfficeNotificationPage>();
    const times = page.notifications.map((n) => n.createdAt);
    expect(times).toEqual([...times].sort().reverse());
    const notice = page.notifications.find((n) => n.organizationId === onboarded.organizationId);
    expect(notice).toMatchObject({ organizationName: name, kind: 'organization.created', id: raised?.id });

    const deleted = await call('DELETE', `/api/back-office/notification/${raised?.id}`, backOffice);
    expect(deleted.statusCode).toBe(204);
    const after = (
      await call('GET', '/api/back-office/notification?limit=100', backOffice)
    ).json<BackOfficeNotificationPage>();
    expect(after.total).toBe(page.total - 1);
    expect(after.notifications.map((n) => n.id)).not.toContain(raised?.id);
    const [entry] = await listAuditEntries(t.db, {
      organizationId: onboarded.organizationId,
      actorUserId: backOfficeUserId,
    });
    expect(entry).toMatchObject({ action: 'back_office.notification_deleted', target: `notification:${raised?.id}` });

    expect(refusal(await call('DELETE', `/api/back-office/notification/${raised?.id}`, backOffice))).toEqual([
      404,
      'NotFound',
    ]);
    expect(refusal(await call('GET', '/api/back-office/notification?page=0', backOffice))).toEqual([
      400,
      'InvalidInput',
    ]);
  });
});

describe('audit export', () => {
  /** A minimal RFC 4180 reader: quoted fields may hold commas, line breaks and doubled quotes. */
  function csvRows(text: string): string[][] {
    const rows: string[][] = [];
    let row: string[] = [];
    let field = '';
    let quoted = false;
    for (let i = 0; i < text.length; i += 1) {
      const char = text[i] as string;
      if (quoted) {
        if (char === '"' && text[i + 1] === '"') {
          field += '"';
          i += 1;
        } else if (char === '"') quoted = false;
        else field += char;
      } else if (char === '"') quoted = true;
      else if (char === ',') {
        row.push(field);
        field = '';
      } else if (char === '\r' && text[i + 1] === '\n') {
        rows.push([...row, field]);
        row = [];
        field = '';
        i += 1;
      } else field += char;
    }
    return rows;
  }

  it('streams the entries of the period oldest first, across pages, with formulas defused', async () => {
    const shop = await openTestShop(t, '=HYPERLINK("http://evil")');
    const start = Date.UTC(2020, 0, 1) / 1000;
    const rows = Array.from({ length: 2500 }, (_, i) => ({
      occurred_at: new Date((start + 60 + i) * 1000),
      actor_email: i === 0 ? '@attacker.example' : i === 2499 ? null : `user${i}@example.com`,
      // The last is a periodic pass's entry: it names the job, not a person.
      actor_system: i === 2499 ? 'system:pay-onchain-payouts' : null,
      action: 'settings.language_changed',
      organization_id: shop.organization.id,
      target: i === 1 ? '-1+2' : `user:${i}`,
      before: JSON.stringify({ language: 'en' }),
      after: JSON.stringify({ language: 'es, "quoted"' }),
      ip: '198.51.100.7',
    }));
    for (let i = 0; i < rows.length; i += 500)
      await t.db
        .insertInto('audit_log')
        .values(rows.slice(i, i + 500))
        .execute();
    // Just outside the period on both sides.
    await t.db
      .insertInto('audit_log')
      .values([
        { occurred_at: new Date((start - 1) * 1000), action: 'auth.signin', actor_email: 'before@example.com' },
        { occurred_at: new Date((start + 86_400) * 1000), action: 'auth.signin', actor_email: 'after@example.com' },
      ])
      .execute();

    const response = await call('GET', `/api/back-office/audit/csv?start=${start}&end=${start + 86_400}`, backOffice);
    expect(response.statusCode, response.body.slice(0, 200)).toBe(200);
    expect(response.headers['content-type']).toBe('text/csv; charset=utf-8');
    // One day, named as the day it is.
    expect(response.headers['content-disposition']).toBe('attachment; filename="audit_2020-01-01_2020-01-01.csv"');
    const [header, ...lines] = csvRows(response.body);
    expect(header).toEqual(['Time (UTC)', 'Actor', 'Action', 'Organization', 'Target', 'Before', 'After', 'IP']);
    expect(lines).toHaveLength(2500);
    expect(lines[0]).toEqual([
      new Date((start + 60) * 1000).toISOString(),
      "'@attacker.example",
      'settings.language_changed',
      `'=HYPERLINK("http://evil")`,
      'user:0',
      '{"language":"en"}',
      '{"language":"es, \\"quoted\\""}',
      '198.51.100.7',
    ]);
    expect(lines[1]?.[4]).toBe("'-1+2");
    expect(lines.at(-2)?.[1]).toBe('user2498@example.com');
    expect(lines.at(-1)?.[1]).toBe('system:pay-onchain-payouts');
    expect(lines.map((l) => l[0])).toEqual(lines.map((l) => l[0]).sort());

    const [exported] = await listAuditEntries(t.db, { actorUserId: backOfficeUserId });
    expect(exported).toMatchObject({ action: 'back_office.audit_exported', actor_email: backOfficeEmail });

    for (const query of [
      '',
      `?start=${start}`,
      `?start=${start}&end=${start}`,
      `?start=${start}&end=${start + 367 * 86_400}`,
      '?start=x&end=y',
    ]) {
      expect(refusal(await call('GET', `/api/back-office/audit/csv${query}`, backOffice))).toEqual([
        400,
        'InvalidInput',
      ]);
    }
    expect(
      refusal(await call('GET', `/api/back-office/audit/csv?start=${start}&end=${start + 1}`, shop.admin)),
    ).toEqual([403, 'Forbidden']);
  });
});
