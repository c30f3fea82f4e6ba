import {
  AppError,
  assertInvoiceWithinLimit,
  type CheckoutKind,
  type CheckoutStatus,
  fiatToMsat,
  formatMinor,
  type PaidVia,
  type PublicCheckout,
  SATS,
  type WebhookEventType,
} from '@rayo/shared';
import type { Db } from '../../db/database.ts';
import type { InvoiceRow } from '../invoices/invoices.repo.ts';
import { assertOrganizationMaySell, type InvoiceDeps, issueInvoice } from '../invoices/invoices.service.ts';
import { getCheckoutOnchain } from '../onchain/onchain.service.ts';
import { findCurrentOrganization } from '../organizations/organizations.repo.ts';
import { getRateForInvoice } from '../rates/rates.service.ts';
import { getPublicBranding } from '../settings/branding.service.ts';
import { findShopOrderNotified } from '../shops/shops.repo.ts';
import { findVirtualBpt } from '../virtual-bpts/virtual-bpts.repo.ts';
import { enqueueWebhookEvent } from '../webhooks/webhooks.service.ts';
import {
  type CheckoutRow,
  expireCheckouts,
  findCheckout,
  findPayingInvoice,
  findStoreCheckoutByOrderId,
  flagExtraPayment,
  insertCheckout,
  isUniqueViolation,
  listCheckoutLightningInvoices,
  markCheckoutPaid,
  notifyCheckoutStatus,
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

/**
 * The Lightning invoice a payer should pay now, issued on first sight and renewed when the last
 * one expired while the checkout still waits (payment links stay open; a store checkout's
 * invoice ends with the checkout). The checkout row is locked meanwhile, so that two payers
 * opening the page at once get the same invoice.
 */
async function currentInvoice(deps: InvoiceDeps, checkout: CheckoutRow, now: Date): Promise<InvoiceRow | undefined> {
  if (checkout.status !== 'awaiting_payment' || isPastExpiry(checkout, now)) return undefined;
  const [latest] = await listCheckoutLightningInvoices(deps.db, checkout.id);
  if (isOpenInvoice(latest, now)) return latest;
  return deps.db.transaction().execute(async (trx) => {
    const locked = await findCheckout(trx, checkout.id, { lock: true });
    if (locked?.status !== 'awaiting_payment' || isPastExpiry(locked, now)) return undefined;
    const [again] = await listCheckoutLightningInvoices(trx, checkout.id);
    if (isOpenInvoice(again, now)) return again;
    const found = await findVirtualBpt(trx, locked.organization_id, locked.virtual_bpt_id);
    if (!found) return undefined;
    const expirySeconds =
      locked.expires_at === null
        ? PAYMENT_LINK_INVOICE_SECONDS
        : Math.min(deps.config.invoiceExpirySeconds, wholeSecondsLeft(locked.expires_at, now));
    if (expirySeconds < 1) return undefined;
    const minor = BigInt(locked.amount_minor);
    return issueInvoice(
      { ...deps, db: trx },
      {
        bpt: found.bpt,
        price:
          locked.amount_currency === SATS
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
  const priced = invoice ?? (await findPayingInvoice(deps.db, shown));
  const organization = await findCurrentOrganization(deps.db, shown.organization_id);
  const branding = await getPublicBranding(deps.db, shown.organization_id);
  const amountMinor = BigInt(shown.amount_minor);
  const fiatAmount =
    shown.amount_currency !== SATS
      ? { currency: shown.amount_currency, value: formatMinor(amountMinor, shown.amount_currency) }
      : priced && priced.currency !== SATS
        ? { currency: priced.currency, value: formatMinor(BigInt(priced.total_minor), priced.currency) }
        : null;
  const amountSats =
    shown.amount_currency === SATS ? Number(amountMinor) : priced ? Number(BigInt(priced.amount_msat) / 1000n) : null;
  return {
    id: shown.id,
    kind: shown.kind,
    status: visibleStatus(shown, now),
    description: shown.description,
    orderId: shown.order_id,
    merchant: { name: organization?.name ?? '', logoUrl: branding.logoUrl, accentColor: branding.accentColor },
    countryCode: organization?.countryCode ?? null,
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
    redirectUrl: shown.status === 'paid' ? shown.redirect_url : null,
    storeNotified: await findShopOrderNotified(deps.db, shown.id),
    paidVia: shown.paid_via,
    paidAt: shown.paid_at?.toISOString() ?? null,
    latePayment: shown.late_payment,
    extraPayment: shown.extra_payment,
    onchain: await getCheckoutOnchain(deps, shown.id, now),
  };
}

/** The public status of a checkout, as its event stream starts and re-reads it. */
export async function getCheckoutStatus(db: Db, id: string, now = new Date()): Promise<CheckoutStatus> {
  return visibleStatus(await requireCheckout(db, id), now);
}

/**
 * A payment of a checkout's invoice (Lightning, or an on-chain payment recorded as its own
 * invoice row) was just recorded in the ledger, inside the settlement's transaction. The first
 * one pays the checkout, flagged late if the checkout had expired; any later one is an extra
 * payment: already in the ledger, and flagged so that the merchant sees it.
 */
export async function applyCheckoutSettlement(trx: Db, invoice: InvoiceRow): Promise<void> {
  if (!invoice.source_id) return;
  const checkout = await findCheckout(trx, invoice.source_id, { lock: true, includeDeleted: true });
  if (!checkout) return;
  if (checkout.status === 'paid') {
    await flagExtraPayment(trx, checkout.id);
  } else {
    const paidAt = invoice.settled_at ?? new Date();
    const paidVia: PaidVia = invoice.payment_hash.startsWith('onchain:') ? 'onchain' : 'lightning';
    // An on-chain payment seen before the expiry (processing) is in time, however long its
    // confirmations take after it.
    const late = checkout.status === 'expired' || (checkout.status !== 'processing' && isPastExpiry(checkout, paidAt));
    await markCheckoutPaid(trx, checkout.id, { paidVia, paidAt, late });
    const paid = { ...checkout, status: 'paid' as const, paid_via: paidVia, late_payment: late };
    await enqueueCheckoutWebhook(trx, paid, 'checkout.paid', BigInt(invoice.amount_msat) / 1000n);
  }
  await notifyCheckoutStatus(trx, checkout.id, 'paid');
}

/**
 * Tells the store what became of its checkout (docs/api.md, Webhooks), in the caller's
 * transaction so that the event exists exactly when the change does. Payment links have no store
 * to tell. `amountSats` is what the payment asked for, or null when none was asked yet.
 */
export async function enqueueCheckoutWebhook(
  trx: Db,
  checkout: CheckoutRow,
  type: WebhookEventType,
  amountSats: bigint | null,
): Promise<void> {
  if (checkout.kind !== 'store') return;
  await enqueueWebhookEvent(trx, checkout.organization_id, type, {
    checkoutId: checkout.id,
    kind: checkout.kind,
    orderId: checkout.order_id,
    status: checkout.status,
    amount: {
      currency: checkout.amount_currency,
      value: formatMinor(BigInt(checkout.amount_minor), checkout.amount_currency),
    },
    amountSats: amountSats === null ? null : Number(amountSats),
    paidVia: checkout.paid_via,
    late: checkout.late_payment,
    metadata: checkout.metadata,
  });
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
