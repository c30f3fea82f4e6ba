import {
  AppError,
  type CreateDonationInvoiceRequest,
  type CreateDonationLinkRequest,
  CreateDonationLinkRequestSchema,
  type DonationAddress,
  type DonationAddressAnswer,
  type DonationHistory,
  type DonationHistoryQuery,
  DonationHistoryQuerySchema,
  type DonationInvoice,
  type DonationLink,
  formatMinor,
  type Language,
  type LnurlPayInvoice,
  type LnurlPayRequest,
  MAX_INVOICE_MSAT,
  type PublicDonationLink,
  type SetDonationAddressRequest,
  SetDonationAddressRequestSchema,
} from '@rayo/shared';
import type { Db } from '../../db/database.ts';
import type { InvoiceRow } from '../../db/schema.ts';
import { encodeLnurl } from '../../domain/lnurl.ts';
import {
  buildPayMetadata,
  cleanComment,
  commentLength,
  isValidAddressName,
  parseAddressName,
  parseMsatAmount,
  successMessage,
} from '../../domain/lnurl-pay.ts';
import { organizationOf } from '../accounts/accounts.service.ts';
import type { AccessClaims } from '../auth/tokens.ts';
import type { BptRow } from '../bpts/bpts.service.ts';
import { type InvoiceDeps, issueInvoice } from '../invoices/invoices.service.ts';
import { registerSettlementHandler } from '../ledger/settlement-handlers.ts';
import { findOrganizationById } from '../organizations/organizations.service.ts';
import { findOrganizationLogo, getPublicBranding } from '../settings/branding.service.ts';
import { findVirtualBpt } from '../virtual-bpts/virtual-bpts.service.ts';
import { enqueueWebhookEvent } from '../webhooks/webhooks.service.ts';
import {
  type DonationLinkListRow,
  type DonationLinkRow,
  deleteDonationAddress,
  findDonationAddress,
  findDonationAddressByUsername,
  findDonationLinkInOrganization,
  findPublicDonationLink,
  insertDonation,
  insertDonationLink,
  listDonationLinks as listDonationLinkRows,
  listReceivedDonations,
  markDonationReceived,
  softDeleteDonationLink,
  upsertDonationAddress,
} from './donations.repo.ts';

export type DonationDeps = InvoiceDeps;

const MIN_SENDABLE_MSAT = 1000n;

function publicUrl(deps: DonationDeps, path: string): string {
  return new URL(path, deps.config.publicUrl).toString();
}

/** Where a wallet reads the link's payRequest (LUD-06), the URL its LNURL encodes. */
function payRequestUrl(deps: DonationDeps, linkId: string): string {
  return publicUrl(deps, `/api/lnurlp/${linkId}`);
}

/** The host of the organization's Lightning address: the one Rayo is reached at. */
function addressHost(deps: DonationDeps): string {
  return new URL(deps.config.publicUrl).host;
}

function toDonationLink(deps: DonationDeps, row: DonationLinkListRow): DonationLink {
  return {
    id: row.id,
    virtualBptId: row.virtual_bpt_id,
    virtualBptName: row.virtual_bpt_name,
    currency: row.currency,
    title: row.title,
    description: row.description,
    amountSats: row.amount_msat === null ? null : Number(BigInt(row.amount_msat) / 1000n),
    commentAllowed: row.comment_allowed,
    lnurl: encodeLnurl(payRequestUrl(deps, row.id)),
    createdAt: row.created_at.toISOString(),
  };
}

function managerOf(caller: AccessClaims): string | undefined {
  return caller.role === 'manager' ? caller.userId : undefined;
}

export async function listDonationLinks(deps: DonationDeps, caller: AccessClaims): Promise<DonationLink[]> {
  const rows = await listDonationLinkRows(deps.db, organizationOf(caller), managerOf(caller));
  return rows.map((row) => toDonationLink(deps, row));
}

export async function createDonationLink(
  deps: DonationDeps,
  caller: AccessClaims,
  request: CreateDonationLinkRequest,
): Promise<DonationLink> {
  const organizationId = organizationOf(caller);
  const input = CreateDonationLinkRequestSchema.parse(request);
  if (!(await findVirtualBpt(deps.db, organizationId, input.virtualBptId))) {
    throw new AppError('InvalidInput', 'virtualBptId: no such virtual BPT in this organization');
  }
  const id = await insertDonationLink(deps.db, {
    organization_id: organizationId,
    virtual_bpt_id: input.virtualBptId,
    title: input.title,
    description: input.description,
    amount_msat: input.amountSats == null ? null : BigInt(input.amountSats) * 1000n,
    comment_allowed: input.commentAllowed,
  });
  const row = await findDonationLinkInOrganization(deps.db, organizationId, id);
  if (!row) throw new AppError('NotFound', 'Donation link not found');
  return toDonationLink(deps, row);
}

export async function deleteDonationLink(deps: DonationDeps, caller: AccessClaims, id: string): Promise<void> {
  if (!(await softDeleteDonationLink(deps.db, organizationOf(caller), id, new Date()))) {
    throw new AppError('NotFound', 'Donation link not found');
  }
}

/** The donations received, newest first, a page at a time; managers see their accounts' only. */
export async function listDonations(
  deps: DonationDeps,
  caller: AccessClaims,
  query: DonationHistoryQuery,
): Promise<DonationHistory> {
  const { page, pageSize } = DonationHistoryQuerySchema.parse(query);
  const { rows, total } = await listReceivedDonations(
    deps.db,
    organizationOf(caller),
    { limit: pageSize, offset: (page - 1) * pageSize },
    managerOf(caller),
  );
  return {
    items: rows.map((row) => ({
      id: row.id,
      donationLinkId: row.donation_link_id,
      title: row.title,
      receivedAt: row.received_at.toISOString(),
      amountMsat: Number(BigInt(row.amount_msat)),
      fiatAmount: formatMinor(BigInt(row.total_minor), row.currency),
      currency: row.currency,
      comment: row.comment,
    })),
    total,
    page,
    pageSize,
  };
}

function toDonationAddress(deps: DonationDeps, username: string, donationLinkId: string): DonationAddress {
  return { username, donationLinkId, address: `${username}@${addressHost(deps)}` };
}

export async function getDonationAddress(deps: DonationDeps, caller: AccessClaims): Promise<DonationAddressAnswer> {
  const row = await findDonationAddress(deps.db, organizationOf(caller));
  return { address: row ? toDonationAddress(deps, row.username, row.donation_link_id) : null };
}

/** Names the organization's Lightning address and the donation link it pays (LUD-16). */
export async function setDonationAddress(
  deps: DonationDeps,
  caller: AccessClaims,
  request: SetDonationAddressRequest,
): Promise<DonationAddressAnswer> {
  const organizationId = organizationOf(caller);
  const { username, donationLinkId } = SetDonationAddressRequestSchema.parse(request);
  if (!isValidAddressName(username)) {
    throw new AppError(
      'InvalidLightningAddress',
      'A name uses a-z, 0-9, -, _ and ., starts and ends with a letter or digit, and has at most 64 characters',
    );
  }
  if (!(await findDonationLinkInOrganization(deps.db, organizationId, donationLinkId))) {
    throw new AppError('InvalidInput', 'donationLinkId: no such donation link in this organization');
  }
  if (!(await upsertDonationAddress(deps.db, organizationId, username, donationLinkId, new Date()))) {
    throw new AppError('LightningAddressTaken', 'This name is taken');
  }
  return { address: toDonationAddress(deps, username, donationLinkId) };
}

export async function removeDonationAddress(deps: DonationDeps, caller: AccessClaims): Promise<void> {
  await deleteDonationAddress(deps.db, organizationOf(caller));
}

/**
 * A live link with everything paying it needs: its terminal, its organization, its limits, where
 * a wallet calls back, and for the Lightning address the identifier its metadata names (LUD-16).
 */
export type PayTarget = {
  link: DonationLinkRow;
  bpt: BptRow;
  organizationName: string;
  organizationLanguage: Language;
  minMsat: bigint;
  maxMsat: bigint;
  callback: string;
  identifier?: string;
};

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

async function findPayable(deps: DonationDeps, id: string): Promise<Omit<PayTarget, 'callback'>> {
  const notFound = new AppError('NotFound', 'Donation link not found');
  if (!UUID.test(id)) throw notFound;
  const link = await findPublicDonationLink(deps.db, id);
  if (!link) throw notFound;
  const selling = await findVirtualBpt(deps.db, link.organization_id, link.virtual_bpt_id);
  const organization = await findOrganizationById(deps.db, link.organization_id);
  if (!selling || !organization) throw notFound;
  const fixed = link.amount_msat === null ? null : BigInt(link.amount_msat);
  return {
    link,
    bpt: selling.bpt,
    organizationName: organization.name,
    organizationLanguage: organization.language,
    minMsat: fixed ?? MIN_SENDABLE_MSAT,
    maxMsat: fixed ?? MAX_INVOICE_MSAT,
  };
}

/** A donation link by its public id. */
export async function findDonationLinkToPay(deps: DonationDeps, id: string): Promise<PayTarget> {
  const payable = await findPayable(deps, id);
  return { ...payable, callback: publicUrl(deps, `/api/lnurlp/${payable.link.id}/callback`) };
}

/** The link behind `name@host`; a `+tag` after the name is dropped (LUD-16). */
export async function findDonationAddressToPay(deps: DonationDeps, name: string): Promise<PayTarget> {
  const parsed = parseAddressName(name);
  const address = parsed && (await findDonationAddressByUsername(deps.db, parsed.username));
  if (!parsed || !address) throw new AppError('NotFound', 'No such Lightning address');
  return {
    ...(await findPayable(deps, address.donation_link_id)),
    callback: publicUrl(deps, `/api/lnurlp/addresses/${parsed.username}/callback`),
    identifier: `${parsed.username}@${addressHost(deps)}`,
  };
}

/** The LUD-06 metadata string of a target, built the same way for the first answer and the callback. */
async function metadataOf(deps: DonationDeps, target: PayTarget): Promise<string> {
  const logo = await findOrganizationLogo(deps.db, target.link.organization_id);
  return buildPayMetadata({
    text: `${target.link.title} · ${target.organizationName}`,
    longDescription: target.link.description || undefined,
    identifier: target.identifier,
    image: logo ? { contentType: logo.content_type, bytes: logo.bytes } : undefined,
  });
}

/** LUD-06's first answer. */
export async function describeDonationTarget(deps: DonationDeps, target: PayTarget): Promise<LnurlPayRequest> {
  return {
    tag: 'payRequest',
    callback: target.callback,
    minSendable: Number(target.minMsat),
    maxSendable: Number(target.maxMsat),
    metadata: await metadataOf(deps, target),
    commentAllowed: target.link.comment_allowed,
  };
}

/**
 * One donation's invoice: the amount within the link's limits, the comment within its length
 * (LUD-12), priced at the current rate of the linked BPT's currency, committed to the metadata.
 */
async function issueDonationInvoice(
  deps: DonationDeps,
  target: PayTarget,
  amountMsat: bigint,
  rawComment: string | undefined,
) {
  const { link } = target;
  if (amountMsat < target.minMsat || amountMsat > target.maxMsat) {
    throw new AppError(
      'InvalidAmount',
      target.minMsat === target.maxMsat
        ? `This link takes exactly ${target.minMsat} msat`
        : `The amount must be between ${target.minMsat} and ${target.maxMsat} msat`,
    );
  }
  const comment = cleanComment(rawComment);
  if (comment !== null && commentLength(comment) > link.comment_allowed) {
    throw new AppError(
      'InvalidInput',
      link.comment_allowed === 0
        ? 'This link takes no comment'
        : `The comment is longer than ${link.comment_allowed} characters`,
    );
  }
  const invoice = await issueInvoice(deps, {
    bpt: target.bpt,
    price: { kind: 'msat', amountMsat },
    description: `${link.title} · ${target.organizationName}`,
    expirySeconds: deps.config.invoiceExpirySeconds,
    source: 'donation',
    sourceId: link.id,
    virtualBptId: link.virtual_bpt_id,
    metadata: await metadataOf(deps, target),
  });
  await insertDonation(deps.db, {
    organization_id: link.organization_id,
    donation_link_id: link.id,
    invoice_id: invoice.id,
    amount_msat: amountMsat,
    comment,
  });
  return invoice;
}

/** LUD-06's callback: `amount` in msat and LUD-12's `comment`, answered with the invoice. */
export async function payDonationTarget(
  deps: DonationDeps,
  target: PayTarget,
  query: { amount?: string; comment?: string },
): Promise<LnurlPayInvoice> {
  const amountMsat = parseMsatAmount(query.amount);
  if (amountMsat === null) throw new AppError('InvalidAmount', 'amount: a whole number of millisatoshis is required');
  const invoice = await issueDonationInvoice(deps, target, amountMsat, query.comment);
  return {
    pr: invoice.payment_request,
    routes: [],
    successAction: {
      tag: 'message',
      message: successMessage(`Thank you for your donation to ${target.organizationName}!`),
    },
  };
}

/** What the public donation page shows: no more of the merchant than its name and look. */
export async function getPublicDonationLink(deps: DonationDeps, target: PayTarget): Promise<PublicDonationLink> {
  const branding = await getPublicBranding(deps.db, target.link.organization_id);
  return {
    id: target.link.id,
    title: target.link.title,
    description: target.link.description,
    amountSats: target.link.amount_msat === null ? null : Number(BigInt(target.link.amount_msat) / 1000n),
    minSats: Number(target.minMsat / 1000n),
    maxSats: Number(target.maxMsat / 1000n),
    commentAllowed: target.link.comment_allowed,
    lnurl: encodeLnurl(payRequestUrl(deps, target.link.id)),
    merchant: { name: target.organizationName, logoUrl: branding.logoUrl, accentColor: branding.accentColor },
    language: target.organizationLanguage,
  };
}

/** The donation page's own way in: the same invoice a wallet gets through LNURL, for a typed amount. */
export async function createDonationInvoice(
  deps: DonationDeps,
  target: PayTarget,
  request: CreateDonationInvoiceRequest,
): Promise<DonationInvoice> {
  const invoice = await issueDonationInvoice(deps, target, BigInt(request.amountSats) * 1000n, request.comment);
  return {
    id: invoice.id,
    paymentRequest: invoice.payment_request,
    amountMsat: Number(BigInt(invoice.amount_msat)),
    expiresAt: invoice.expires_at.toISOString(),
  };
}

/** A donation's settled invoice records the donation (modules/ledger/settlement-handlers.ts). */
export function registerDonationSettlementHandlers(): void {
  registerSettlementHandler('donation', 'donations', recordDonationReceived);
}

/**
 * The settlement effect of a donation's invoice, inside the settlement's transaction: the
 * donation enters the history, and the merchant's webhooks hear of it iff the settlement commits.
 */
export async function recordDonationReceived(trx: Db, invoice: InvoiceRow): Promise<void> {
  const receivedAt = invoice.settled_at ?? new Date();
  const donation = await markDonationReceived(trx, invoice.id, receivedAt);
  if (!donation) return;
  await enqueueWebhookEvent(trx, invoice.organization_id, 'donation.received', {
    donationId: donation.id,
    donationLinkId: donation.donation_link_id,
    title: donation.title,
    amount: { currency: invoice.currency, value: formatMinor(BigInt(invoice.total_minor), invoice.currency) },
    amountSats: Number(BigInt(donation.amount_msat) / 1000n),
    amountMsat: donation.amount_msat,
    comment: donation.comment,
    receivedAt: receivedAt.toISOString(),
  });
}
