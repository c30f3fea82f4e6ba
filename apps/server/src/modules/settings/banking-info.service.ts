import {
  AppError,
  type BankingInfo,
  type BankingInfoRequest,
  type BankingInfoTemplate,
  type Currency,
} from '@rayo/shared';
import type { Db } from '../../db/database.ts';
import {
  bankingTemplateFor,
  maskBankingInfo,
  sameBankingInfo,
  validateBankingInfo,
} from '../../domain/banking-info.ts';
import { countryCurrenciesOf, fiatCurrenciesOf } from '../../domain/country-currencies.ts';
import { organizationOf } from '../accounts/accounts.service.ts';
import { insertAuditEntry } from '../audit/audit.repo.ts';
import type { AccessClaims } from '../auth/tokens.ts';
import { insertNotification } from '../notifications/notifications.repo.ts';
import { findUserById } from '../users/users.repo.ts';
import {
  type BankingContext,
  type BankingInfoRow,
  findBankingContext,
  findBankingInfoRow,
  insertBankingInfoRow,
  listBankingInfoRows,
  markBankUnverified,
  updateBankingInfoRow,
} from './banking-info.repo.ts';

async function contextOf(db: Db, organizationId: string, lock = false): Promise<BankingContext> {
  const context = await findBankingContext(db, organizationId, { lock });
  if (!context) throw new AppError('NotFound', 'Organization not found');
  return context;
}

function templateOf(context: BankingContext): BankingInfoTemplate {
  return bankingTemplateFor(context.countryCode, fiatCurrenciesOf(context.countryCode, context.currency));
}

export function toBankingInfo(row: BankingInfoRow): BankingInfo {
  return { id: row.id, bankingInfoMetadata: row.metadata, updatedAt: row.updated_at.toISOString() };
}

export async function getBankingInfoTemplate(db: Db, caller: AccessClaims): Promise<BankingInfoTemplate> {
  return templateOf(await contextOf(db, organizationOf(caller)));
}

export async function getCountryCurrencies(db: Db, caller: AccessClaims): Promise<Currency[]> {
  const context = await contextOf(db, organizationOf(caller));
  return countryCurrenciesOf(context.countryCode, context.currency);
}

export async function listBankingInfo(db: Db, caller: AccessClaims): Promise<BankingInfo[]> {
  return (await listBankingInfoRows(db, organizationOf(caller))).map(toBankingInfo);
}

type Change = {
  before: BankingInfoRow | undefined;
  write: (trx: Db, metadata: BankingInfoRow['metadata']) => Promise<BankingInfoRow>;
};

/**
 * Validates against the country's template, then writes the account, withdraws back office's
 * verification of the bank, and records the audit entry and back office's notice, all in one
 * transaction. An unchanged account writes nothing and keeps its verification.
 */
async function changeBankingInfo(
  db: Db,
  caller: AccessClaims,
  request: BankingInfoRequest,
  ip: string,
  change: (trx: Db) => Promise<Change>,
): Promise<BankingInfo> {
  const organizationId = organizationOf(caller);
  const actor = await findUserById(db, caller.userId);
  return db.transaction().execute(async (trx) => {
    const context = await contextOf(trx, organizationId, true);
    const metadata = validateBankingInfo(templateOf(context), request.bankingInfoMetadata);
    const { before, write } = await change(trx);
    if (before && sameBankingInfo(before.metadata, metadata)) return toBankingInfo(before);
    const saved = await write(trx, metadata);
    await markBankUnverified(trx, organizationId);
    const maskedBefore = before ? maskBankingInfo(before.metadata) : null;
    const maskedAfter = maskBankingInfo(saved.metadata);
    await insertAuditEntry(trx, {
      action: 'settings.banking_info_changed',
      actorUserId: caller.userId,
      actorEmail: actor?.email ?? null,
      organizationId,
      target: `banking_info:${saved.id}`,
      before: maskedBefore,
      after: maskedAfter,
      ip,
    });
    await insertNotification(trx, {
      organizationId,
      kind: 'settings.banking_info_changed',
      payload: {
        bankingInfoId: saved.id,
        changedBy: actor?.email ?? null,
        wasVerified: context.bankVerified,
        before: maskedBefore,
        after: maskedAfter,
      },
    });
    return toBankingInfo(saved);
  });
}

/** SPEC §7 POST /settings/banking-info: the organization's bank account, when it has none yet. */
export async function saveBankingInfo(
  db: Db,
  caller: AccessClaims,
  request: BankingInfoRequest,
  ip: string,
): Promise<BankingInfo> {
  const organizationId = organizationOf(caller);
  return changeBankingInfo(db, caller, request, ip, async (trx) => {
    // One account per organization: a second would be listed but never paid (SPEC §3 uses the first).
    if ((await listBankingInfoRows(trx, organizationId)).length > 0) {
      throw new AppError('BankingInfoExists', 'The organization has a bank account already; change that one');
    }
    return { before: undefined, write: (inner, metadata) => insertBankingInfoRow(inner, organizationId, metadata) };
  });
}

/** SPEC §7 PUT /settings/banking-info/{bankingInfoId}. */
export async function updateBankingInfo(
  db: Db,
  caller: AccessClaims,
  id: string,
  request: BankingInfoRequest,
  ip: string,
): Promise<BankingInfo> {
  const organizationId = organizationOf(caller);
  return changeBankingInfo(db, caller, request, ip, async (trx) => {
    const before = await findBankingInfoRow(trx, organizationId, id);
    if (!before) throw new AppError('NotFound', 'Bank account not found');
    return { before, write: (inner, metadata) => updateBankingInfoRow(inner, organizationId, id, metadata) };
  });
}
