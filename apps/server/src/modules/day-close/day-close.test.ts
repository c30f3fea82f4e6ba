import { type DayClose, formatMinor } from '@rayo/shared';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readPdf } from '../../../test/pdf-text.ts';
import { type Recorded, recordSale, type Sale, terminal } from '../../../test/record-sale.ts';
import {
  bearer,
  createTestAccount,
  createTestApp,
  createTestUser,
  openTestShop,
  signIn,
  type TestApp,
} from '../../../test/test-app.ts';
import { insertBpt } from '../bpts/bpts.repo.ts';

type Headers = { authorization: string };
/** The figures the close must show for these sales, worked out from the fixture. */
function expected(sales: Recorded[]) {
  const sum = (pick: (sale: Recorded) => bigint) => sales.reduce((total, sale) => total + pick(sale), 0n);
  return {
    count: sales.length,
    gross: formatMinor(
      sum((sale) => sale.totalMinor),
      'GTQ',
    ),
    tips: formatMinor(
      sum((sale) => sale.tipMinor),
      'GTQ',
    ),
    tax: formatMinor(
      sum((sale) => sale.taxMinor),
      'GTQ',
    ),
    refunds: '0.00',
    grossMsat: Number(sum((sale) => sale.totalMsat)),
    refundsMsat: 0,
  };
}

describe('end-of-day close', () => {
  let t: TestApp;
  let admin: Headers;
  let manager: Headers;
  let organizationId: string;
  let accountA: string;
  let accountB: string;
  let bptA: string;
  let bptB: string;

  const get = (url: string, headers: Headers = admin) => t.app.inject({ method: 'GET', url, headers });
  const close = async (query: string, headers: Headers = admin) => {
    const response = await get(`/api/close?${query}`, headers);
    expect(response.statusCode, response.body).toBe(200);
    return response.json<DayClose>();
  };

  beforeAll(async () => {
    t = await createTestApp({}, { jobs: false });
    const shop = await openTestShop(t, 'Café del Cierre');
    admin = shop.admin;
    organizationId = shop.organization.id;
    await sql`update organizations set currency = 'GTQ' where id = ${organizationId}`.execute(t.db);
    accountA = (await createTestAccount(t.db, organizationId, 'Antigua')).id;
    accountB = (await createTestAccount(t.db, organizationId, '=Zona 10')).id;
    bptA = await insertBpt(t.db, organizationId, terminal(accountA, 'Caja 1'));
    bptB = await insertBpt(t.db, organizationId, terminal(accountB, 'Caja 2'));
    const user = await createTestUser(t.db, { role: 'manager', organizationId, accountIds: [accountA] });
    manager = bearer((await signIn(t.app, user.email, user.password)).accessToken);
  });

  afterAll(async () => {
    await t?.close();
  });

  describe('in Guatemala (UTC−6 all year)', () => {
    let day: Recorded[];
    beforeAll(async () => {
      const at = (local: string) => new Date(`${local}-06:00`);
      const sale = (s: Sale) => recordSale(t, organizationId, s);
      // The day's edges, and evening sales that are already the next day in UTC.
      await sale({ at: at('2026-11-26T23:59:59'), bill: 1000n, accountId: accountA, bptId: bptA });
      day = [
        await sale({ at: at('2026-11-27T00:00:00'), bill: 2000n, tip: 200n, accountId: accountA, bptId: bptA }),
        await sale({ at: at('2026-11-27T09:15:00'), bill: 1234n, accountId: accountA, bptId: bptA, onchain: true }),
        await sale({ at: at('2026-11-27T09:45:00'), bill: 500n, tip: 50n, accountId: accountB, bptId: bptB }),
        await sale({ at: at('2026-11-27T18:30:00'), bill: 8800n, accountId: accountA, bptId: null }),
        await sale({ at: at('2026-11-27T23:59:59'), bill: 999n, accountId: accountB, bptId: bptB }),
      ];
      await sale({ at: at('2026-11-28T00:00:00'), bill: 4000n, accountId: accountB, bptId: bptB });
    });

    it('sums the local day, by account, terminal, payment method and hour', async () => {
      const result = await close('day=2026-11-27');
      expect(result).toMatchObject({
        from: '2026-11-27',
        to: '2026-11-27',
        timeZone: 'America/Guatemala',
        currency: 'GTQ',
      });
      expect(result.totals).toMatchObject(expected(day));
      expect(result.totals.netMsat).toBe(result.totals.grossMsat - result.totals.feesMsat);
      expect(result.totals.feesMsat).toBeGreaterThan(0);
      const [a, b] = [day.filter((s) => s.accountId === accountA), day.filter((s) => s.accountId === accountB)];
      expect(result.byAccount.map((account) => [account.name, account.figures.count])).toEqual([
        ['=Zona 10', 2],
        ['Antigua', 3],
      ]);
      expect(result.byAccount[1]?.figures).toMatchObject(expected(a));
      expect(result.byAccount[0]?.figures).toMatchObject(expected(b));
      expect(result.byAccount[1]?.byBpt.map((bpt) => [bpt.bptId, bpt.name, bpt.figures.count])).toEqual([
        [null, '', 1],
        [bptA, 'Caja 1', 2],
      ]);
      expect(result.byMethod.onchain).toMatchObject(expected(day.filter((s) => s.onchain)));
      expect(result.byMethod.lightning).toMatchObject(expected(day.filter((s) => !s.onchain)));
      expect(result.byHour.map((hour) => [hour.hour, hour.figures.count])).toEqual([
        [0, 1],
        [9, 2],
        [18, 1],
        [23, 1],
      ]);
    });

    it('counts a refund on the account, terminal and method of its sale, in the hour it was made', async () => {
      const sale = day[2] as Recorded;
      const refunded = await t.app.inject({
        method: 'POST',
        url: `/api/transactions/${sale.transactionId}/refunds`,
        headers: admin,
        payload: { amountMsat: 500_000, idempotencyKey: 'close-refund-1' },
      });
      expect(refunded.statusCode, refunded.body).toBe(200);
      const { fiatAmount } = refunded.json<{ fiatAmount: string }>();
      // Made at 21:10 on the day, whatever the clock says as the test runs.
      await sql`update refunds set created_at = ${new Date('2026-11-27T21:10:00-06:00')}
      where transaction_id = ${sale.transactionId}`.execute(t.db);
      const result = await close('day=2026-11-27');
      expect(result.totals).toMatchObject({ ...expected(day), refunds: fiatAmount, refundsMsat: 500_000 });
      expect(result.totals.netMsat).toBe(result.totals.grossMsat - result.totals.feesMsat - 500_000);
      const account = result.byAccount.find((a) => a.accountId === sale.accountId);
      expect(account?.byBpt.find((b) => b.bptId === sale.bptId)?.figures.refundsMsat).toBe(500_000);
      expect(result.byMethod.lightning.refundsMsat).toBe(500_000);
      expect(result.byHour.find((hour) => hour.hour === 21)?.figures).toMatchObject({
        count: 0,
        refundsMsat: 500_000,
      });
      const dayAfter = await close('day=2026-11-28');
      expect(dayAfter.totals.refundsMsat).toBe(0);
      await sql`delete from refunds where transaction_id = ${sale.transactionId}`.execute(t.db);
    });

    it('narrows to one terminal', async () => {
      const result = await close(`day=2026-11-27&bpt=${bptB}`);
      expect(result.totals).toMatchObject(expected(day.filter((s) => s.bptId === bptB)));
      expect(result.byAccount.map((account) => account.name)).toEqual(['=Zona 10']);
    });

    it('shows a manager the accounts linked to them, and refuses the others', async () => {
      const mine = await close('day=2026-11-27', manager);
      expect(mine.totals).toMatchObject(expected(day.filter((s) => s.accountId === accountA)));
      for (const query of [`account=${accountB}`, `bpt=${bptB}`, `account=${accountA}&bpt=${bptB}`]) {
        const response = await get(`/api/close?day=2026-11-27&${query}`, manager);
        expect(response.statusCode, query).toBe(403);
        expect(response.json()).toMatchObject({ code: 'Forbidden' });
      }
      const admins = await get(`/api/close?day=2026-11-27&account=${accountA}&bpt=${bptB}`);
      expect(admins.statusCode).toBe(403);
    });

    it('refuses a day that is not a calendar day', async () => {
      for (const bad of ['2026-02-30', '27-11-2026', '']) {
        const response = await get(`/api/close?day=${bad}`);
        expect(response.statusCode, bad).toBe(400);
        expect(response.json()).toMatchObject({ code: 'InvalidInput' });
      }
    });

    it('writes the close as CSV, names kept from running as formulas', async () => {
      const response = await get('/api/close/csv?day=2026-11-27');
      expect(response.statusCode).toBe(200);
      expect(response.headers['content-type']).toBe('text/csv; charset=utf-8');
      expect(response.headers['content-disposition']).toBe('attachment; filename="close_2026-11-27.csv"');
      const lines = response.body.split('\r\n');
      expect(lines[0]).toBe(
        'Section,Account,Terminal,Method,Hour,Currency,Sales,Gross,Tips,Tax,Refunds,Gross (msat),Fees (msat),Refunds (msat),Net (msat)',
      );
      const totals = expected(day);
      const json = await close('day=2026-11-27');
      expect(lines[1]).toBe(
        `total,,,,,GTQ,5,${totals.gross},${totals.tips},${totals.tax},0.00,${totals.grossMsat},${json.totals.feesMsat},0,${json.totals.netMsat}`,
      );
      expect(lines[2]?.startsWith("account,'=Zona 10,,,,GTQ,2,")).toBe(true);
      expect(lines.filter((line) => line.startsWith('hour,')).map((line) => line.split(',')[4])).toEqual([
        '00:00',
        '09:00',
        '18:00',
        '23:00',
      ]);
      expect(lines.at(-1)).toBe('');
    });

    it('writes the close as a PDF any reader reads, in English and Spanish', async () => {
      const json = await close('day=2026-11-27');
      const english = await get('/api/close/pdf?day=2026-11-27');
      expect(english.statusCode).toBe(200);
      expect(english.headers['content-type']).toBe('application/pdf');
      expect(english.headers['content-disposition']).toBe('attachment; filename="close_2026-11-27.pdf"');
      const read = await readPdf(english.rawPayload);
      const text = read.text.join('\n');
      expect(read.language).toBe('en');
      expect(text).toContain('End-of-day close · Café del Cierre');
      expect(text).toContain('America/Guatemala');
      expect(text).toContain(json.totals.gross);
      expect(text).toContain(String(Math.floor(json.totals.netMsat / 1000)));
      expect(text).toContain('Caja 1');
      expect(text).toContain('On-chain');
      const spanish = await readPdf((await get('/api/close/pdf?day=2026-11-27&language=es')).rawPayload);
      expect(spanish.text.join('\n')).toContain('Corte de caja · Café del Cierre');
      expect(spanish.text.join('\n')).toContain('Por método de pago');
      const refused = await get(`/api/close/pdf?day=2026-11-27&account=${accountB}`, manager);
      expect(refused.statusCode).toBe(403);
    });
  });

  describe('in India (UTC+05:30): the local day starts the evening before in UTC', () => {
    it('counts the sales of the local day, not of the UTC day', async () => {
      const org = await openTestShop(t, 'Chai Stall');
      await sql`update organizations set time_zone = 'Asia/Kolkata', currency = 'GTQ' where id = ${org.organization.id}`.execute(
        t.db,
      );
      const account = (await createTestAccount(t.db, org.organization.id, 'Main')).id;
      const at = (local: string) => new Date(`${local}+05:30`);
      const sale = (local: string, bill: bigint) =>
        recordSale(t, org.organization.id, { at: at(local), bill, accountId: account, bptId: null });
      await sale('2026-11-26T23:59:00', 100n);
      const day = [await sale('2026-11-27T00:10:00', 700n), await sale('2026-11-27T05:29:00', 300n)];
      await sale('2026-11-28T00:00:00', 900n);
      const result = await close('day=2026-11-27', org.admin);
      expect(result.timeZone).toBe('Asia/Kolkata');
      expect(result.totals).toMatchObject(expected(day));
      expect(result.byHour.map((hour) => hour.hour)).toEqual([0, 5]);
    });
  });

  describe('on the days the clocks change (Europe/Madrid)', () => {
    it('shows the hour the clocks go back through as two, on screen, in the CSV and in the PDF', async () => {
      const org = await openTestShop(t, 'Horno');
      await sql`update organizations set time_zone = 'Europe/Madrid', currency = 'GTQ' where id = ${org.organization.id}`.execute(
        t.db,
      );
      const account = (await createTestAccount(t.db, org.organization.id, 'Sol')).id;
      const sale = (utc: string, bill: bigint) =>
        recordSale(t, org.organization.id, { at: new Date(utc), bill, accountId: account, bptId: null });
      // 02:30 twice on 25 October 2026: first in summer time (UTC+2), then in winter time (UTC+1).
      await sale('2026-10-25T00:30:00Z', 100n);
      await sale('2026-10-25T01:30:00Z', 200n);
      await sale('2026-10-25T01:45:00Z', 300n);
      await sale('2026-10-25T02:10:00Z', 400n);
      const result = await close('day=2026-10-25', org.admin);
      expect(result.byHour.map((hour) => [hour.hour, hour.fold, hour.repeated, hour.figures.count])).toEqual([
        [2, 0, true, 1],
        [2, 1, true, 2],
        [3, 0, false, 1],
      ]);
      const csv = (await get('/api/close/csv?day=2026-10-25', org.admin)).body.split('\r\n');
      expect(csv.filter((line) => line.startsWith('hour,')).map((line) => line.split(',').slice(4, 7))).toEqual([
        ['02:00 (1st)', 'GTQ', '1'],
        ['02:00 (2nd)', 'GTQ', '2'],
        ['03:00', 'GTQ', '1'],
      ]);
      const english = (await readPdf((await get('/api/close/pdf?day=2026-10-25', org.admin)).rawPayload)).text.join(
        '\n',
      );
      expect(english).toContain('02:00 (1st)');
      expect(english).toContain('02:00 (2nd)');
      const spanish = (
        await readPdf((await get('/api/close/pdf?day=2026-10-25&language=es', org.admin)).rawPayload)
      ).text.join('\n');
      expect(spanish).toContain('02:00 (1.ª)');
      expect(spanish).toContain('02:00 (2.ª)');
      // The day the clocks go forward has no 02:00: 01:59:59 is followed by 03:00.
      await sale('2026-03-29T00:59:59Z', 500n);
      await sale('2026-03-29T01:00:00Z', 600n);
      const forward = await close('day=2026-03-29', org.admin);
      expect(forward.byHour.map((hour) => [hour.hour, hour.fold, hour.repeated])).toEqual([
        [1, 0, false],
        [3, 0, false],
      ]);
    });
  });
});
