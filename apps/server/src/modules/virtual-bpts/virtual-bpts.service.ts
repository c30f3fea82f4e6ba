import { AppError, type CreateVirtualBptRequest, type VirtualBpt } from '@rayo/shared';
import type { Db } from '../../db/database.ts';
import { organizationOf } from '../accounts/accounts.service.ts';
import type { AccessClaims } from '../auth/tokens.ts';
import { type BptRow, findOrganizationBpt, hasBpts } from '../bpts/bpts.service.ts';
import {
  findVirtualBpt as findVirtualBptRow,
  insertVirtualBpt,
  listVirtualBpts as listVirtualBptRows,
  softDeleteVirtualBpt,
  type VirtualBptListRow,
  type VirtualBptRow,
} from './virtual-bpts.repo.ts';

export type { VirtualBptListRow };

/** A live virtual BPT with the live terminal it sells for, whose account and currency take its sales. */
export type VirtualBptWithBpt = { virtualBpt: VirtualBptRow; bpt: BptRow };

function toVirtualBpt(row: VirtualBptListRow): VirtualBpt {
  return {
    id: row.id,
    name: row.name,
    bptId: row.bpt_id,
    bptName: row.bpt_name,
    accountId: row.account_id,
    accountName: row.account_name,
    currency: row.currency,
    createdAt: row.created_at.toISOString(),
  };
}

function managerFilter(caller: AccessClaims): string | undefined {
  return caller.role === 'manager' ? caller.userId : undefined;
}

/** Managers see only the virtual BPTs selling for their linked accounts (SPEC §6). */
export async function listVirtualBpts(db: Db, caller: AccessClaims): Promise<VirtualBpt[]> {
  return (await listVirtualBptRows(db, organizationOf(caller), managerFilter(caller))).map(toVirtualBpt);
}

export async function createVirtualBpt(
  db: Db,
  caller: AccessClaims,
  request: CreateVirtualBptRequest,
): Promise<VirtualBpt> {
  const organizationId = organizationOf(caller);
  // SPEC §5: a virtual BPT needs a BPT first.
  if (!(await hasBpts(db, organizationId))) {
    throw new AppError('BptRequired', 'A virtual BPT needs a BPT first');
  }
  if (!(await findOrganizationBpt(db, organizationId, request.bptId))) {
    throw new AppError('InvalidInput', 'bptId: no such terminal in this organization');
  }
  const id = await insertVirtualBpt(db, organizationId, request);
  const row = (await listVirtualBptRows(db, organizationId)).find((candidate) => candidate.id === id);
  if (!row) throw new AppError('NotFound', 'Virtual BPT not found');
  return toVirtualBpt(row);
}

export async function deleteVirtualBpt(db: Db, caller: AccessClaims, id: string, now = new Date()): Promise<void> {
  if (!(await softDeleteVirtualBpt(db, organizationOf(caller), id, now))) {
    throw new AppError('NotFound', 'Virtual BPT not found');
  }
}

/**
 * Whether the caller sees what the organization's virtual BPT sells: managers only when it sells
 * for one of their linked accounts (SPEC §6), everyone else of the organization always.
 */
export async function callerSeesVirtualBpt(db: Db, caller: AccessClaims, id: string): Promise<boolean> {
  if (caller.role !== 'manager') return true;
  const visible = await listVirtualBptRows(db, organizationOf(caller), caller.userId);
  return visible.some((row) => row.id === id);
}

/** The caller's virtual BPT; managers reach only those selling for their linked accounts. */
export async function findCallerVirtualBpt(db: Db, caller: AccessClaims, id: string): Promise<VirtualBptWithBpt> {
  const found = await findVirtualBpt(db, organizationOf(caller), id);
  if (!found || !(await callerSeesVirtualBpt(db, caller, id))) throw new AppError('NotFound', 'Virtual BPT not found');
  return found;
}

/** The organization's virtual BPT `id`, unless it or its terminal was deleted. */
export async function findVirtualBpt(
  db: Db,
  organizationId: string,
  id: string,
): Promise<VirtualBptWithBpt | undefined> {
  const virtualBpt = await findVirtualBptRow(db, organizationId, id);
  if (!virtualBpt) return undefined;
  const bpt = await findOrganizationBpt(db, virtualBpt.organization_id, virtualBpt.bpt_id);
  return bpt ? { virtualBpt, bpt } : undefined;
}

/** The organization's live virtual BPTs whose terminal is live. */
export async function listOrganizationVirtualBpts(db: Db, organizationId: string): Promise<VirtualBptListRow[]> {
  return listVirtualBptRows(db, organizationId);
}
