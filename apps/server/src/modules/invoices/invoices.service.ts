import {
  AppError,
  assertInvoiceWithinLimit,
  assertTipWithinLimit,
  type BlockReason,
  type CreateInvoiceRequest,
  formatMinor,
  type Invoice,
  msatToFiatMinor,
  parseAmount,
  quoteSale,
  SATS,
  type SaleQuote,
  type SaleSource,
  satsPerUnit,
} from '@rayo/shared';
import {
  type LightningBackend,
  LightningBackendError,
  type NodeInvoiceRecord,
} from '../../adapters/lightning/types.ts';
import { type LnurlLog, redeemLnurlWithdraw } from '../../adapters/lnurl/withdraw-client.ts';
import type { Config } from '../../config.ts';
import { batchWrites } from '../../db/batch-writes.ts';
import type { Db } from '../../db/database.ts';
import { invoicesIssued } from '../../metrics.ts';
import type { AccessClaims } from '../auth/tokens.ts';
import type { BptRow } from '../bpts/bpts.service.ts';
import { findCallerBptForSale } from '../bpts/bpts.service.ts';
import { findOrganizationById } from '../organizations/organizations.service.ts';
import { freshRateForInvoice, staleRateCutoff } from '../rates/rates.service.ts';
import { requireCallerUser } from '../users/users.service.ts';
import {
  findInvoice,
  findSeller,
  type HeldSale,
  type InvoiceRow,
  insertInvoice,
  insertInvoicesIfSalesHold,
  type NewInvoice,
} from './invoices.repo.ts';
import type { SellerRow } from './seller.ts';

export type InvoiceDeps = { db: Db; config: Config; lightning: LightningBackend };

export function toInvoice(row: InvoiceRow): Invoice {
  const money = (minor: string) => formatMinor(BigInt(minor), row.currency);
  return {
    id: row.id,
    paymentRequest: row.payment_request,
    paymentHash: row.payment_hash,
    amountMsat: Number(BigInt(row.amount_msat)),
    fiatTotal: money(row.total_minor),
    billAmount: money(row.bill_minor),
    tip: money(row.tip_minor),
    tax: money(row.tax_minor),
    currency: row.currency,
    rate: satsPerUnit(BigInt(row.rate_minor_per_btc), row.currency),
    expiresAt: row.expires_at.toISOString(),
    status: row.status,
  };
}

/**
 * How an invoice is priced: a sale in the terminal's currency (bill, tip and the terminal's tax),
 * a fixed amount of bitcoin whose fiat worth is read at the same locked rate, or both fixed by a
 * quote made earlier (the rest of a checkout paid in part), kept at that quote's rate.
 */
export type InvoicePrice =
  | { kind: 'fiat'; billMinor: bigint; tipMinor: bigint; taxBps: number }
  | { kind: 'msat'; amountMsat: bigint }
  | { kind: 'quoted'; amountMsat: bigint; totalMinor: bigint; rateMinorPerBtc: bigint };

/** One invoice to issue: the terminal whose account and currency take the sale, and what it sells. */
export type InvoiceOrder = {
  bpt: BptRow;
  price: InvoicePrice;
  /** A function of the organization's name when the text names it: issuing reads the name anyway. */
  description: string | ((organizationName: string) => string);
  expirySeconds: number;
  source: SaleSource;
  sourceId?: string;
  virtualBptId?: string;
  /**
   * LNURL-pay (LUD-06): the exact metadata string served to the wallet, to which the invoice then
   * commits by its SHA-256 instead of carrying `description`, which is still what Rayo records.
   */
  metadata?: string;
  /** The organization and rate when the caller read them with the terminal; read here otherwise. */
  seller?: SellerRow;
};

/**
 * A bill in fiat is priced by `quoteSale`, the function the terminal shows its figures with, so
 * the screen and the invoice agree; an amount in msat, or one quoted already, is charged as asked.
 */
function priceSale(price: InvoicePrice, rateMinorPerBtc: bigint, currency: string): SaleQuote {
  if (price.kind === 'fiat') return quoteSale({ ...price, currency, rateMinorPerBtc });
  const totalMinor =
    price.kind === 'quoted' ? price.totalMinor : msatToFiatMinor(price.amountMsat, rateMinorPerBtc, currency);
  return { billMinor: totalMinor, tipMinor: 0n, taxMinor: 0n, totalMinor, amountMsat: price.amountMsat };
}

/**
 * SPEC §4: back office may block an organization, and a blocked one creates no invoices. SPEC §8's
 * 'Your organization is disabled, missing info in Settings' is said only when that is why; any
 * other block is told as a block, to take up with support. Public pages show neither.
 */
function refuseBlocked(reason: BlockReason | null | undefined): void {
  if (reason === 'missing_info') {
    throw new AppError('OrganizationDisabled', 'Your organization is disabled, missing info in Settings');
  }
  if (reason) throw new AppError('OrganizationBlocked', 'Your organization is blocked; contact support');
}

export async function assertOrganizationMaySell(db: Db, organizationId: string): Promise<void> {
  const organization = await findOrganizationById(db, organizationId);
  if (!organization) throw new AppError('NotFound', 'Organization not found');
  refuseBlocked(organization.blocked_reason);
}

/** An invoice the node has issued, priced at `rateMinorPerBtc`, ready to record. */
type SignedInvoice = { invoice: NewInvoice; nodeRecord?: NodeInvoiceRecord; rateMinorPerBtc: bigint };

/**
 * Every way of selling ends here: the organization must be allowed to sell, the amount is priced
 * at the current rate (locked for the invoice's life), the Lightning node issues the invoice, and
 * it is recorded with what it sells.
 */
export async function issueInvoice(deps: InvoiceDeps, order: InvoiceOrder, now = new Date()): Promise<InvoiceRow> {
  const { bpt } = order;
  // One read for the organization and the rate, and one write below: round trips to PostgreSQL
  // are most of an invoice's cost (docs/benchmarks.md).
  const seller = order.seller ?? (await findSeller(deps.db, bpt.organization_id, bpt.currency));
  const { invoice, nodeRecord } = await signInvoice(deps, order, seller, now);
  const row = await insertInvoice(deps.db, invoice, nodeRecord);
  invoicesIssued.inc({ source: row.source });
  return row;
}

async function signInvoice(
  deps: InvoiceDeps,
  order: InvoiceOrder,
  seller: SellerRow | undefined,
  now: Date,
): Promise<SignedInvoice> {
  const { bpt } = order;
  if (!seller) throw new AppError('NotFound', 'Organization not found');
  refuseBlocked(seller.blockedReason);
  const rateMinorPerBtc =
    order.price.kind === 'quoted'
      ? order.price.rateMinorPerBtc
      : freshRateForInvoice(bpt.currency, seller.rate, deps.config);
  const sale = priceSale(order.price, rateMinorPerBtc, bpt.currency);
  const { amountMsat } = sale;
  if (amountMsat < 1000n) throw new AppError('InvalidAmount', 'The amount is less than one satoshi');
  assertInvoiceWithinLimit(amountMsat);
  const description = typeof order.description === 'string' ? order.description : order.description(seller.name);

  let created: Awaited<ReturnType<LightningBackend['createInvoice']>>;
  try {
    created = await deps.lightning.createInvoice({
      amountMsat,
      description: order.metadata ?? description,
      expirySeconds: order.expirySeconds,
      ...(order.metadata === undefined ? {} : { hashDescription: true }),
      storeWithCaller: true,
    });
  } catch (error) {
    if (error instanceof LightningBackendError) {
      throw new AppError('LightningUnavailable', 'Under maintenance, please try again later.');
    }
    throw new AppError('InvoiceFailed', 'Error creating invoice.');
  }

  return {
    invoice: {
      organization_id: bpt.organization_id,
      account_id: bpt.account_id,
      bpt_id: bpt.id,
      payment_hash: created.paymentHash,
      payment_request: created.paymentRequest,
      description,
      amount_msat: amountMsat,
      currency: bpt.currency,
      bill_minor: sale.billMinor,
      tip_minor: sale.tipMinor,
      tax_minor: sale.taxMinor,
      total_minor: sale.totalMinor,
      rate_minor_per_btc: rateMinorPerBtc,
      expires_at: created.expiresAt < now ? now : created.expiresAt,
      source: order.source,
      source_id: order.sourceId ?? null,
      virtual_bpt_id: order.virtualBptId ?? null,
    },
    nodeRecord: created.nodeRecord,
    rateMinorPerBtc,
  };
}

/** A terminal sale: the cashier's bill and tip, taxed at the terminal's rate. */
function terminalOrder(
  deps: InvoiceDeps,
  bpt: BptRow,
  request: CreateInvoiceRequest,
  seller?: SellerRow,
): InvoiceOrder {
  const billMinor = parseAmount(request.amount, bpt.currency);
  if (billMinor <= 0n) throw new AppError('InvalidAmount', 'The amount must be more than zero');
  const tipMinor = request.tip === undefined ? 0n : parseAmount(request.tip, bpt.currency, 'InvalidTip');
  if (tipMinor > 0n && !bpt.tip_enabled) throw new AppError('InvalidTip', 'This terminal does not take tips');
  assertTipWithinLimit(billMinor, tipMinor, bpt.currency);
  return {
    bpt,
    price: { kind: 'fiat', billMinor, tipMinor, taxBps: bpt.tax_bps },
    description: request.description || ((organizationName) => `${organizationName} · ${bpt.name}`),
    expirySeconds: deps.config.invoiceExpirySeconds,
    source: 'terminal',
    seller,
  };
}

export async function createInvoiceForBpt(
  deps: InvoiceDeps,
  bpt: BptRow,
  request: CreateInvoiceRequest,
  seller?: SellerRow,
  now = new Date(),
): Promise<Invoice> {
  return toInvoice(await issueInvoice(deps, terminalOrder(deps, bpt, request, seller), now));
}

/**
 * The last read of each terminal a signed-in caller charged at in this process, by the token's
 * organization (which the fresh read is made within), its user and the terminal. Only a guess:
 * a charge priced from it is written by a statement that first checks all of it is still so
 * (`insertInvoicesIfSalesHold`), so a change made through any process is seen by the next charge.
 */
const lastSaleReads = new Map<string, { bpt: BptRow; seller: SellerRow }>();
const MAX_SALE_READS = 10_000;

/**
 * A charge at a signed-in caller's terminal in one statement where it can be: signed from the
 * last read of the terminal, written only if that read still holds, together with the checks
 * of the caller's user. When it does not hold (or priced from it the charge fails), the charge
 * is made as before, from fresh reads, so that what it answers is what they say.
 */
export async function createInvoiceForCallerBpt(
  deps: InvoiceDeps,
  caller: AccessClaims,
  bptId: string,
  request: CreateInvoiceRequest,
  now = new Date(),
): Promise<Invoice> {
  const key = `${caller.organizationId}:${caller.userId}:${bptId}`;
  const last = lastSaleReads.get(key);
  if (last) {
    const written = await createInvoiceFromLastRead(deps, caller, last, request, now).catch((error: unknown) => {
      if (error instanceof AppError) return undefined;
      throw error;
    });
    if (written) {
      invoicesIssued.inc({ source: written.source });
      return toInvoice(written);
    }
  }
  lastSaleReads.delete(key);
  await requireCallerUser(deps.db, caller);
  const { bpt, seller } = await findCallerBptForSale(deps.db, caller, bptId);
  if (lastSaleReads.size >= MAX_SALE_READS) lastSaleReads.delete(lastSaleReads.keys().next().value as string);
  lastSaleReads.set(key, { bpt, seller });
  return createInvoiceForBpt(deps, bpt, request, seller, now);
}

async function createInvoiceFromLastRead(
  deps: InvoiceDeps,
  caller: AccessClaims,
  last: { bpt: BptRow; seller: SellerRow },
  request: CreateInvoiceRequest,
  now: Date,
): Promise<InvoiceRow | undefined> {
  const { bpt, seller } = last;
  const signed = await signInvoice(deps, terminalOrder(deps, bpt, request, seller), seller, now);
  return heldSaleWriterOf(deps.db)({
    invoice: signed.invoice,
    nodeRecord: signed.nodeRecord,
    assumed: {
      userId: caller.userId,
      role: caller.role,
      sessionEpoch: caller.sessionEpoch,
      bpt,
      organizationName: seller.name,
      rate:
        bpt.currency === SATS
          ? undefined
          : { rateMinorPerBtc: signed.rateMinorPerBtc, fetchedAfter: staleRateCutoff(deps.config) },
    },
  });
}

const heldSaleWriters = new WeakMap<Db, (sale: HeldSale) => Promise<InvoiceRow | undefined>>();

/**
 * Charges that arrive together are written by one statement and one commit (docs/decisions/0039-invoice-issuing.md):
 * the round trip and the commit were most of what a charge cost PostgreSQL and the server.
 */
function heldSaleWriterOf(db: Db): (sale: HeldSale) => Promise<InvoiceRow | undefined> {
  let writer = heldSaleWriters.get(db);
  if (!writer) {
    writer = batchWrites((sales: HeldSale[]) => insertInvoicesIfSalesHold(db, sales), {
      maxBatch: 16,
      maxInFlight: 1,
    });
    heldSaleWriters.set(db, writer);
  }
  return writer;
}

/**
 * An on-chain payment of a checkout written as its own invoice row, in the chain watch's
 * transaction: no node issued it, and settling it puts it in the ledger like any other.
 */
export async function recordOnchainPaymentInvoice(trx: Db, invoice: NewInvoice): Promise<InvoiceRow> {
  return insertInvoice(trx, invoice);
}

export async function getInvoice(db: Db, id: string): Promise<Invoice> {
  const row = await findInvoice(db, id);
  if (!row) throw new AppError('NotFound', 'Invoice not found');
  return toInvoice(row);
}

/** The NFC / pasted-link path: a Bolt Card's LNURL-withdraw service pays our invoice (LUD-03). */
export async function payInvoiceWithLnurlWithdraw(
  deps: InvoiceDeps,
  id: string,
  lnurl: string,
  log: LnurlLog,
): Promise<Invoice> {
  const row = await findInvoice(deps.db, id);
  if (!row) throw new AppError('NotFound', 'Invoice not found');
  if (row.status !== 'pending') throw new AppError('InvoiceNotPending', `This invoice is ${row.status}`);
  const devnet = deps.config.lightning.backend === 'devnet';
  await redeemLnurlWithdraw({
    lnurl,
    paymentRequest: row.payment_request,
    amountMsat: BigInt(row.amount_msat),
    allowInsecureLoopback: devnet,
    allowPrivateAddresses: deps.config.lnurlAllowPrivateHosts,
    // The devnet wallet's card links point at Rayo itself, which usually listens on loopback.
    trustedOrigin: devnet ? new URL(deps.config.publicUrl).origin : undefined,
    log,
  });
  return toInvoice(row);
}
