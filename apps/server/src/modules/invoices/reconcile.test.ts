import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestAccount, createTestApp, createTestOrganization, type TestApp } from '../../../test/test-app.ts';
import { payDevnetInvoice } from '../../adapters/lightning/devnet.ts';
import type { CreatedInvoice } from '../../adapters/lightning/types.ts';
import { poolOf } from '../../db/database.ts';
import { reconcileOpenInvoices } from '../ledger/settlement.service.ts';
import { countTransactionsForPayment } from '../transactions/transactions.repo.ts';
import { insertPastInvoices } from './invoices.repo.ts';

const BACKLOG = 450;
const BATCH = 200;

describe('reconcile with more open invoices than one batch', () => {
  let t: TestApp;

  beforeAll(async () => {
    // No settlement stream: only reconcile can record the payment.
    t = await createTestApp({}, { jobs: false });
  });
  afterAll(() => t?.close());

  it('goes through every open invoice a page at a time, so the newest one paid is recorded, once', async () => {
    const organization = await createTestOrganization(t.db);
    const account = await createTestAccount(t.db, organization.id, 'Counter');
    const { lightning } = t.runtime.deps;
    const created: CreatedInvoice[] = [];
    for (let start = 0; start < BACKLOG; start += 50) {
      const chunk = Array.from({ length: Math.min(50, BACKLOG - start) }, (_, n) =>
        lightning.createInvoice({
          amountMsat: BigInt(1_000_000 + start + n),
          description: 'Sale',
          expirySeconds: 3600,
        }),
      );
      created.push(...(await Promise.all(chunk)));
    }
    // Three invoices share each millisecond, so pages also split ties on created_at.
    const base = Date.now() - 60_000;
    await insertPastInvoices(
      t.db,
      created.map((invoice, n) => ({
        organization_id: organization.id,
        account_id: account.id,
        bpt_id: null,
        payment_hash: invoice.paymentHash,
        payment_request: invoice.paymentRequest,
        description: 'Sale',
        amount_msat: BigInt(1_000_000 + n),
        currency: 'USD',
        bill_minor: 95n,
        tip_minor: 0n,
        tax_minor: 0n,
        total_minor: 95n,
        rate_minor_per_btc: 9_500_000n,
        expires_at: invoice.expiresAt,
        created_at: new Date(base + Math.floor(n / 3)),
      })),
    );
    // The newest, and the two that end the first page and start the second in one millisecond.
    const paid = [created[BACKLOG - 1], created[BATCH - 1], created[BATCH]] as CreatedInvoice[];
    for (const invoice of paid) await payDevnetInvoice(t.db, invoice.paymentRequest);

    // Kysely takes a pooled connection for every statement or transaction.
    let statements = 0;
    const count = () => {
      statements += 1;
    };
    poolOf(t.db).on('acquire', count);
    try {
      expect(await reconcileOpenInvoices(t.runtime.deps, new Date(), BATCH)).toBe(paid.length);
    } finally {
      poolOf(t.db).off('acquire', count);
    }
    // A page of open invoices and the node's answer for all of them, then one transaction per settlement.
    expect(statements).toBeLessThanOrEqual(2 * Math.ceil(BACKLOG / BATCH) + paid.length);
    expect(await reconcileOpenInvoices(t.runtime.deps, new Date(), BATCH)).toBe(0);
    for (const invoice of paid) expect(await countTransactionsForPayment(t.db, invoice.paymentHash)).toBe(1);
  });
});
