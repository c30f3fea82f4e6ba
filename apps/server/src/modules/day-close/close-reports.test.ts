import type { CloseSchedule, CloseScheduleList } from '@rayo/shared';
import { sql } from 'kysely';
import pino from 'pino';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { type ReceivedMail, type SmtpInbox, startSmtpInbox } from '../../../test/fakes/smtp-inbox.ts';
import { readPdf } from '../../../test/pdf-text.ts';
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
import { createMailer } from '../../adapters/mail/mailer.ts';
import { freePort } from '../../ports.ts';
import { listAuditEntries } from '../audit/audit.repo.ts';
import { listNotifications } from '../notifications/notifications.repo.ts';
import { CLOSE_CATCH_UP_PERIODS, claimCloseReportRun } from './close-schedules.repo.ts';
import { CLOSE_REPORT_CLAIM_LEASE_MS, queueCloseReports, sendCloseReport } from './close-schedules.service.ts';

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

/** The mails to `to` after `since`, once `count` of them have arrived, in the order they arrived. */
async function mailsTo(inbox: SmtpInbox, to: string, count: number, since: number): Promise<ReceivedMail[]> {
  return waitFor(async () => {
    const mails = inbox.mails.slice(since).filter((mail) => mail.to.includes(to.toLowerCase()));
    return mails.length >= count ? mails : undefined;
  });
}

function attachment(mail: ReceivedMail, filename: string): Buffer {
  const file = mail.attachments.find((candidate) => candidate.filename === filename);
  if (!file) throw new Error(`no ${filename} in ${mail.attachments.map((f) => f.filename).join(', ')}`);
  return file.content;
}

describe('the mailed close', () => {
  let t: TestApp;
  let inbox: SmtpInbox;
  const clock = createTestClock(gt('2026-11-27T08:00:00'));

  beforeAll(async () => {
    inbox = await startSmtpInbox();
    t = await createTestApp({ SMTP_URL: inbox.url }, { jobs: true, clock, jobPollIntervalMs: 100 });
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

    // The CSV and the PDF ride along: the very files the downloads give, the PDF in the reader's language.
    const download = await t.app.inject({ method: 'GET', url: '/api/close/csv?day=2026-11-27', headers: shop.admin });
    const csv = attachment(toAdmin, 'close_2026-11-27.csv').toString('utf8');
    expect(csv).toBe(download.body);
    const csvLines = csv.split('\r\n');
    expect(csvLines[0]).toBe(
      'Section,Account,Terminal,Method,Hour,Currency,Sales,Gross,Tips,Tax,Refunds,Gross (msat),Fees (msat),Refunds (msat),Net (msat)',
    );
    expect(csvLines[1]).toMatch(/^total,,,,,GTQ,2,63\.84,/);
    expect(csvLines.filter((line) => line.startsWith('account,'))).toEqual([
      expect.stringMatching(/^account,Antigua,,,,GTQ,1,56\.00,/),
      expect.stringMatching(/^account,Zona 10,,,,GTQ,1,7\.84,/),
    ]);
    expect(csvLines.at(-1)).toBe('');
    const adminPdf = await readPdf(attachment(toAdmin, 'close_2026-11-27.pdf'));
    expect(adminPdf.language).toBe('en');
    expect(adminPdf.text[0]).toContain('End-of-day close · Café Cierre');
    expect(adminPdf.text[0]).toContain('Zona 10');
    const managerPdf = await readPdf(attachment(toManager, 'close_2026-11-27.pdf'));
    expect(managerPdf.language).toBe('es');
    expect(managerPdf.text[0]).toContain('Corte de caja · Café Cierre');
    expect(managerPdf.text[0]).toContain('Por método de pago');
    expect(managerPdf.text[0]).not.toContain('Zona 10');
    const managerCsv = attachment(toManager, 'close_2026-11-27.csv').toString('utf8').split('\r\n');
    expect(managerCsv[1]).toMatch(/^total,,,,,GTQ,1,56\.00,/);
    // One Message-ID per schedule, period and recipient, the same however often it is sent.
    const { id: scheduleId } = created.json<CloseSchedule>();
    expect(toAdmin.headers['message-id']).toBe(`<close.${scheduleId}.2026-11-27.${shop.user.id}@rayo.local>`);
    expect(toAdmin.headers['x-rayo-repeat']).toBeUndefined();
    expect(toAdmin.subject).not.toContain('Late');
    // The plain text stays; an HTML version of it rides along, in the same language.
    expect(toAdmin.html).toContain('<html lang="en">');
    expect(toAdmin.html).toContain('All accounts</td>');
    expect(toAdmin.html).toContain('2 sales, gross 63.84 GTQ');
    expect(toManager.html).toContain('<html lang="es">');
    expect(toManager.html).toContain('1 ventas, bruto 56.00 GTQ');

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
    // 00:30 on the 28th in India is 19:00 on the 27th in UTC.
    expect(await queueCloseReports(t.db, new Date('2026-11-27T18:59:00Z'))).toBe(0);
    expect(await queueCloseReports(t.db, new Date('2026-11-27T19:00:00Z'))).toBe(1);
    const mail = await inbox.waitForMail(shop.user.email, { since });
    expect(mail.subject).toBe('Daily close · Chai · 2026-11-28 (Asia/Kolkata)');
  });

  it('catches up closing times missed by every server, each once, in order, marked late', async () => {
    const shop = await openShop(t, 'Apagón');
    const created = await t.app.inject({
      method: 'POST',
      url: '/api/close/schedules',
      headers: shop.admin,
      payload: { account: 'all', frequency: 'daily', time: '18:30' },
    });
    const { id } = created.json<CloseSchedule>();
    // Made on the 24th; no server ran from then until the morning of the 27th.
    await sql`update close_schedules set created_at = ${gt('2026-11-24T09:00:00')} where id = ${id}`.execute(t.db);
    const since = inbox.mails.length;
    expect(await queueCloseReports(t.db, gt('2026-11-27T09:00:00'))).toBe(3);
    // A second server coming back at the same time finds nothing left.
    expect(await queueCloseReports(t.db, gt('2026-11-27T09:01:00'))).toBe(0);
    const late = await mailsTo(inbox, shop.user.email, 3, since);
    expect(late.map((mail) => mail.subject)).toEqual(
      ['24', '25', '26'].map((day) => `Late: Daily close · Apagón · 2026-11-${day} (America/Guatemala)`),
    );
    expect(late[0]?.text).toContain(
      'Late: this close was due at 18:30 on 2026-11-24 (America/Guatemala), when no Rayo server was running.',
    );
    // The day's own close, on time, is not late.
    expect(await queueCloseReports(t.db, gt('2026-11-27T18:30:00'))).toBe(1);
    const [onTime] = await mailsTo(inbox, shop.user.email, 4, since).then((mails) => mails.slice(3));
    expect(onTime?.subject).toBe('Daily close · Apagón · 2026-11-27 (America/Guatemala)');
    expect(onTime?.text).not.toContain('Late');
  });

  it('catches up no more than the latest periods after months without a server', async () => {
    const shop = await openShop(t, 'Meses');
    const daily = await t.app.inject({
      method: 'POST',
      url: '/api/close/schedules',
      headers: shop.admin,
      payload: { account: 'all', frequency: 'daily', time: '06:00' },
    });
    const monthly = await t.app.inject({
      method: 'POST',
      url: '/api/close/schedules',
      headers: shop.admin,
      payload: { account: 'all', frequency: 'monthly', time: '06:00' },
    });
    const ids = [daily.json<CloseSchedule>().id, monthly.json<CloseSchedule>().id];
    await sql`update close_schedules set created_at = ${gt('2025-01-15T00:00:00')} where id = any(${ids})`.execute(
      t.db,
    );
    const since = inbox.mails.length;
    // 2026-11-28 06:00 has not come yet: the latest daily period is the 27th, the latest monthly October.
    expect(await queueCloseReports(t.db, gt('2026-11-28T05:00:00'))).toBe(2 * CLOSE_CATCH_UP_PERIODS);
    const runs = await sql<{ schedule_id: string; last_day: string; late: boolean }>`
      select schedule_id, last_day::text, late from close_report_runs where schedule_id = any(${ids})
      order by schedule_id = ${ids[0]} desc, last_day`.execute(t.db);
    expect(runs.rows.map((run) => run.last_day)).toEqual([
      ...['21', '22', '23', '24', '25', '26', '27'].map((day) => `2026-11-${day}`),
      ...['2026-04-30', '2026-05-31', '2026-06-30', '2026-07-31', '2026-08-31', '2026-09-30', '2026-10-31'],
    ]);
    expect(runs.rows.every((run) => run.late)).toBe(true);
    // The periods left out stay out: later passes do not work back through them.
    expect(await queueCloseReports(t.db, gt('2026-11-28T05:30:00'))).toBe(0);
    expect(await queueCloseReports(t.db, gt('2026-11-28T06:00:00'))).toBe(1);
    await mailsTo(inbox, shop.user.email, 2 * CLOSE_CATCH_UP_PERIODS + 1, since);
  });

  it('claims a mail before sending it, and marks a second sending after a crash as a possible repeat', async () => {
    const shop = await openShop(t, 'Corte <&>');
    const created = await t.app.inject({
      method: 'POST',
      url: '/api/close/schedules',
      headers: shop.admin,
      payload: { account: 'all', frequency: 'daily', time: '18:30' },
    });
    const key = { scheduleId: created.json<CloseSchedule>().id, lastDay: '2026-11-20', userId: shop.user.id };
    // Written as a pass writes it, but with no job: this test plays the senders.
    await sql`insert into close_report_runs (schedule_id, last_day, user_id)
      values (${key.scheduleId}, ${key.lastDay}, ${key.userId})`.execute(t.db);
    const at = gt('2026-11-27T19:00:00');
    // Two senders at once: one claim wins.
    const claims = await Promise.all([
      claimCloseReportRun(t.db, key, at, CLOSE_REPORT_CLAIM_LEASE_MS),
      claimCloseReportRun(t.db, key, at, CLOSE_REPORT_CLAIM_LEASE_MS),
    ]);
    expect(claims.sort()).toEqual([1, undefined]);
    // The winner handed the mail over and died before writing sent_at. Within its lease, a retry sends nothing.
    const mailer = createMailer(t.config, pino({ level: 'silent' }));
    const since = inbox.mails.length;
    let now = new Date(at.getTime() + 60_000);
    const deps = { db: t.db, mailer, clock: () => now };
    await expect(sendCloseReport(deps, key, 2)).rejects.toThrow('being sent by another try');
    // After it, the retry sends the mail again, with the same Message-ID and marked as a possible repeat.
    now = new Date(at.getTime() + CLOSE_REPORT_CLAIM_LEASE_MS);
    await sendCloseReport(deps, key, 3);
    const [again] = await mailsTo(inbox, shop.user.email, 1, since);
    expect(again?.headers['message-id']).toBe(`<close.${key.scheduleId}.2026-11-20.${key.userId}@rayo.local>`);
    expect(again?.headers['x-rayo-repeat']).toBe('yes');
    expect(again?.text).toContain('This mail may repeat one already sent: an earlier sending was cut short.');
    // A name typed by people is text in the HTML, never markup.
    expect(again?.html).toContain('Corte &lt;&amp;&gt; · 2026-11-20');
    expect(again?.html).not.toContain('Corte <&>');
    // Sent is sent: no third mail.
    await sendCloseReport(deps, key, 4);
    expect(await claimCloseReportRun(t.db, key, new Date(at.getTime() + 86_400_000), CLOSE_REPORT_CLAIM_LEASE_MS)).toBe(
      undefined,
    );
    expect(inbox.mails.slice(since).filter((mail) => mail.to.includes(shop.user.email))).toHaveLength(1);
    mailer.close();
  });

  it('audits who added and stopped a schedule, and what it was', async () => {
    const shop = await openShop(t, 'Auditoría');
    const created = await t.app.inject({
      method: 'POST',
      url: '/api/close/schedules',
      headers: shop.admin,
      remoteAddress: '198.51.100.7',
      payload: { account: shop.account, frequency: 'weekly', time: '21:15', managers: true },
    });
    const { id } = created.json<CloseSchedule>();
    const removed = await t.app.inject({
      method: 'DELETE',
      url: `/api/close/schedules/${id}`,
      headers: shop.admin,
      remoteAddress: '198.51.100.7',
    });
    expect(removed.statusCode).toBe(204);
    const schedule = {
      account: shop.account,
      frequency: 'weekly',
      time: '21:15',
      managers: true,
      email: shop.user.email,
    };
    const common = {
      actor_user_id: shop.user.id,
      actor_email: shop.user.email,
      target: `close_schedule:${id}`,
      ip: '198.51.100.7',
    };
    const rows = (await listAuditEntries(t.db, { organizationId: shop.organization.id }))
      .filter((row) => row.target === `close_schedule:${id}`)
      .reverse();
    expect(rows).toEqual([
      expect.objectContaining({ ...common, action: 'close.schedule_created', before: null, after: schedule }),
      expect.objectContaining({ ...common, action: 'close.schedule_deleted', before: schedule, after: null }),
    ]);
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
      { jobs: true, clock: createTestClock(gt('2026-11-27T08:00:00')), jobPollIntervalMs: 100 },
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
