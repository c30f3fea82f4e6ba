import {
  AppError,
  type CheckoutUnderpaid,
  type CreatePaymentLinkRequest,
  formatMinor,
  type PaymentLink,
  parseAmount,
  SATS,
} from '@rayo/shared';
import type { Db } from '../../db/database.ts';
import { listAccountDetails, organizationOf } from '../accounts/accounts.service.ts';
import type { AccessClaims } from '../auth/tokens.ts';
import type { InvoiceDeps } from '../invoices/invoices.service.ts';
import { listCheckoutsUnderpaid } from '../onchain/checkout-addresses.service.ts';
import { findCallerVirtualBpt } from '../virtual-bpts/virtual-bpts.service.ts';
import {
  listAccountPaymentLinks as listAccountPaymentLinkRows,
  listVirtualBptPaymentLinks,
  type PaymentLinkRow,
  softDeletePaymentLink,
} from './checkouts.repo.ts';
import { createCheckout } from './checkouts.service.ts';

function toPaymentLink(row: PaymentLinkRow, underpaid: CheckoutUnderpaid | null = null): PaymentLink {
  return {
    id: row.id,
    virtualBptId: row.virtual_bpt_id,
    virtualBptName: row.virtual_bpt_name,
    description: row.description,
    amount: { currency: row.amount_currency, value: formatMinor(BigInt(row.amount_minor), row.amount_currency) },
    status: row.status,
    latePayment: row.late_payment,
    extraPayment: row.extra_payment,
    underpaid,
    paidAt: row.paid_at?.toISOString() ?? null,
    paidVia: row.paid_via,
    createdAt: row.created_at.toISOString(),
  };
}

/** Payment links as the merchant lists them, each 'Underpaid' with its amounts when part of it arrived. */
async function toPaymentLinks(db: Db, rows: PaymentLinkRow[]): Promise<PaymentLink[]> {
  const underpaid = await listCheckoutsUnderpaid(db, rows);
  return rows.map((row) => toPaymentLink(row, underpaid.get(row.id) ?? null));
}

export async function listPaymentLinks(db: Db, caller: AccessClaims, virtualBptId: string): Promise<PaymentLink[]> {
  const { virtualBpt } = await findCallerVirtualBpt(db, caller, virtualBptId);
  return toPaymentLinks(db, await listVirtualBptPaymentLinks(db, virtualBpt.organization_id, virtualBpt.id));
}

/** A payment link (SPEC §3): a checkout that stays open until paid, in the BPT's currency or in sats. */
export async function createPaymentLink(
  deps: Pick<InvoiceDeps, 'db' | 'config'>,
  caller: AccessClaims,
  virtualBptId: string,
  request: CreatePaymentLinkRequest,
): Promise<PaymentLink> {
  const { virtualBpt, bpt } = await findCallerVirtualBpt(deps.db, caller, virtualBptId);
  if (request.currency !== SATS && request.currency !== bpt.currency) {
    throw new AppError('InvalidCurrency', `The amount must be in ${bpt.currency} or ${SATS}`);
  }
  const checkout = await createCheckout(deps, {
    organizationId: virtualBpt.organization_id,
    virtualBptId: virtualBpt.id,
    kind: 'payment_link',
    description: request.description,
    amount: { currency: request.currency, minor: parseAmount(request.amount, request.currency) },
  });
  return toPaymentLink({ ...checkout, virtual_bpt_name: virtualBpt.name });
}

export async function deletePaymentLink(db: Db, caller: AccessClaims, id: string, now = new Date()): Promise<void> {
  if (!(await softDeletePaymentLink(db, organizationOf(caller), id, now))) {
    throw new AppError('NotFound', 'Payment link not found');
  }
}

/** The payment links of every virtual BPT selling for the account; managers only for linked accounts. */
export async function listAccountPaymentLinks(db: Db, caller: AccessClaims, accountId: string): Promise<PaymentLink[]> {
  const organizationId = organizationOf(caller);
  const visible = await listAccountDetails(db, caller);
  if (!visible.some((account) => account.id === accountId)) throw new AppError('NotFound', 'Account not found');
  return toPaymentLinks(db, await listAccountPaymentLinkRows(db, organizationId, accountId));
}
