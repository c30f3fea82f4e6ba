import { randomBytes } from 'node:crypto';
import { computeSale, fiatToMsat } from '@rayo/shared';
import { expect } from 'vitest';
import { insertInvoice } from '../src/modules/invoices/invoices.repo.ts';
import { settleInvoice } from '../src/modules/ledger/settlement.service.ts';
import type { TestApp } from './test-app.ts';

const RATE = 750_000_00n;

/** A quetzal sale at a terminal (or none), with 12% tax, settled through the real settlement path. */
export type Sale = { at: Date; bill: bigint; tip?: bigint; accountId: string; bptId: string | null; onchain?: boolean };
export type Recorded = Sale & {
  transactionId: string;
  totalMinor: bigint;
  tipMinor: bigint;
  taxMinor: bigint;
  totalMsat: bigint;
};

export async function recordSale(t: TestApp, organizationId: string, sale: Sale): Promise<Recorded> {
  const figures = computeSale({ billMinor: sale.bill, tipMinor: sale.tip ?? 0n, taxBps: 1200 });
  const amountMsat = fiatToMsat(figures.totalMinor, RATE, 'GTQ');
  const hex = randomBytes(32).toString('hex');
  const paymentHash = sale.onchain ? `onchain:${hex}:0` : hex;
  await insertInvoice(t.db, {
    organization_id: organizationId,
    account_id: sale.accountId,
    bpt_id: sale.bptId,
    payment_hash: paymentHash,
    payment_request: `lnbcrt${hex}`,
    description: 'close',
    amount_msat: amountMsat,
    currency: 'GTQ',
    bill_minor: figures.billMinor,
    tip_minor: figures.tipMinor,
    tax_minor: figures.taxMinor,
    total_minor: figures.totalMinor,
    rate_minor_per_btc: RATE,
    expires_at: new Date(sale.at.getTime() + 900_000),
  });
  expect(
    await settleInvoice({ db: t.db, config: t.config }, 'test', {
      paymentHash,
      settleIndex: 0n,
      amountPaidMsat: amountMsat,
      settledAt: sale.at,
    }),
  ).toBe(true);
  const { id: transactionId } = await t.db
    .selectFrom('transactions')
    .select('id')
    .where('payment_hash', '=', paymentHash)
    .executeTakeFirstOrThrow();
  return {
    ...sale,
    transactionId,
    totalMinor: figures.totalMinor,
    tipMinor: figures.tipMinor,
    taxMinor: figures.taxMinor,
    totalMsat: amountMsat,
  };
}

/** The fields of a quetzal terminal on `accountId`, for insertBpt. */
export function terminal(accountId: string, name: string) {
  return {
    account_id: accountId,
    name,
    channel: 'store',
    currency: 'GTQ',
    shareable: false,
    share_token: null,
    tip_enabled: true,
    tax_bps: 1200,
  };
}
