import { randomBytes } from 'node:crypto';
import {
  AppError,
  type Bpt,
  type CreateBptRequest,
  CreateBptRequestSchema,
  DEFAULT_LANGUAGE,
  parsePercentToBps,
  SATS,
  satsPerUnit,
  type TerminalInfo,
  type TerminalSale,
  type UpdateBptRequest,
} from '@rayo/shared';
import type { Config } from '../../config.ts';
import type { Db } from '../../db/database.ts';
import type { Clock } from '../../domain/clock.ts';
import { countOrganizationAccounts, findOrganizationAccount, organizationOf } from '../accounts/accounts.service.ts';
import type { AccessClaims } from '../auth/tokens.ts';
import { findCurrentOrganization } from '../organizations/organizations.service.ts';
import { getRateForInvoice, requireFiatCurrency } from '../rates/rates.service.ts';
import { getPublicBranding } from '../settings/branding.service.ts';
import { listTodaysTerminalSales } from '../transactions/transactions.service.ts';
import {
  type BptFields,
  type BptRow,
  findBpt,
  findBptByShareToken,
  findBptForSale,
  insertBpt,
  listBpts as listBptRows,
  softDeleteBpt,
  updateBpt as updateBptRow,
} from './bpts.repo.ts';

export type { BptRow };

export function toBpt(row: BptRow): Bpt {
  return {
    id: row.id,
    name: row.name,
    accountId: row.account_id,
    accountName: row.account_name,
    channel: row.channel,
    currency: row.currency,
    shareable: row.shareable,
    tipEnabled: row.tip_enabled,
    taxPercentage: row.tax_bps / 100,
    shareToken: row.shareable ? row.share_token : null,
  };
}

/** 192 random bits: the share link is the cashier's only credential. */
export function newShareToken(): string {
  return randomBytes(24).toString('base64url');
}

async function requireCurrency(db: Db, currency: string): Promise<void> {
  if (currency !== SATS) await requireFiatCurrency(db, currency);
}

async function requireAccount(db: Db, organizationId: string, accountId: string): Promise<void> {
  if (!(await findOrganizationAccount(db, organizationId, accountId))) {
    throw new AppError('InvalidInput', 'accountId: no such account in this organization');
  }
}

async function requireBpt(db: Db, organizationId: string, id: string): Promise<BptRow> {
  const row = await findBpt(db, organizationId, id);
  if (!row) throw new AppError('NotFound', 'Terminal not found');
  return row;
}

/**
 * The caller's terminals. A share link charges without a session, so it goes only to those who
 * may charge: managers only read (SPEC §6) and never see it, so none outlives their account.
 */
export async function listBpts(db: Db, caller: AccessClaims): Promise<Bpt[]> {
  const manager = caller.role === 'manager';
  const rows = await listBptRows(db, organizationOf(caller), manager ? caller.userId : undefined);
  return rows.map((row) => (manager ? { ...toBpt(row), shareToken: null } : toBpt(row)));
}

export async function createBpt(db: Db, caller: AccessClaims, request: CreateBptRequest): Promise<Bpt> {
  const organizationId = organizationOf(caller);
  const input = CreateBptRequestSchema.parse(request);
  // SPEC §5: a BPT needs at least one account first.
  if ((await countOrganizationAccounts(db, organizationId)) === 0) {
    throw new AppError('AccountRequired', 'Create an account before adding a terminal');
  }
  await requireAccount(db, organizationId, input.accountId);
  await requireCurrency(db, input.currency);
  const id = await insertBpt(db, organizationId, {
    account_id: input.accountId,
    name: input.name,
    channel: input.channel,
    currency: input.currency,
    shareable: input.shareable,
    share_token: input.shareable ? newShareToken() : null,
    tip_enabled: input.tipEnabled,
    tax_bps: parsePercentToBps(input.taxPercentage),
  });
  return toBpt(await requireBpt(db, organizationId, id));
}

export async function updateBpt(db: Db, caller: AccessClaims, id: string, request: UpdateBptRequest): Promise<Bpt> {
  const organizationId = organizationOf(caller);
  const current = await requireBpt(db, organizationId, id);
  const changes: Partial<BptFields> = {};
  if (request.name !== undefined) changes.name = request.name;
  if (request.channel !== undefined) changes.channel = request.channel;
  if (request.tipEnabled !== undefined) changes.tip_enabled = request.tipEnabled;
  if (request.taxPercentage !== undefined) changes.tax_bps = parsePercentToBps(request.taxPercentage);
  if (request.accountId !== undefined) {
    await requireAccount(db, organizationId, request.accountId);
    changes.account_id = request.accountId;
  }
  if (request.currency !== undefined) {
    await requireCurrency(db, request.currency);
    changes.currency = request.currency;
  }
  if (request.shareable !== undefined) {
    changes.shareable = request.shareable;
    // Turning sharing off revokes the link; turning it back on issues a new one.
    changes.share_token = request.shareable ? (current.share_token ?? newShareToken()) : null;
  }
  await updateBptRow(db, organizationId, id, changes);
  return toBpt(await requireBpt(db, organizationId, id));
}

export async function rotateShareToken(db: Db, caller: AccessClaims, id: string): Promise<Bpt> {
  const organizationId = organizationOf(caller);
  const current = await requireBpt(db, organizationId, id);
  if (!current.shareable) throw new AppError('InvalidInput', 'Only a shareable terminal has a link to rotate');
  await updateBptRow(db, organizationId, id, { share_token: newShareToken() });
  return toBpt(await requireBpt(db, organizationId, id));
}

export async function deleteBpt(db: Db, caller: AccessClaims, id: string, now = new Date()): Promise<void> {
  if (!(await softDeleteBpt(db, organizationOf(caller), id, now))) throw new AppError('NotFound', 'Terminal not found');
}

/** The terminal of a signed-in user; managers may open those of their linked accounts. */
export async function findCallerBpt(db: Db, caller: AccessClaims, id: string): Promise<BptRow> {
  const row = await requireBpt(db, organizationOf(caller), id);
  if (caller.role === 'manager') {
    const visible = await listBptRows(db, row.organization_id, caller.userId);
    if (!visible.some((bpt) => bpt.id === id)) throw new AppError('NotFound', 'Terminal not found');
  }
  return row;
}

/** The caller's terminal read for a charge, with its organization and rate (`findBptForSale`). */
export async function findCallerBptForSale(db: Db, caller: AccessClaims, id: string) {
  const found = await findBptForSale(
    db,
    organizationOf(caller),
    id,
    caller.role === 'manager' ? caller.userId : undefined,
  );
  if (!found) throw new AppError('NotFound', 'Terminal not found');
  return found;
}

export async function findSharedBpt(db: Db, shareToken: string): Promise<BptRow> {
  const row = await findBptByShareToken(db, shareToken);
  if (!row) throw new AppError('NotFound', 'This terminal link is not valid any more');
  return row;
}

/** The latest sales the shared cashier link shows: the terminal's own, of today in the organization's zone. */
export async function listSharedTerminalSales(
  deps: { db: Db; clock: Clock },
  shareToken: string,
  limit: number,
): Promise<TerminalSale[]> {
  const row = await findSharedBpt(deps.db, shareToken);
  const organization = await findCurrentOrganization(deps.db, row.organization_id);
  const bpt = { id: row.id, timeZone: organization?.timeZone ?? 'UTC' };
  return listTodaysTerminalSales(deps.db, bpt, limit, deps.clock());
}

export async function getTerminalInfo(deps: { db: Db; config: Config }, row: BptRow): Promise<TerminalInfo> {
  const rateMinorPerBtc = await getRateForInvoice(deps, row.currency);
  const bpt = toBpt(row);
  const organization = await findCurrentOrganization(deps.db, row.organization_id);
  return {
    bpt: {
      id: bpt.id,
      name: bpt.name,
      currency: bpt.currency,
      tipEnabled: bpt.tipEnabled,
      taxPercentage: bpt.taxPercentage,
    },
    rate: satsPerUnit(rateMinorPerBtc, row.currency),
    rateMinorPerBtc: rateMinorPerBtc.toString(),
    branding: await getPublicBranding(deps.db, row.organization_id),
    countryCode: organization?.countryCode ?? null,
    timeZone: organization?.timeZone ?? 'UTC',
    language: organization?.language ?? DEFAULT_LANGUAGE,
  };
}

/** The organization's live terminal of this id; undefined when it has none of that id. */
export async function findOrganizationBpt(db: Db, organizationId: string, id: string): Promise<BptRow | undefined> {
  return findBpt(db, organizationId, id);
}

/** Whether the organization has a live terminal at all. */
export async function hasBpts(db: Db, organizationId: string): Promise<boolean> {
  return (await listBptRows(db, organizationId)).length > 0;
}
