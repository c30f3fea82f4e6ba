import type { Account, Bpt, ErrorResponse, Invoice, PublicCheckout, Receipt } from '@rayo/shared';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type SmtpInbox, startSmtpInbox } from '../../../test/fakes/smtp-inbox.ts';
import { readPdf } from '../../../test/pdf-text.ts';
import {
  bearer,
  createTestApp,
  createTestOrganization,
  createTestUser,
  signIn,
  type TestApp,
} from '../../../test/test-app.ts';
import { fileUpload, tinyPng } from '../../../test/upload-files.ts';
import { waitFor } from '../../../test/wait-for.ts';
import { createDevnetChain, mineDevnetBlocks, sendDevnetPayment } from '../../adapters/chain/devnet.ts';
import { watchCheckoutPayments } from '../onchain/onchain.service.ts';
import { countTransactionsForPayment } from '../transactions/transactions.repo.ts';

type Headers = { authorization: string };

let t: TestApp;
let inbox: SmtpInbox;
let admin: Headers;
let bpt: Bpt;
let account: Account;

async function post<T>(url: string, payload: object, headers: Headers | Record<string, never> = admin): Promise<T> {
  const response = await t.app.inject({ method: 'POST', url, headers, payload });
  expect(response.statusCode, `${url}: ${response.body}`).toBeLessThan(300);
  return response.json<T>();
}

/** A terminal sale of Q12.50 with a Q1.25 tip and 12% tax, paid from the devnet wallet. */
async function paidSale(): Promise<Invoice> {
  const invoice = await post<Invoice>(`/api/bpts/${bpt.id}/invoices`, { amount: '12.50', tip: '1.25' });
  await post('/api/devnet/pay', { paymentRequest: invoice.paymentRequest }, {});
  await waitFor(async () => (await countTransactionsForPayment(t.db, invoice.paymentHash)) === 1);
  return invoice;
}

async function receiptLink(invoiceId: string) {
  return t.app.inject({ method: 'GET', url: `/api/invoices/${invoiceId}/receipt` });
}

async function receiptTokenOf(invoice: Invoice): Promise<string> {
  const response = await receiptLink(invoice.id);
  expect(response.statusCode, response.body).toBe(200);
  return response.json<{ token: string }>().token;
}

function mailReceipt(token: string, email: string, language = 'en') {
  return t.app.inject({
    method: 'POST',
    url: `/api/public/receipts/${encodeURIComponent(token)}/email`,
    payload: { email, language },
  });
}

beforeAll(async () => {
  inbox = await startSmtpInbox();
  // GTQ at Q730,000 per bitcoin: the fixed rate source's.
  t = await createTestApp(
    { FIXED_RATES: 'GTQ=730000', SMTP_URL: inbox.url, PUBLIC_URL: 'https://pay.example.com' },
    { jobs: true },
  );
  const organization = await createTestOrganization(t.db, 'Café Ñandú');
  const user = await createTestUser(t.db, { role: 'admin', organizationId: organization.id });
  admin = bearer((await signIn(t.app, user.email, user.password)).accessToken);
  account = await post<Account>('/api/accounts', { name: 'Counter' });
  bpt = await post<Bpt>('/api/bpts', {
    name: 'Till 1',
    accountId: account.id,
    channel: 'store',
    currency: 'GTQ',
    shareable: false,
    tipEnabled: true,
    taxPercentage: 12,
  });
});

afterAll(async () => {
  await t.close();
  await inbox.close();
});

describe('a receipt link', () => {
  it('is given for a paid sale only, and is the same link each time', async () => {
    const unpaid = await post<Invoice>(`/api/bpts/${bpt.id}/invoices`, { amount: '3' });
    const refused = await receiptLink(unpaid.id);
    expect(refused.statusCode).toBe(404);
    expect(refused.json<ErrorResponse>().code).toBe('NotFound');

    const invoice = await paidSale();
    const token = await receiptTokenOf(invoice);
    expect(await receiptTokenOf(invoice)).toBe(token);
    // 24 random bytes, never the sale's or the invoice's id.
    expect(token).toMatch(/^[A-Za-z0-9_-]{32}$/);
    const stored = await t.db
      .selectFrom('receipts')
      .innerJoin('transactions', 'transactions.id', 'receipts.transaction_id')
      .select(['receipts.token', 'transactions.id', 'transactions.invoice_id'])
      .where('receipts.token', '=', token)
      .executeTakeFirstOrThrow();
    expect(token).not.toContain(stored.id.replace(/-/g, '').slice(0, 8));
    expect(token).not.toContain(invoice.id.replace(/-/g, '').slice(0, 8));
    expect(await receiptTokenOf(await paidSale())).not.toBe(token);
  });

  it('answers 404 for a token nobody was given, of any shape', async () => {
    for (const token of ['A'.repeat(32), 'not-a-token', `${'b'.repeat(31)}%`]) {
      for (const suffix of ['', '/pdf']) {
        const response = await t.app.inject({
          method: 'GET',
          url: `/api/public/receipts/${encodeURIComponent(token)}${suffix}`,
        });
        expect(response.statusCode, `${token}${suffix}`).toBe(404);
        expect(response.json<ErrorResponse>().code).toBe('NotFound');
      }
      expect((await mailReceipt(token, 'nobody@example.com')).statusCode).toBe(404);
    }
    expect(inbox.mails.filter((mail) => mail.to.includes('nobody@example.com'))).toEqual([]);
  });
});

describe('a receipt', () => {
  it('shows the merchant, the time on its clock and every figure of the sale', async () => {
    const invoice = await paidSale();
    const token = await receiptTokenOf(invoice);
    const response = await t.app.inject({ method: 'GET', url: `/api/public/receipts/${token}` });
    expect(response.statusCode, response.body).toBe(200);
    const receipt = response.json<Receipt>();
    const sale = await t.db
      .selectFrom('transactions')
      .select(['settled_at', 'total_msat'])
      .where('invoice_id', '=', invoice.id)
      .executeTakeFirstOrThrow();
    expect(receipt).toEqual({
      merchant: { name: 'Café Ñandú', logoUrl: null, accentColor: null },
      countryCode: 'GT',
      language: 'en',
      timeZone: 'America/Guatemala',
      settledAt: sale.settled_at.toISOString(),
      source: 'terminal',
      description: expect.any(String),
      currency: 'GTQ',
      // Q12.50 bill, Q1.25 tip, Q1.50 tax (12%) = Q15.25 = 2,089 sats at Q730,000 per bitcoin.
      billAmount: '12.50',
      tip: '1.25',
      tax: '1.50',
      total: '15.25',
      totalMsat: 2_089_000,
      rate: invoice.rate,
      paymentHash: invoice.paymentHash,
      txids: [],
      refunds: [],
    });
    expect(Number(sale.total_msat)).toBe(receipt.totalMsat);
  });

  it('prints as a PDF on an 80 mm roll, in English and in Spanish, that pdf.js reads', async () => {
    const invoice = await paidSale();
    const token = await receiptTokenOf(invoice);
    const english = await t.app.inject({ method: 'GET', url: `/api/public/receipts/${token}/pdf` });
    expect(english.statusCode).toBe(200);
    expect(english.headers['content-type']).toBe('application/pdf');
    expect(english.headers['content-disposition']).toMatch(/^inline; filename="receipt-\d{4}-\d{2}-\d{2}\.pdf"$/);
    const read = await readPdf(english.rawPayload);
    expect(read.pages).toBe(1);
    expect(read.sizes[0]?.width).toBeCloseTo((80 * 72) / 25.4, 1);
    const text = read.text.join('\n');
    const receipt = (await t.app.inject({ method: 'GET', url: `/api/public/receipts/${token}` })).json<Receipt>();
    const localTime = new Intl.DateTimeFormat('en', {
      timeZone: 'America/Guatemala',
      hour: 'numeric',
      minute: '2-digit',
    }).format(new Date(receipt.settledAt));
    for (const expected of [
      'Café Ñandú',
      'Receipt',
      localTime,
      'Bill',
      'GTQ 12.50',
      'Tip',
      'GTQ 1.25',
      'Tax',
      'GTQ 1.50',
      'Total',
      'GTQ 15.25',
      '2,089 sats',
      'sats/GTQ',
      'Payment hash',
      `https://pay.example.com/receipts/${token}`,
    ]) {
      expect(text.replace(/\s+/g, ''), expected).toContain(expected.replace(/\s+/g, ''));
    }
    expect(text.replace(/\s+/g, '')).toContain(invoice.paymentHash);

    const spanish = await t.app.inject({ method: 'GET', url: `/api/public/receipts/${token}/pdf?language=es` });
    const leído = await readPdf(spanish.rawPayload);
    expect(leído.language).toBe('es');
    const texto = leído.text.join('\n');
    // Guatemala writes Spanish figures with a decimal point (es-GT).
    for (const expected of [
      'Recibo',
      'Subtotal',
      'Propina',
      'Impuesto',
      'GTQ 15.25',
      '2,089 sats',
      'Tasa sats/moneda',
    ]) {
      expect(texto, expected).toContain(expected);
    }
  });

  it('is mailed to the address typed on the paid screen, which is not kept', async () => {
    const invoice = await paidSale();
    const token = await receiptTokenOf(invoice);
    const since = inbox.mails.length;
    const response = await mailReceipt(token, 'Cliente@Example.com', 'es');
    expect(response.statusCode, response.body).toBe(204);
    const mail = await inbox.waitForMail('cliente@example.com', { since });
    expect(mail.subject).toBe('Tu recibo de Café Ñandú');
    // Intl puts a no-break space between the code and the figure.
    const text = mail.text.replace(/\u00A0/g, ' ');
    for (const expected of [
      'Café Ñandú recibió tu pago',
      'GTQ 12.50',
      'GTQ 1.25',
      'GTQ 1.50',
      'GTQ 15.25',
      '2,089 sats',
    ]) {
      expect(text, expected).toContain(expected);
    }
    expect(mail.text).toContain(invoice.paymentHash);
    expect(mail.text).toContain(`https://pay.example.com/receipts/${token}`);
    expect(mail.text).toContain('El recibo va adjunto en PDF.');

    // The PDF goes with it, in the language the customer chose, as pdf.js reads it.
    expect(mail.attachments.map(({ filename, contentType }) => ({ filename, contentType }))).toEqual([
      { filename: expect.stringMatching(/^receipt-\d{4}-\d{2}-\d{2}\.pdf$/), contentType: 'application/pdf' },
    ]);
    const attached = await readPdf(mail.attachments[0]?.content ?? Buffer.alloc(0));
    expect(attached.language).toBe('es');
    expect(attached.sizes[0]?.width).toBeCloseTo((80 * 72) / 25.4, 1);
    const attachedText = attached.text.join('\n');
    for (const expected of [
      'Recibo',
      'Café Ñandú',
      'Subtotal',
      'GTQ 15.25',
      `https://pay.example.com/receipts/${token}`,
    ]) {
      expect(attachedText.replace(/\s+/g, ''), expected).toContain(expected.replace(/\s+/g, ''));
    }

    const kept = await sql<{ count: string }>`
      select count(*) as count from rate_limit_hits where key ilike ${'%cliente@example.com%'}`.execute(t.db);
    expect(kept.rows[0]?.count).toBe('0');
  });

  it('is mailed at most 5 times an hour per receipt and per address', async () => {
    const token = await receiptTokenOf(await paidSale());
    for (let i = 0; i < 5; i++) expect((await mailReceipt(token, `many-${i}@example.com`)).statusCode).toBe(204);
    const sixth = await mailReceipt(token, 'many-5@example.com');
    expect(sixth.statusCode).toBe(429);
    expect(sixth.json<ErrorResponse>().code).toBe('TooManyRequests');
    expect(sixth.headers['retry-after']).toBeDefined();

    for (let i = 0; i < 5; i++) {
      const other = await receiptTokenOf(await paidSale());
      expect((await mailReceipt(other, 'one@example.com')).statusCode).toBe(204);
    }
    const flood = await mailReceipt(await receiptTokenOf(await paidSale()), 'ONE@example.com');
    expect(flood.statusCode).toBe(429);
  });

  it('refuses an address that is not one', async () => {
    const token = await receiptTokenOf(await paidSale());
    const response = await mailReceipt(token, 'not an address');
    expect(response.statusCode).toBe(400);
    expect(response.json<ErrorResponse>().code).toBe('InvalidEmail');
  });
});

describe('a refunded sale', () => {
  it('lists on its receipt, its PDF and its mail the refunds paid to the customer, and no open ones', async () => {
    const invoice = await paidSale();
    const token = await receiptTokenOf(invoice);
    const sale = await t.db
      .selectFrom('transactions')
      .select('id')
      .where('invoice_id', '=', invoice.id)
      .executeTakeFirstOrThrow();
    // Half the sale back: 1,044,500 msat, GTQ 7.62 (half of 15.25, rounded down by the refunds module);
    // redeemed from the devnet node as the customer's wallet.
    const refund = async (key: string) =>
      post<{ id: string }>(`/api/transactions/${sale.id}/refunds`, { amountMsat: 1_044_500, idempotencyKey: key });
    const paid = await refund('receipt-refund-paid');
    const { k1 } = await t.db.selectFrom('refunds').select('k1').where('id', '=', paid.id).executeTakeFirstOrThrow();
    const wallet = await t.runtime.deps.lightning.createInvoice({
      amountMsat: 1_044_500n,
      description: 'Refund to my wallet',
      expirySeconds: 600,
    });
    const callback = await t.app.inject({
      method: 'GET',
      url: `/api/lnurlw/refunds/${k1}/callback?k1=${k1}&pr=${wallet.paymentRequest}`,
    });
    expect(callback.json(), callback.body).toEqual({ status: 'OK' });
    await waitFor(async () => {
      const row = await t.db.selectFrom('refunds').select('state').where('id', '=', paid.id).executeTakeFirst();
      return row?.state === 'paid';
    });
    // An open link the customer has not used yet is not money given back.
    await refund('receipt-refund-open');

    const receipt = (await t.app.inject({ method: 'GET', url: `/api/public/receipts/${token}` })).json<Receipt>();
    expect(receipt.refunds).toEqual([{ amountMsat: 1_044_500, fiatAmount: '7.62', paidAt: expect.any(String) }]);
    const pdf = await t.app.inject({ method: 'GET', url: `/api/public/receipts/${token}/pdf?language=es` });
    const text = (await readPdf(pdf.rawPayload)).text.join('\n');
    expect(text).toContain('Reembolsado el');
    expect(text.replace(/\s+/g, ' ')).toContain('-GTQ 7.62 (1,044 sats)');
    const since = inbox.mails.length;
    await mailReceipt(token, 'refunded@example.com');
    const mail = await inbox.waitForMail('refunded@example.com', { since });
    expect(mail.text.replace(/\u00A0/g, ' ')).toContain('−GTQ 7.62 (1,044 sats)');
    expect(mail.text.match(/Refunded/g)).toHaveLength(1);
  });
});

describe("a checkout's paid page", () => {
  it('names the receipts of its paid sales, and none before', async () => {
    const vbpt = await post<{ id: string }>('/api/virtual-bpts', { name: 'Web', bptId: bpt.id });
    const link = await post<{ id: string }>(`/api/virtual-bpts/${vbpt.id}/payment-links`, {
      description: 'Mug',
      amount: '20',
      currency: 'GTQ',
    });
    const read = async () =>
      (await t.app.inject({ method: 'GET', url: `/api/public/checkouts/${link.id}` })).json<PublicCheckout>();
    const open = await read();
    expect(open.receiptTokens).toEqual([]);
    await post('/api/devnet/pay', { paymentRequest: open.invoice?.paymentRequest }, {});
    const paid = await waitFor(async () => {
      const checkout = await read();
      return checkout.status === 'paid' ? checkout : undefined;
    });
    expect(paid.status).toBe('paid');
    expect(paid.receiptTokens).toHaveLength(1);
    const receipt = (
      await t.app.inject({ method: 'GET', url: `/api/public/receipts/${paid.receiptTokens[0]}` })
    ).json<Receipt>();
    expect(receipt).toMatchObject({ source: 'payment_link', total: '20.00', currency: 'GTQ' });
    expect(receipt.paymentHash).toMatch(/^[0-9a-f]{64}$/);
  });
});

describe('a receipt of a shop with a logo', () => {
  it('draws the logo on the PDF, as pdf.js reads it back', async () => {
    const token = await receiptTokenOf(await paidSale());
    const pdfOf = async () =>
      readPdf((await t.app.inject({ method: 'GET', url: `/api/public/receipts/${token}/pdf` })).rawPayload);
    expect((await pdfOf()).images).toEqual([0]);
    const upload = fileUpload(tinyPng([10, 125, 90], 8), 'logo.png', 'image/png');
    const put = await t.app.inject({
      method: 'PUT',
      url: '/api/settings/branding/logo',
      headers: { ...admin, ...upload.headers },
      payload: upload.payload,
    });
    expect(put.statusCode, put.body).toBe(200);
    try {
      const read = await pdfOf();
      expect(read.images).toEqual([1]);
      expect(read.text[0]).toContain('Café Ñandú');
      const receipt = (await t.app.inject({ method: 'GET', url: `/api/public/receipts/${token}` })).json<Receipt>();
      expect(receipt.merchant.logoUrl).toMatch(/^\/api\/public\//);
    } finally {
      await t.app.inject({ method: 'DELETE', url: '/api/settings/branding/logo', headers: admin });
    }
  });
});

describe('a sale paid on-chain', () => {
  it('shows its transaction id instead of a payment hash, in JSON, PDF and mail', async () => {
    const vbpt = await post<{ id: string }>('/api/virtual-bpts', { name: 'Chain', bptId: bpt.id });
    const link = await post<{ id: string }>(`/api/virtual-bpts/${vbpt.id}/payment-links`, {
      description: 'Hammock',
      amount: '73',
      currency: 'GTQ',
    });
    const read = async () =>
      (await t.app.inject({ method: 'GET', url: `/api/public/checkouts/${link.id}` })).json<PublicCheckout>();
    const address = (await read()).onchain?.address ?? '';
    // Q73.00 at Q730,000 per bitcoin is 10,000 sats, confirmed by four devnet blocks.
    const { txid } = await sendDevnetPayment(t.db, address, 10_000n);
    await mineDevnetBlocks(t.db, 4);
    await watchCheckoutPayments({ db: t.db, config: t.config, chain: createDevnetChain(t.db) });
    const paid = await waitFor(async () => {
      const checkout = await read();
      return checkout.status === 'paid' ? checkout : undefined;
    });
    const [token = ''] = paid.receiptTokens;

    const receipt = (await t.app.inject({ method: 'GET', url: `/api/public/receipts/${token}` })).json<Receipt>();
    expect(receipt).toMatchObject({ source: 'payment_link', paymentHash: null, txids: [txid], total: '73.00' });
    expect(receipt.totalMsat).toBe(10_000_000);

    for (const [language, label] of [
      ['en', 'Transaction id'],
      ['es', 'Id de la transacción'],
    ] as const) {
      const pdf = await t.app.inject({ method: 'GET', url: `/api/public/receipts/${token}/pdf?language=${language}` });
      const text = (await readPdf(pdf.rawPayload)).text.join('\n');
      expect(text).toContain(label);
      expect(text.replace(/\s+/g, '')).toContain(txid);
      expect(text).not.toContain('onchain:');
    }
    const since = inbox.mails.length;
    expect((await mailReceipt(token, 'chain@example.com')).statusCode).toBe(204);
    const mail = await inbox.waitForMail('chain@example.com', { since });
    expect(mail.text).toContain(`Transaction id: ${txid}`);
    expect(mail.text).not.toContain('onchain:');
  });
});
