import type { CloseSchedule, CloseScheduleList } from '@rayo/shared';
import { sql } from 'kysely';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { type SmtpInbox, startSmtpInbox } from '../../../test/fakes/smtp-inbox.ts';
import { recordSale } from '../../../test/record-sale.ts';
import {
  bearer,
  createTestAccount,
  createTestApp,
  createTestUser,
  openTestShop,
  signIn,
  type TestApp,
} from '../../../test/test-app.ts';
import { createTestClock } from '../../../test/test-clock.ts';
import { waitFor } from '../../../test/wait-for.ts';
import { freePort } from '../../ports.ts';
import { listNotifications } from '../notifications/notifications.repo.ts';
import { queueCloseReports } from './close-schedules.service.ts';

/** Guatemala keeps UTC−6 all year. */
const gt = (local: string) => new Date(`${local}-06:00`);

/** A shop in Guatemala selling in quetzales, with an account, its linked manager (in Spanish) and a sale. */
async function openShop(t: TestApp, name: string) {
  const shop = await openTestShop(t, name);
  await sql`update organizations set currency = 'GTQ' where id = ${shop.organization.id}`.execute(t.db);
  const account = (await createTestAccount(t.db, shop.organization.id, 'Antigua')).id;
  const other = (await createTestAccount(t.db, shop.organization.id, 'Zona 10')).id;
  const manager = await createTestUser(t.db, {
    role: 'manager',
    organizationId: shop.organization.id,
    accountIds: [account],
    language: 'es',
  });
  return { ...shop, account, other, manager };
}

describe('the mailed close', () => {
  let t: TestApp;
  let inbox: SmtpInbox;
  const clock = createTestClock(gt('2026-11-27T08:00:00'));

  beforeAll(async () => {
    inbox = await startSmtpInbox();
    t = await createTestApp({ SMTP_URL: inbox.url }, { clock, jobPollIntervalMs: 100 });
  });

  afterEach(async () => {
    // Each test counts the mails its own schedules queue.
    await sql`delete from close_schedules`.execute(t.db);
  });

  afterAll(async () => {
    await t?.close();
    await inbox?.close();
  });

  it('arrives at the closing time, local, once, to the admin and the linked managers', async () => {
    const shop = await openShop(t, 'Café Cierre');
    const sale = await recordSale(t, shop.organization.id, {
      at: gt('2026-11-27T10:00:00'),
      bill: 5000n,
      accountId: shop.account,
      bptId: null,
    });
    // A sale on an account the manager is not linked to: in the admin's close only.
    await recordSale(t, shop.organization.id, {
      at: gt('2026-11-27T11:00:00'),
      bill: 700n,
      accountId: shop.other,
      bptId: null,
    });
    const created = await t.app.inject({
      method: 'POST',
      url: '/api/close/schedules',
      headers: shop.admin,
      payload: { account: 'all', frequency: 'daily', time: '18:30', managers: true },
    });
    expect(created.statusCode, created.body).toBe(201);
    expect(created.json<CloseSchedule>()).toMatchObject({
      account: 'all',
      frequency: 'daily',
      time: '18:30',
      managers: true,
      email: shop.user.email,
    });
    const since = inbox.mails.length;

    expect(await queueCloseReports(t.db, gt('2026-11-27T18:29:59'))).toBe(0);
    // 18:30 in Guatemala is 00:30 the next day in UTC: the close is still of the 27th.
    expect(await queueCloseReports(t.db, gt('2026-11-27T18:30:00'))).toBe(2);
    const toAdmin = await inbox.waitForMail(shop.user.email, { since });
    expect(toAdmin.subject).toBe(`Daily close · Café Cierre · 2026-11-27 (America/Guatemala)`);
    expect(toAdmin.text).toContain('All accounts: 2 sales, gross 63.84 GTQ');
    expect(toAdmin.text).toContain(`Antigua: 1 sales, gross ${(Number(sale.totalMinor) / 100).toFixed(2)} GTQ`);
    expect(toAdmin.text).toContain('Zona 10: 1 sales');
    const toManager = await inbox.waitForMail(shop.manager.email, { since });
    expect(toManager.subject).toBe('Corte de caja diario · Café Cierre · 2026-11-27 (America/Guatemala)');
    expect(toManager.text).toContain('Todas las cuentas: 1 ventas, bruto 56.00 GTQ');
    expect(toManager.text).not.toContain('Zona 10');

    // Found due again, by this server or another: not mailed again.
    expect(await queueCloseReports(t.db, gt('2026-11-27T18:31:00'))).toBe(0);
    expect(await queueCloseReports(t.db, gt('2026-11-27T23:59:00'))).toBe(0);
    // The next day's close, at the next closing time.
    expect(await queueCloseReports(t.db, gt('2026-11-28T18:29:00'))).toBe(0);
    expect(await queueCloseReports(t.db, gt('2026-11-28T18:30:00'))).toBe(2);
    const next = await inbox.waitForMail(shop.user.email, { since: since + 2 });
    expect(next.subject).toBe('Daily close · Café Cierre · 2026-11-28 (America/Guatemala)');
    expect(next.text).toContain('All accounts: 0 sales');
  });

  it('mails a weekly close on Sunday and a monthly one on the month’s last day, not before', async () => {
    const shop = await openShop(t, 'Semana');
    await t.app.inject({
      method: 'POST',
      url: '/api/close/schedules',
      headers: shop.admin,
      payload: { account: shop.account, frequency: 'weekly', time: '20:00' },
    });
    await t.app.inject({
      method: 'POST',
      url: '/api/close/schedules',
      headers: shop.admin,
      payload: { account: shop.account, frequency: 'monthly', time: '21:00' },
    });
    const since = inbox.mails.length;
    // Saturday the 28th and Sunday before closing time: nothing.
    expect(await queueCloseReports(t.db, gt('2026-11-28T22:00:00'))).toBe(0);
    expect(await queueCloseReports(t.db, gt('2026-11-29T19:59:00'))).toBe(0);
    expect(await queueCloseReports(t.db, gt('2026-11-29T20:00:00'))).toBe(1);
    const weekly = await inbox.waitForMail(shop.user.email, { since });
    expect(weekly.subject).toBe('Weekly close · Semana · 2026-11-23 to 2026-11-29 (America/Guatemala)');
    expect(await queueCloseReports(t.db, gt('2026-11-30T20:59:00'))).toBe(0);
    expect(await queueCloseReports(t.db, gt('2026-11-30T21:00:00'))).toBe(1);
    const monthly = await inbox.waitForMail(shop.user.email, { since: since + 1 });
    expect(monthly.subject).toBe('Monthly close · Semana · 2026-11-01 to 2026-11-30 (America/Guatemala)');
  });

  it('reads the closing time on the clock of a zone ahead of UTC', async () => {
    const shop = await openShop(t, 'Chai');
    await sql`update organizations set time_zone = 'Asia/Kolkata' where id = ${shop.organization.id}`.execute(t.db);
    await t.app.inject({
      method: 'POST',
      url: '/api/close/schedules',
      headers: shop.admin,
      payload: { account: 'all', frequency: 'daily', time: '00:30' },
    });
    const since = inbox.mails.length;
    // 00:30 on the 29th in India is 19:00 on the 28th in UTC.
    expect(await queueCloseReports(t.db, new Date('2026-11-28T18:59:00Z'))).toBe(0);
    expect(await queueCloseReports(t.db, new Date('2026-11-28T19:00:00Z'))).toBe(1);
    const mail = await inbox.waitForMail(shop.user.email, { since });
    expect(mail.subject).toBe('Daily close · Chai · 2026-11-29 (Asia/Kolkata)');
  });

  it('lets admins list and stop schedules, and refuses managers and other organizations', async () => {
    const shop = await openShop(t, 'Listas');
    const other = await openShop(t, 'Otra');
    const created = await t.app.inject({
      method: 'POST',
      url: '/api/close/schedules',
      headers: shop.admin,
      payload: { account: shop.account, frequency: 'daily', time: '07:05' },
    });
    const { id } = created.json<CloseSchedule>();
    const list = await t.app.inject({ method: 'GET', url: '/api/close/schedules', headers: shop.admin });
    expect(list.json<CloseScheduleList>().schedules.map((s) => [s.id, s.account, s.time])).toEqual([
      [id, shop.account, '07:05'],
    ]);
    const manager = bearer((await signIn(t.app, shop.manager.email, shop.manager.password)).accessToken);
    const asManager = await t.app.inject({ method: 'GET', url: '/api/close/schedules', headers: manager });
    expect(asManager.statusCode).toBe(403);
    const foreignAccount = await t.app.inject({
      method: 'POST',
      url: '/api/close/schedules',
      headers: shop.admin,
      payload: { account: other.account, frequency: 'daily', time: '07:05' },
    });
    expect(foreignAccount.statusCode).toBe(400);
    for (const time of ['24:00', '7:05', '07:60']) {
      const bad = await t.app.inject({
        method: 'POST',
        url: '/api/close/schedules',
        headers: shop.admin,
        payload: { account: 'all', frequency: 'daily', time },
      });
      expect(bad.statusCode, time).toBe(400);
      expect(bad.json()).toMatchObject({ code: 'InvalidInput' });
    }
    const foreign = await t.app.inject({ method: 'DELETE', url: `/api/close/schedules/${id}`, headers: other.admin });
    expect(foreign.statusCode).toBe(404);
    const removed = await t.app.inject({ method: 'DELETE', url: `/api/close/schedules/${id}`, headers: shop.admin });
    expect(removed.statusCode).toBe(204);
    expect(await queueCloseReports(t.db, gt('2026-11-27T07:05:00'))).toBe(0);
  });
});

describe('a mailed close that fails', () => {
  let t: TestApp;
  let inbox: SmtpInbox | undefined;
  let port: number;

  beforeAll(async () => {
    port = await freePort();
    // Nothing listens on the port yet: the mail server is down.
    t = await createTestApp(
      { SMTP_URL: `smtp://127.0.0.1:${port}` },
      { clock: createTestClock(gt('2026-11-27T08:00:00')), jobPollIntervalMs: 100 },
    );
  });

  afterAll(async () => {
    await t?.close();
    await inbox?.close();
  });

  it('is retried until it is sent, and back office is told once', async () => {
    const shop = await openShop(t, 'Caída');
    const created = await t.app.inject({
      method: 'POST',
      url: '/api/close/schedules',
      headers: shop.admin,
      payload: { account: 'all', frequency: 'daily', time: '18:30' },
    });
    const { id } = created.json<CloseSchedule>();
    expect(await queueCloseReports(t.db, gt('2026-11-27T18:30:00'))).toBe(1);

    const failures = async () =>
      (await listNotifications(t.db, { organizationId: shop.organization.id })).filter(
        (notice) => notice.kind === 'close.report_failed',
      );
    const notices = await waitFor(async () => {
      const rows = await failures();
      return rows.length > 0 ? rows : undefined;
    });
    expect(notices.map((notice) => [notice.kind, notice.payload])).toEqual([
      ['close.report_failed', { scheduleId: id, lastDay: '2026-11-27', to: shop.user.email, frequency: 'daily' }],
    ]);
    // The job waits for its next try, with the error kept.
    const job = await sql<{ attempts: number; last_error: string | null }>`
      select attempts, last_error from graphile_worker.jobs where task_identifier = 'send-close-report'`.execute(t.db);
    expect(job.rows[0]?.attempts).toBeGreaterThanOrEqual(1);
    expect(job.rows[0]?.last_error).toContain('could not be sent');

    inbox = await startSmtpInbox({ port });
    const mail = await inbox.waitForMail(shop.user.email, { timeoutMs: 30_000 });
    expect(mail.subject).toBe('Daily close · Caída · 2026-11-27 (America/Guatemala)');
    const run = await waitFor(async () => {
      const rows = await sql<{
        sent_at: Date | null;
      }>`select sent_at from close_report_runs where schedule_id = ${id}`.execute(t.db);
      return rows.rows[0]?.sent_at ?? undefined;
    });
    expect(run).toBeInstanceOf(Date);
    expect(await failures()).toHaveLength(1);
  });
});
