import {
  AppError,
  assertInvoiceWithinLimit,
  type CheckoutKind,
  type CheckoutStatus,
  DEFAULT_LANGUAGE,
  fiatToMsat,
  formatMinor,
  type PaidVia,
  type PublicCheckout,
  SATS,
} from '@rayo/shared';
import { type Db, isUniqueViolation } from '../../db/database.ts';
import type { InvoiceRow } from '../../db/schema.ts';
import { assertOrganizationMaySell, type InvoiceDeps, issueInvoice } from '../invoices/invoices.service.ts';
import { registerSettlementHandler } from '../ledger/settlement-handlers.ts';
import {
  type AmountDue,
  findAmountDue,
  findCheckoutQuote,
  getCheckoutOnchain,
  lockCheckoutAddress,
  quoteCheckoutAddress,
} from '../onchain/checkout-addresses.service.ts';
import { findCurrentOrganization } from '../organizations/organizations.service.ts';
import { getRateForInvoice } from '../rates/rates.service.ts';
import { listCheckoutReceiptTokens } from '../receipts/receipts.service.ts';
import { getPublicBranding } from '../settings/branding.service.ts';
import { isShopOrderNotified } from '../shops/shops.service.ts';
import { findVirtualBpt } from '../virtual-bpts/virtual-bpts.service.ts';
import { enqueueCheckoutWebhook } from './checkout-webhooks.ts';
import {
  type CheckoutRow,
  expireCheckouts,
  findCheckout,
  findPayingInvoice,
  findStoreCheckoutByOrderId,
  flagExtraPayment,
  insertCheckout,
  listCheckoutLightningInvoices,
  listSettledPayments,
  markCheckoutPaid,
  notifyCheckoutStatus,
  setCheckoutProcessing,
} from './checkouts.repo.ts';

/** DESIGN §9: a payment link's invoice lives 24 hours, and a new one follows while the link is open. */
export const PAYMENT_LINK_INVOICE_SECONDS = 24 * 60 * 60;

export type NewCheckoutInput = {
  organizationId: string;
  virtualBptId: string;
  kind: CheckoutKind;
  description: string;
  /** `SAT` (minor = satoshis) or the linked BPT's fiat currency (minor units). */
  amount: { currency: string; minor: bigint };
  orderId?: string;
  redirectUrl?: string;
  metadata?: Record<string, unknown>;
  /** Store checkouts only; they default to the terminal invoice's life (`INVOICE_EXPIRY_SECONDS`). */
  expiresAt?: Date;
};

/**
 * Records a checkout sold by a virtual BPT, priced in the linked BPT's currency or in satoshis.
 * The amount is checked against the current rate now, so that a link that could never be paid is
 * refused when it is made rather than when a payer opens it. A live payment link with the same
 * description and amount is refused ('Link already exists'); a store's order id already used
 * returns that order's checkout, so a retried request gets the same one.
 */
export async function createCheckout(
  deps: Pick<InvoiceDeps, 'db' | 'config'>,
  input: NewCheckoutInput,
  now = new Date(),
): Promise<CheckoutRow> {
  return (await recordCheckout(deps, input, now)).checkout;
}

/**
 * `createCheckout`, also saying whether this call made the checkout: a concurrent request with the
 * same order id may have made it first, and the store API answers that one 200, not 201.
 */
export async function recordCheckout(
  deps: Pick<InvoiceDeps, 'db' | 'config'>,
  input: NewCheckoutInput,
  now = new Date(),
): Promise<{ checkout: CheckoutRow; created: boolean }> {
  const found = await findVirtualBpt(deps.db, input.organizationId, input.virtualBptId);
  if (!found) throw new AppError('NotFound', 'Virtual BPT not found');
  // A checkout exists to be paid; one of a blocked organization could only fail its payer.
  await assertOrganizationMaySell(deps.db, input.organizationId);
  const { currency, minor } = input.amount;
  if (currency !== SATS && currency !== found.bpt.currency) {
    throw new AppError('InvalidCurrency', `The amount must be in ${found.bpt.currency} or ${SATS}`);
  }
  if (minor <= 0n) throw new AppError('InvalidAmount', 'The amount must be more than zero');
  const rateMinorPerBtc = await getRateForInvoice(deps, currency);
  const amountMsat = fiatToMsat(minor, rateMinorPerBtc, currency);
  if (amountMsat < 1000n) throw new AppError('InvalidAmount', 'The amount is less than one satoshi');
  assertInvoiceWithinLimit(amountMsat);

  const expiresAt =
    input.kind === 'store'
      ? (input.expiresAt ?? new Date(now.getTime() + deps.config.invoiceExpirySeconds * 1000))
      : null;
  try {
    const checkout = await insertCheckout(deps.db, {
      organization_id: input.organizationId,
      virtual_bpt_id: input.virtualBptId,
      kind: input.kind,
      description: input.description,
      amount_currency: currency,
      amount_minor: minor,
      expires_at: expiresAt,
      order_id: input.orderId ?? null,
      redirect_url: input.redirectUrl ?? null,
      metadata: input.metadata ?? null,
      created_at: now,
    });
    return { checkout, created: true };
  } catch (error) {
    if (!isUniqueViolation(error)) throw error;
    if (input.kind === 'payment_link') throw new AppError('LinkAlreadyExists', 'Link already exists');
    const existing = input.orderId
      ? await findStoreCheckoutByOrderId(deps.db, input.organizationId, input.orderId)
      : undefined;
    if (!existing) throw error;
    return { checkout: existing, created: false };
  }
}

/** A store checkout that is still waiting after its expiry takes no more payments. */
function isPastExpiry(checkout: CheckoutRow, now: Date): boolean {
  return checkout.expires_at !== null && checkout.expires_at <= now;
}

function isOpenInvoice(invoice: InvoiceRow | undefined, now: Date): invoice is InvoiceRow {
  return invoice !== undefined && invoice.status === 'pending' && invoice.expires_at > now;
}

/**
 * The life to give a checkout's invoice so that it ends before the checkout does. A node dates
 * an invoice in whole seconds, at or a little after `now` by its own clock, and counts its expiry
 * from there: whole seconds rounded down, less one for that date, keep it inside the checkout.
 */
function wholeSecondsLeft(checkoutExpiresAt: Date, now: Date): number {
  return Math.floor((checkoutExpiresAt.getTime() - now.getTime()) / 1000) - 1;
}

/** Whether an invoice asks for a checkout's whole price (rather than the rest of a part paid). */
function asksWholePrice(checkout: CheckoutRow, invoice: InvoiceRow): boolean {
  const minor = BigInt(checkout.amount_minor);
  if (checkout.amount_currency === SATS) return BigInt(invoice.amount_msat) === minor * 1000n;
  const rateMinorPerBtc = BigInt(invoice.rate_minor_per_btc);
  return (
    BigInt(invoice.total_minor) === minor &&
    BigInt(invoice.amount_msat) === fiatToMsat(minor, rateMinorPerBtc, checkout.amount_currency)
  );
}

/** Whether an open invoice asks for what is due now. */
function asksWhatIsDue(checkout: CheckoutRow, invoice: InvoiceRow | undefined, due: AmountDue, now: Date): boolean {
  if (!isOpenInvoice(invoice, now)) return false;
  if (due.kind === 'price') return asksWholePrice(checkout, invoice);
  return due.kind === 'rest' && BigInt(invoice.amount_msat) === due.msat;
}

/**
 * The Lightning invoice a payer should pay now: for the whole price while nothing has arrived, or
 * once part of it arrived on-chain, for only what is missing. It is issued on first sight, and
 * again when the last one expired while the checkout still waits (payment links stay open; a store
 * checkout's invoice ends with the checkout) or no longer asks what is due. A new invoice for the
 * whole price also gives the checkout's address its quote, so both methods ask the same. The
 * address row, then the checkout row, are locked meanwhile (the chain watch's order), so that two
 * payers opening the page at once get the same invoice.
 */
async function currentInvoice(deps: InvoiceDeps, checkout: CheckoutRow, now: Date): Promise<InvoiceRow | undefined> {
  if (checkout.status !== 'awaiting_payment' || isPastExpiry(checkout, now)) return undefined;
  const found = await findVirtualBpt(deps.db, checkout.organization_id, checkout.virtual_bpt_id);
  if (!found) return undefined;
  const [latest] = await listCheckoutLightningInvoices(deps.db, checkout.id);
  if (asksWhatIsDue(checkout, latest, await findAmountDue(deps.db, checkout, found.bpt.currency), now)) return latest;
  return deps.db.transaction().execute(async (trx) => {
    const address = await lockCheckoutAddress(trx, checkout.id);
    const locked = await findCheckout(trx, checkout.id, { lock: true });
    if (locked?.status !== 'awaiting_payment' || isPastExpiry(locked, now)) return undefined;
    const due = await findAmountDue(trx, locked, found.bpt.currency);
    if (due.kind === 'nothing') return undefined;
    const [again] = await listCheckoutLightningInvoices(trx, checkout.id);
    if (asksWhatIsDue(locked, again, due, now)) return again;
    const expirySeconds =
      locked.expires_at === null
        ? PAYMENT_LINK_INVOICE_SECONDS
        : Math.min(deps.config.invoiceExpirySeconds, wholeSecondsLeft(locked.expires_at, now));
    if (expirySeconds < 1) return undefined;
    const minor = BigInt(locked.amount_minor);
    const invoice = await issueInvoice(
      { ...deps, db: trx },
      {
        bpt: found.bpt,
        price:
          due.kind === 'rest'
            ? { kind: 'quoted', amountMsat: due.msat, totalMinor: due.minor, rateMinorPerBtc: due.rateMinorPerBtc }
            : locked.amount_currency === SATS
              ? { kind: 'msat', amountMsat: minor * 1000n }
              : { kind: 'fiat', billMinor: minor, tipMinor: 0n, taxBps: 0 },
        description: locked.description,
        expirySeconds,
        source: locked.kind === 'store' ? 'checkout' : 'payment_link',
        sourceId: locked.id,
        virtualBptId: locked.virtual_bpt_id,
      },
      now,
    );
    if (address && due.kind === 'price') await quoteCheckoutAddress(trx, locked.id, invoice);
    return invoice;
  });
}

async function requireCheckout(db: Db, id: string): Promise<CheckoutRow> {
  const checkout = await findCheckout(db, id);
  if (!checkout) throw new AppError('NotFound', 'This checkout does not exist');
  return checkout;
}

/** The status a payer sees: a store checkout past its expiry is expired even before the pass records it. */
function visibleStatus(checkout: CheckoutRow, now: Date): CheckoutStatus {
  return checkout.status === 'awaiting_payment' && isPastExpiry(checkout, now) ? 'expired' : checkout.status;
}

/**
 * What the public checkout page shows: the payment request (issuing or renewing its invoice), or
 * the paid confirmation. Of the merchant it names only what the page shows: name, logo, colour.
 */
export async function getPublicCheckout(deps: InvoiceDeps, id: string, now = new Date()): Promise<PublicCheckout> {
  const checkout = await requireCheckout(deps.db, id);
  const invoice = await currentInvoice(deps, checkout, now);
  const shown = await requireCheckout(deps.db, id);
  const paying = invoice ?? (await findPayingInvoice(deps.db, shown));
  const { onchain, underpaid } = await getCheckoutOnchain(
    deps,
    shown,
    invoice && asksWholePrice(shown, invoice) ? invoice : undefined,
    now,
  );
  // What the checkout costs in all: the invoice's figures when it asks the whole price, else the
  // address's quote (a part arrived, and the invoice asks only the rest).
  const found = await findVirtualBpt(deps.db, shown.organization_id, shown.virtual_bpt_id);
  const whole =
    paying && asksWholePrice(shown, paying)
      ? { msat: BigInt(paying.amount_msat), currency: paying.currency, minor: BigInt(paying.total_minor) }
      : found && (await findCheckoutQuote(deps.db, shown, found.bpt.currency));
  const organization = await findCurrentOrganization(deps.db, shown.organization_id);
  const branding = await getPublicBranding(deps.db, shown.organization_id);
  const amountMinor = BigInt(shown.amount_minor);
  const fiatAmount =
    shown.amount_currency !== SATS
      ? { currency: shown.amount_currency, value: formatMinor(amountMinor, shown.amount_currency) }
      : whole && whole.currency !== SATS
        ? { currency: whole.currency, value: formatMinor(whole.minor, whole.currency) }
        : null;
  const amountSats = shown.amount_currency === SATS ? Number(amountMinor) : whole ? Number(whole.msat / 1000n) : null;
  return {
    id: shown.id,
    kind: shown.kind,
    status: visibleStatus(shown, now),
    description: shown.description,
    orderId: shown.order_id,
    merchant: { name: organization?.name ?? '', logoUrl: branding.logoUrl, accentColor: branding.accentColor },
    countryCode: organization?.countryCode ?? null,
    language: organization?.language ?? DEFAULT_LANGUAGE,
    amount: { currency: shown.amount_currency, value: formatMinor(amountMinor, shown.amount_currency) },
    fiatAmount,
    amountSats,
    invoice:
      invoice && shown.status === 'awaiting_payment'
        ? {
            id: invoice.id,
            paymentRequest: invoice.payment_request,
            amountMsat: Number(BigInt(invoice.amount_msat)),
            expiresAt: invoice.expires_at.toISOString(),
          }
        : null,
    expiresAt: shown.expires_at?.toISOString() ?? null,
    receiptTokens: shown.status === 'paid' ? await listCheckoutReceiptTokens(deps.db, shown.id) : [],
    redirectUrl: shown.status === 'paid' ? shown.redirect_url : null,
    storeNotified: await isShopOrderNotified(deps.db, shown.id),
    paidVia: shown.paid_via,
    paidAt: shown.paid_at?.toISOString() ?? null,
    latePayment: shown.late_payment,
    extraPayment: shown.extra_payment,
    underpaid,
    onchain,
  };
}

/** The public status of a checkout, as its event stream starts and re-reads it. */
export async function getCheckoutStatus(db: Db, id: string, now = new Date()): Promise<CheckoutStatus> {
  return visibleStatus(await requireCheckout(db, id), now);
}

type Payment = { msat: bigint; minor: bigint };

/** Whether payments cover a checkout's price: in fiat as they were booked, or in sats. */
function coversPrice(checkout: CheckoutRow, payments: Payment[]): boolean {
  const minor = BigInt(checkout.amount_minor);
  const sum = (pick: (payment: Payment) => bigint) => payments.reduce((total, payment) => total + pick(payment), 0n);
  return checkout.amount_currency === SATS
    ? sum((payment) => payment.msat) >= minor * 1000n
    : sum((payment) => payment.minor) >= minor;
}

/** Whether one of the payments was not needed at all: the others cover the price without it. */
function paidMoreThanOnce(checkout: CheckoutRow, payments: Payment[]): boolean {
  return payments.length > 1 && payments.some((_, i) => coversPrice(checkout, payments.toSpliced(i, 1)));
}

/** A paid payment link's or checkout's invoice moves its checkout (modules/ledger/settlement-handlers.ts). */
export function registerCheckoutSettlementHandlers(): void {
  registerSettlementHandler('payment_link', 'checkouts', applyCheckoutSettlement);
  registerSettlementHandler('checkout', 'checkouts', applyCheckoutSettlement);
}

/**
 * A payment of a checkout's invoice (Lightning, or an on-chain payment recorded as its own
 * invoice row) was just recorded in the ledger, inside the settlement's transaction. The payment
 * that makes the settled ones cover the price pays the checkout, flagged late if the checkout had
 * expired; one short of it leaves the checkout waiting for the rest (processing when the rest has
 * arrived on-chain and waits for confirmations); any payment after it was paid is an extra
 * payment: already in the ledger, and flagged so that the merchant sees it.
 */
export async function applyCheckoutSettlement(trx: Db, invoice: InvoiceRow): Promise<void> {
  if (!invoice.source_id) return;
  const checkout = await findCheckout(trx, invoice.source_id, { lock: true, includeDeleted: true });
  if (!checkout) return;
  if (checkout.status === 'paid') {
    await flagExtraPayment(trx, checkout.id);
    await notifyCheckoutStatus(trx, checkout.id, 'paid');
    return;
  }
  const payments = await listSettledPayments(trx, checkout.id);
  if (!coversPrice(checkout, payments)) {
    const due = await findAmountDue(trx, checkout, invoice.currency);
    const processing = due.kind === 'nothing' && (await setCheckoutProcessing(trx, checkout.id, true));
    await notifyCheckoutStatus(trx, checkout.id, processing ? 'processing' : checkout.status);
    return;
  }
  const paidAt = invoice.settled_at ?? new Date();
  const paidVia: PaidVia = invoice.payment_hash.startsWith('onchain:') ? 'onchain' : 'lightning';
  // An on-chain payment seen before the expiry (processing) is in time, however long its
  // confirmations take after it.
  const late = checkout.status === 'expired' || (checkout.status !== 'processing' && isPastExpiry(checkout, paidAt));
  await markCheckoutPaid(trx, checkout.id, { paidVia, paidAt, late });
  // Both methods paid the rest, say: the merchant sees it to refund, as for a payment after paid.
  if (paidMoreThanOnce(checkout, payments)) await flagExtraPayment(trx, checkout.id);
  const paid = { ...checkout, status: 'paid' as const, paid_via: paidVia, late_payment: late };
  const paidSats = payments.reduce((total, payment) => total + payment.msat, 0n) / 1000n;
  await enqueueCheckoutWebhook(trx, paid, 'checkout.paid', paidSats);
  await notifyCheckoutStatus(trx, checkout.id, 'paid');
}

/** One pass of the expiry of store checkouts whose time ran out unpaid; returns how many expired. */
export async function expireDueCheckouts(db: Db, now = new Date()): Promise<number> {
  return db.transaction().execute(async (trx) => {
    const expired = await expireCheckouts(trx, now);
    for (const checkout of expired) {
      const [latest] = await listCheckoutLightningInvoices(trx, checkout.id);
      await enqueueCheckoutWebhook(
        trx,
        checkout,
        'checkout.expired',
        latest ? BigInt(latest.amount_msat) / 1000n : null,
      );
      await notifyCheckoutStatus(trx, checkout.id, 'expired');
    }
    return expired.length;
  });
}
