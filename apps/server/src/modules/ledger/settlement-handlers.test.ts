import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createTestAccount,
  createTestDatabase,
  createTestOrganization,
  TEST_JWT_SECRET,
  type TestDatabase,
} from '../../../test/test-app.ts';
import { type Config, loadConfig } from '../../config.ts';
import { createDatabase, type Db } from '../../db/database.ts';
import { registerDonationSettlementHandlers } from '../donations/donations.service.ts';
import { findInvoice, insertPastInvoices } from '../invoices/invoices.repo.ts';
import { countTransactionsForPayment } from '../transactions/transactions.repo.ts';
import { settleInvoice } from './settlement.service.ts';
import { registerSettlementHandler } from './settlement-handlers.ts';

// No runtime is started here, so no selling source has registered its handlers in this process.
describe('settlement handlers', () => {
  let database: TestDatabase;
  let db: Db;
  let config: Config;
  let organizationId: string;
  let accountId: string;

  beforeAll(async () => {
    database = await createTestDatabase();
    db = createDatabase(database.url, 2);
    config = loadConfig({ DATABASE_URL: database.url, JWT_SECRET: TEST_JWT_SECRET, LOG_LEVEL: 'silent' });
    organizationId = (await createTestOrganization(db)).id;
    accountId = (await createTestAccount(db, organizationId, 'Counter')).id;
  });
  afterAll(async () => {
    await db?.destroy();
    await database?.drop();
  });

  async function openInvoice(source: 'terminal' | 'donation'): Promise<string> {
    const paymentHash = randomBytes(32).toString('hex');
    await insertPastInvoices(db, [
      {
        organization_id: organizationId,
        account_id: accountId,
        bpt_id: null,
        payment_hash: paymentHash,
        payment_request: `lnbcrt1${paymentHash}`,
        description: 'Sale',
        amount_msat: 1_000_000n,
        currency: 'USD',
        bill_minor: 95n,
        tip_minor: 0n,
        tax_minor: 0n,
        total_minor: 95n,
        rate_minor_per_btc: 9_500_000n,
        expires_at: new Date(Date.now() + 3_600_000),
        created_at: new Date(),
        source,
      },
    ]);
    return paymentHash;
  }

  const settle = (paymentHash: string) =>
    settleInvoice({ db, config }, 'devnet', {
      paymentHash,
      settledAt: new Date(),
      settleIndex: 0n,
      amountPaidMsat: 1_000_000n,
    });

  it('settles a terminal sale, the one source without a handler', async () => {
    const paymentHash = await openInvoice('terminal');
    expect(await settle(paymentHash)).toBe(true);
    expect(await countTransactionsForPayment(db, paymentHash)).toBe(1);
  });

  it('refuses to settle a sale whose source registered no handler, and records nothing of it', async () => {
    const paymentHash = await openInvoice('donation');
    await expect(settle(paymentHash)).rejects.toThrow('no settlement handler is registered for donation sales');
    expect(await countTransactionsForPayment(db, paymentHash)).toBe(0);
    const invoice = await db
      .selectFrom('invoices')
      .select('id')
      .where('payment_hash', '=', paymentHash)
      .executeTakeFirstOrThrow();
    expect((await findInvoice(db, invoice.id))?.status).toBe('pending');

    // Once the source registers, the same payment settles, once.
    registerDonationSettlementHandlers();
    expect(await settle(paymentHash)).toBe(true);
    expect(await settle(paymentHash)).toBe(false);
    expect(await countTransactionsForPayment(db, paymentHash)).toBe(1);
  });

  it('takes no handler for a terminal sale', () => {
    expect(() => registerSettlementHandler('terminal', 'bpts', async () => {})).toThrow(
      'a terminal sale takes no settlement handler',
    );
  });
});
