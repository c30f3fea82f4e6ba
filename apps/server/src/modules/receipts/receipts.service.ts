import { randomBytes } from 'node:crypto';
import {
  AppError,
  type EmailReceiptRequest,
  formatMinor,
  type Language,
  RECEIPT_TOKEN_BYTES,
  type Receipt,
  type ReceiptLink,
  ReceiptTokenSchema,
  receiptPath,
  SaleSourceSchema,
  satsPerUnit,
} from '@rayo/shared';
import type { Mailer } from '../../adapters/mail/mailer.ts';
import type { Config } from '../../config.ts';
import type { Db } from '../../db/database.ts';
import { renderPdf } from '../../pdf/pdf-writer.ts';
import { listPaidRefundsOfSale } from '../refunds/refunds.service.ts';
import { getLogoImage, getPublicBranding } from '../settings/branding.service.ts';
import { receiptMail, receiptPdf } from './receipt-document.ts';
import {
  findReceipt,
  findTransactionOfInvoice,
  insertReceiptTokenIfAbsent,
  listInvoiceTxids,
  listTransactionsOfCheckout,
  type ReceiptRow,
} from './receipts.repo.ts';

export type ReceiptDeps = { db: Db; config: Pick<Config, 'publicUrl'>; mailer: Mailer };

/** The Lightning payment hash; on-chain payments carry `onchain:` ids of our own instead. */
const ONCHAIN_PREFIX = 'onchain:';

function notFound(): AppError {
  return new AppError('NotFound', 'This receipt does not exist');
}

function issueToken(db: Db, sale: { id: string; organization_id: string }): Promise<string> {
  const token = randomBytes(RECEIPT_TOKEN_BYTES).toString('base64url');
  return insertReceiptTokenIfAbsent(db, { transactionId: sale.id, organizationId: sale.organization_id }, token);
}

/**
 * The receipt link of the sale an invoice was paid into, for the paid screen that holds the
 * invoice's id. An invoice not (yet) paid has none.
 */
export async function getInvoiceReceiptLink(db: Db, invoiceId: string): Promise<ReceiptLink> {
  const sale = await findTransactionOfInvoice(db, invoiceId);
  if (!sale) throw new AppError('NotFound', 'This invoice is not paid, so it has no receipt');
  return { token: await issueToken(db, sale) };
}

/** The receipt tokens of a checkout's paid sales, oldest first. */
export async function listCheckoutReceiptTokens(db: Db, checkoutId: string): Promise<string[]> {
  const sales = await listTransactionsOfCheckout(db, checkoutId);
  const tokens: string[] = [];
  for (const sale of sales) tokens.push(await issueToken(db, sale));
  return tokens;
}

async function toReceipt(db: Db, row: ReceiptRow): Promise<Receipt> {
  const money = (minor: string) => formatMinor(BigInt(minor), row.currency);
  const onchain = row.paymentHash.startsWith(ONCHAIN_PREFIX);
  const branding = await getPublicBranding(db, row.organizationId);
  return {
    merchant: { name: row.organizationName, logoUrl: branding.logoUrl, accentColor: branding.accentColor },
    countryCode: row.countryCode,
    language: row.language,
    timeZone: row.timeZone,
    settledAt: row.settledAt.toISOString(),
    source: SaleSourceSchema.parse(row.source),
    description: row.description,
    currency: row.currency,
    billAmount: money(row.billMinor),
    tip: money(row.tipMinor),
    tax: money(row.taxMinor),
    total: money(row.totalMinor),
    totalMsat: Number(BigInt(row.totalMsat)),
    rate: satsPerUnit(BigInt(row.rateMinorPerBtc), row.currency),
    paymentHash: onchain ? null : row.paymentHash,
    txids: onchain ? await listInvoiceTxids(db, row.invoiceId) : [],
    refunds: await listPaidRefundsOfSale(db, row.transactionId),
  };
}

async function requireReceipt(db: Db, token: string): Promise<{ row: ReceiptRow; receipt: Receipt }> {
  const row = ReceiptTokenSchema.safeParse(token).success ? await findReceipt(db, token) : undefined;
  if (!row) throw notFound();
  return { row, receipt: await toReceipt(db, row) };
}

export async function getReceipt(db: Db, token: string): Promise<Receipt> {
  return (await requireReceipt(db, token)).receipt;
}

function receiptUrl(deps: Pick<ReceiptDeps, 'config'>, token: string): string {
  return new URL(receiptPath(token), deps.config.publicUrl).toString();
}

async function receiptPdfOf(
  deps: Pick<ReceiptDeps, 'db' | 'config'>,
  token: string,
  { row, receipt }: { row: ReceiptRow; receipt: Receipt },
  language: Language,
): Promise<{ pdf: Buffer; fileName: string }> {
  const logo = await getLogoImage(deps.db, row.organizationId);
  const pdf = await renderPdf(receiptPdf(receipt, language, receiptUrl(deps, token), logo));
  return { pdf, fileName: `receipt-${receipt.settledAt.slice(0, 10)}.pdf` };
}

/** The receipt as a PDF on an 80 mm roll, in `language` or else the merchant's. */
export async function renderReceiptPdf(
  deps: Pick<ReceiptDeps, 'db' | 'config'>,
  token: string,
  language: Language | undefined,
): Promise<{ pdf: Buffer; fileName: string }> {
  const found = await requireReceipt(deps.db, token);
  return receiptPdfOf(deps, token, found, language ?? found.receipt.language);
}

/**
 * Mails the receipt to the address the customer typed, in the language of their screen, with
 * its PDF attached (what a customer files or forwards for expenses). The address is used for
 * this mail only: it is not stored (the rate limits count it by a hash that expires with their
 * window).
 */
export async function emailReceipt(deps: ReceiptDeps, token: string, request: EmailReceiptRequest): Promise<void> {
  const found = await requireReceipt(deps.db, token);
  const { pdf, fileName } = await receiptPdfOf(deps, token, found, request.language);
  const mail = receiptMail(request.email, found.receipt, request.language, receiptUrl(deps, token));
  await deps.mailer.send({
    ...mail,
    attachments: [{ filename: fileName, content: pdf, contentType: 'application/pdf' }],
  });
}
