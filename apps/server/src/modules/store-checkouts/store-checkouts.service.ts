import { randomUUID } from 'node:crypto';
import { isDeepStrictEqual } from 'node:util';
import {
  AppError,
  type CreatePublicStoreCheckoutRequest,
  type CreateStoreCheckoutRequest,
  checkoutPath,
  formatMinor,
  parseAmount,
  STORE_METADATA_MAX_BYTES,
  type StoreCheckout,
} from '@rayo/shared';
import type { Config } from '../../config.ts';
import type { Db } from '../../db/database.ts';
import { organizationOf } from '../accounts/accounts.service.ts';
import type { AccessClaims } from '../auth/tokens.ts';
import {
  type CheckoutRow,
  findOrganizationCheckout,
  findStoreCheckoutByOrderId,
} from '../checkouts/checkout-state.service.ts';
import { recordCheckout } from '../checkouts/checkouts.service.ts';
import { findOrganizationCheckoutProtection } from '../settings/checkout-protection.service.ts';
import {
  callerSeesVirtualBpt,
  findVirtualBpt,
  listOrganizationVirtualBpts,
} from '../virtual-bpts/virtual-bpts.service.ts';
import { findVirtualBptOrganization } from './store-checkouts.repo.ts';

export type StoreCheckoutDeps = { db: Db; config: Config };

function toStoreCheckout(config: Config, row: CheckoutRow): StoreCheckout {
  return {
    id: row.id,
    url: `${config.publicUrl.replace(/\/+$/, '')}${checkoutPath(row.id)}`,
    status: row.status,
    orderId: row.order_id ?? '',
    virtualBptId: row.virtual_bpt_id,
    amount: { currency: row.amount_currency, value: formatMinor(BigInt(row.amount_minor), row.amount_currency) },
    description: row.description,
    redirectUrl: row.redirect_url,
    metadata: row.metadata,
    expiresAt: row.expires_at?.toISOString() ?? null,
    paidVia: row.paid_via,
    paidAt: row.paid_at?.toISOString() ?? null,
    latePayment: row.late_payment,
    extraPayment: row.extra_payment,
    createdAt: row.created_at.toISOString(),
  };
}

function isLoopbackHost(hostname: string): boolean {
  return hostname === 'localhost' || hostname === '[::1]' || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(hostname);
}

/**
 * Where the payer returns: https only, since the page is handed to a payer's browser with the
 * order's outcome; plain http only to this machine in devnet, for local stores under test.
 */
function checkRedirectUrl(config: Config, text: string): string {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new AppError('InvalidInput', 'redirectUrl must be an absolute https URL');
  }
  const devnetLoopback =
    url.protocol === 'http:' && config.lightning.backend === 'devnet' && isLoopbackHost(url.hostname);
  if (url.protocol !== 'https:' && !devnetLoopback) {
    throw new AppError('InvalidInput', 'redirectUrl must be an absolute https URL');
  }
  if (url.username !== '' || url.password !== '') {
    throw new AppError('InvalidInput', 'redirectUrl must not carry credentials');
  }
  return url.toString();
}

function checkMetadata(metadata: Record<string, unknown> | undefined): Record<string, unknown> | undefined {
  if (metadata === undefined) return undefined;
  if (Buffer.byteLength(JSON.stringify(metadata)) > STORE_METADATA_MAX_BYTES) {
    throw new AppError('InvalidInput', `metadata must be at most ${STORE_METADATA_MAX_BYTES} bytes of JSON`);
  }
  return metadata;
}

async function virtualBptName(db: Db, organizationId: string, virtualBptId: string): Promise<string> {
  const found = await findVirtualBpt(db, organizationId, virtualBptId);
  if (!found) throw new AppError('NotFound', 'Virtual BPT not found');
  return found.virtualBpt.name;
}

/** The virtual BPT named, or the organization's only one. */
async function chooseVirtualBpt(db: Db, organizationId: string, virtualBptId: string | undefined): Promise<string> {
  if (virtualBptId !== undefined) {
    // A body field, so another organization's id is an invalid input (as for other body ids).
    if (!(await findVirtualBpt(db, organizationId, virtualBptId))) {
      throw new AppError('InvalidInput', 'virtualBptId names no virtual BPT of this organization');
    }
    return virtualBptId;
  }
  const all = await listOrganizationVirtualBpts(db, organizationId);
  const [only] = all;
  if (all.length !== 1 || !only) {
    throw new AppError(
      'InvalidInput',
      all.length === 0
        ? 'Create a virtual BPT first'
        : 'virtualBptId is required when the organization has more than one virtual BPT',
    );
  }
  return only.id;
}

/** What a request asks of its checkout, for telling a retry from another order under the same id. */
type WantedCheckout = {
  virtualBptId: string;
  currency: string;
  minor: bigint;
  description: string;
  redirectUrl: string | null;
  metadata: Record<string, unknown> | null;
  lifeSeconds: number;
};

/** The fields of `row` that differ from what the request asks for; empty for a retried request. */
function differences(row: CheckoutRow, wanted: WantedCheckout): string[] {
  const lifeSeconds = row.expires_at ? Math.round((row.expires_at.getTime() - row.created_at.getTime()) / 1000) : null;
  const checks: Array<[string, boolean]> = [
    ['virtualBptId', row.virtual_bpt_id === wanted.virtualBptId],
    ['amount', BigInt(row.amount_minor) === wanted.minor && row.amount_currency === wanted.currency],
    ['description', row.description === wanted.description],
    ['redirectUrl', row.redirect_url === wanted.redirectUrl],
    // Key order is the caller's and jsonb's own; the values are what count.
    ['metadata', isDeepStrictEqual(row.metadata, wanted.metadata)],
    ['expiresInSeconds', lifeSeconds === wanted.lifeSeconds],
  ];
  return checks.filter(([, same]) => !same).map(([field]) => field);
}

/**
 * One store order, one checkout: the same order id with every field the caller sent the same
 * answers the checkout made the first time (a retried request); anything else sent under that id
 * (another amount, redirect, metadata, description, expiry or virtual BPT) is 409
 * OrderIdConflict, so a checkout someone else made for the id is never handed to the store.
 */
async function createForOrganization(
  deps: StoreCheckoutDeps,
  organizationId: string,
  virtualBptId: string,
  request: CreatePublicStoreCheckoutRequest & { orderId: string },
): Promise<{ checkout: StoreCheckout; created: boolean }> {
  const now = new Date();
  const minor = parseAmount(request.amount, request.currency);
  const redirectUrl = request.redirectUrl === undefined ? null : checkRedirectUrl(deps.config, request.redirectUrl);
  const wanted: WantedCheckout = {
    virtualBptId,
    currency: request.currency,
    minor,
    // The page names the order id already; without a description it names the shop selling.
    description: request.description ?? (await virtualBptName(deps.db, organizationId, virtualBptId)),
    redirectUrl,
    metadata: checkMetadata(request.metadata) ?? null,
    lifeSeconds: request.expiresInSeconds ?? deps.config.invoiceExpirySeconds,
  };
  const answer = (row: CheckoutRow, created: boolean) => {
    const differing = differences(row, wanted);
    if (differing.length > 0) {
      throw new AppError(
        'OrderIdConflict',
        `Order ${request.orderId} already has a checkout made with another ${differing.join(', ')}`,
      );
    }
    return { checkout: toStoreCheckout(deps.config, row), created };
  };

  const existing = await findStoreCheckoutByOrderId(deps.db, organizationId, request.orderId);
  if (existing) return answer(existing, false);
  const { checkout: row, created } = await recordCheckout(
    deps,
    {
      organizationId,
      virtualBptId,
      kind: 'store',
      description: wanted.description,
      amount: { currency: request.currency, minor },
      orderId: request.orderId,
      ...(redirectUrl === null ? {} : { redirectUrl }),
      ...(wanted.metadata === null ? {} : { metadata: wanted.metadata }),
      expiresAt: new Date(now.getTime() + wanted.lifeSeconds * 1000),
    },
    now,
  );
  // A concurrent request with the same order id may have won the insert.
  return answer(row, created);
}

/**
 * `POST /api/checkouts`: a store's server (developer token) or, with checkout protection off, an
 * admin's session creates a checkout for an order (DESIGN §9).
 */
export async function createStoreCheckout(
  deps: StoreCheckoutDeps,
  caller: AccessClaims,
  request: CreateStoreCheckoutRequest,
): Promise<{ checkout: StoreCheckout; created: boolean }> {
  const organizationId = organizationOf(caller);
  const protectedCheckouts = await findOrganizationCheckoutProtection(deps.db, organizationId);
  if (protectedCheckouts && caller.developerScope === undefined) {
    throw new AppError('CheckoutProtected', 'Checkout protection is on: create checkouts with the developer token');
  }
  const virtualBptId = await chooseVirtualBpt(deps.db, organizationId, request.virtualBptId);
  return createForOrganization(deps, organizationId, virtualBptId, request);
}

/** The order id of a checkout made by the public button: chosen here, never by its caller. */
const BUTTON_ORDER_PREFIX = 'button-';

/**
 * The public store button's checkout, without credentials: allowed only while the organization
 * keeps checkout protection off, since the shopper's browser then states the amount.
 */
export async function createPublicStoreCheckout(
  deps: StoreCheckoutDeps,
  virtualBptId: string,
  request: CreatePublicStoreCheckoutRequest,
): Promise<{ checkout: StoreCheckout; created: boolean }> {
  const organizationId = await findVirtualBptOrganization(deps.db, virtualBptId);
  if (!organizationId) throw new AppError('NotFound', 'Virtual BPT not found');
  if (await findOrganizationCheckoutProtection(deps.db, organizationId)) {
    throw new AppError('CheckoutProtected', "Checkout protection is on: this store's server creates its checkouts");
  }
  // Never an order id of the store's: each press of the button is a checkout of its own.
  return createForOrganization(deps, organizationId, virtualBptId, {
    ...request,
    orderId: `${BUTTON_ORDER_PREFIX}${randomUUID()}`,
  });
}

/**
 * A store polls its checkout's status. A manager reads only the checkouts sold for their linked
 * accounts; any other is not found, as for payment links.
 */
export async function getStoreCheckout(
  deps: StoreCheckoutDeps,
  caller: AccessClaims,
  id: string,
): Promise<StoreCheckout> {
  const row = await findOrganizationCheckout(deps.db, organizationOf(caller), id);
  if (row?.kind !== 'store' || !(await callerSeesVirtualBpt(deps.db, caller, row.virtual_bpt_id))) {
    throw new AppError('NotFound', 'Checkout not found');
  }
  return toStoreCheckout(deps.config, row);
}
