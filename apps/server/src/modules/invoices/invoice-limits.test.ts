import type { Bpt, ErrorResponse, Invoice, TransactionSums } from '@rayo/shared';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  bearer,
  createTestAccount,
  createTestApp,
  createTestOrganization,
  createTestUser,
  signIn,
  type TestApp,
} from '../../../test/test-app.ts';
import { waitFor } from '../../../test/wait-for.ts';

/**
 * Amounts and tips past what a sale can be: refused with InvalidAmount or InvalidTip before an
 * invoice exists, rather than a payable invoice that answers 500 and, once paid, breaks every
 * dashboard sum of its organization.
 */

let t: TestApp;
let admin: { authorization: string };
let gtq: Bpt;
let sats: Bpt;

async function newBpt(name: string, currency: string, accountId: string): Promise<Bpt> {
  const payload = { name, accountId, currency, tipEnabled: true, taxPercentage: 12 };
  return (await t.app.inject({ method: 'POST', url: '/api/bpts', headers: admin, payload })).json<Bpt>();
}

function charge(bpt: Bpt, payload: object) {
  return t.app.inject({ method: 'POST', url: `/api/bpts/${bpt.id}/invoices`, headers: admin, payload });
}

async function ledgerCounts() {
  const { rows } = await sql<{ invoices: string; transactions: string; days: string }>`
    select (select count(*) from invoices) as invoices, (select count(*) from transactions) as transactions,
      (select count(*) from transaction_daily) as days`.execute(t.db);
  return rows[0];
}

beforeAll(async () => {
  // GTQ at Q730,000 per bitcoin: 1 BTC is Q730,000, with the 12 % tax Q651,785.72 of bill.
  t = await createTestApp({ FIXED_RATES: 'GTQ=730000' }, { jobs: true });
  const organization = await createTestOrganization(t.db);
  const account = await createTestAccount(t.db, organization.id, 'Counter');
  const user = await createTestUser(t.db, { role: 'admin', organizationId: organization.id });
  admin = bearer((await signIn(t.app, user.email, user.password)).accessToken);
  gtq = await newBpt('Till', 'GTQ', account.id);
  sats = await newBpt('Sats', 'SAT', account.id);
});
afterAll(() => t.close());

describe('the limits of one sale', () => {
  it.each([
    ['more than 1 BTC', { amount: '651786.00' }, 'InvalidAmount'],
    ['the most digits the keypad takes', { amount: '999999999999999.99' }, 'InvalidAmount'],
    ['more digits than that', { amount: '9999999999999999' }, 'InvalidAmount'],
    ['an exponent', { amount: '1e9' }, 'InvalidAmount'],
    ['a negative amount', { amount: '-1' }, 'InvalidAmount'],
    ['Infinity', { amount: 'Infinity' }, 'InvalidAmount'],
    ['NaN', { amount: 'NaN' }, 'InvalidAmount'],
    ['a fraction of the minor unit', { amount: '1.001' }, 'InvalidAmount'],
    ['a number instead of a decimal string', { amount: 1e21 }, 'InvalidAmount'],
    ['a tip larger than the bill', { amount: '50.00', tip: '999999' }, 'InvalidTip'],
    ['a tip one cent over the bill', { amount: '50.00', tip: '50.01' }, 'InvalidTip'],
  ])('refuses %s, storing nothing', async (_, payload, code) => {
    const before = await ledgerCounts();
    const response = await charge(gtq, payload);
    expect(response.statusCode, response.body).toBe(400);
    expect(response.json<ErrorResponse>().code).toBe(code);
    expect(await ledgerCounts()).toEqual(before);
  });

  it('refuses more than 100,000,000 sats on a terminal priced in sats', async () => {
    // With the 12 % tax, 89,285,715 sats of bill is 100,000,001 sats in all.
    const response = await charge(sats, { amount: '89285715' });
    expect(response.json<ErrorResponse>()).toEqual({
      code: 'InvalidAmount',
      message: 'An invoice may charge at most 100,000,000 sats',
    });
  });

  it('refuses the sale that used to be a payable invoice answering 500, so none is left to pay', async () => {
    // 10^13 sats is past 2^53 msat: the invoice was stored, then its answer failed to serialize.
    const response = await charge(sats, { amount: '10000000000000' });
    expect(response.statusCode, response.body).toBe(400);
    const stored = await t.db.selectFrom('invoices').select('id').where('amount_msat', '>', '100000000000').execute();
    expect(stored).toEqual([]);
  });

  it('takes a tip as large as the bill, and a sale of up to 1 BTC', async () => {
    expect((await charge(gtq, { amount: '50.00', tip: '50.00' })).statusCode).toBe(201);
    const largest = await charge(sats, { amount: '89285714' });
    expect(largest.statusCode, largest.body).toBe(201);
    expect(largest.json<Invoice>().amountMsat).toBe(100_000_000_000);
  });

  it('keeps the dashboard answering after the largest invoices are paid', async () => {
    for (let i = 0; i < 3; i++) {
      const invoice = (await charge(gtq, { amount: '651785.71' })).json<Invoice>();
      expect(invoice.amountMsat).toBeLessThanOrEqual(100_000_000_000);
      const paid = await t.app.inject({
        method: 'POST',
        url: '/api/devnet/pay',
        payload: { paymentRequest: invoice.paymentRequest },
      });
      expect(paid.statusCode, paid.body).toBe(200);
    }
    await waitFor(async () => Number((await ledgerCounts())?.transactions) >= 3);
    expect(Number((await ledgerCounts())?.transactions)).toBe(3);
    for (const path of ['', '/sum', '/series']) {
      const response = await t.app.inject({ method: 'GET', url: `/api/dashboard/transactions${path}`, headers: admin });
      expect(response.statusCode, `${path}: ${response.body}`).toBe(200);
    }
    const sums = (
      await t.app.inject({ method: 'GET', url: '/api/dashboard/transactions/sum', headers: admin })
    ).json<TransactionSums>();
    expect(sums.receiveMsat).toBe(300_000_000_000);
  });
});
