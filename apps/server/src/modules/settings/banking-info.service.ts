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
import type { RequestContext } from '../../http/request-context.ts';
import { organizationOf } from '../accounts/accounts.service.ts';
import { audit } from '../audit/audit.service.ts';
import type { AccessClaims } from '../auth/tokens.ts';
import { notifyBackOffice } from '../notifications/notifications.service.ts';
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
import {
  announceDestinationChange,
  type DestinationChangeDeps,
  recordDestinationChange,
} from './payout-destination-changes.service.ts';

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

type Log = { warn: (details: object, message: string) => void };

/**
 * Validates against the country's template, then writes the account, withdraws back office's
 * verification of the bank, records the change that holds bank transfers
 * (payout-destination-changes.service.ts), the audit entry and back office's notice, all in one
 * transaction, then mails every admin. An unchanged account writes nothing and keeps its
 * verification.
 */
async function changeBankingInfo(
  ctx: RequestContext,
  deps: DestinationChangeDeps,
  request: BankingInfoRequest,
  log: Log,
  change: (trx: Db) => Promise<Change>,
): Promise<BankingInfo> {
  const organizationId = organizationOf(ctx);
  const outcome = await deps.db.transaction().execute(async (trx) => {
    const context = await contextOf(trx, organizationId, true);
    const metadata = validateBankingInfo(templateOf(context), request.bankingInfoMetadata);
    const { before, write } = await change(trx);
    if (before && sameBankingInfo(before.metadata, metadata)) return { saved: toBankingInfo(before) };
    const saved = await write(trx, metadata);
    await markBankUnverified(trx, organizationId);
    const recorded = await recordDestinationChange(trx, {
      organizationId,
      kind: 'bank',
      before: before?.metadata ?? null,
      beforeVerified: context.bankVerified,
      after: saved.metadata,
      actor: { userId: ctx.userId, email: ctx.actorEmail },
    });
    const maskedBefore = before ? maskBankingInfo(before.metadata) : null;
    const maskedAfter = maskBankingInfo(saved.metadata);
    await audit(ctx, trx, 'settings.banking_info_changed', {
      organizationId,
      target: `banking_info:${saved.id}`,
      before: maskedBefore,
      after: maskedAfter,
    });
    await notifyBackOffice(trx, {
      organizationId,
      kind: 'settings.banking_info_changed',
      payload: {
        bankingInfoId: saved.id,
        changedBy: ctx.actorEmail,
        wasVerified: context.bankVerified,
        before: maskedBefore,
        after: maskedAfter,
      },
    });
    return { saved: toBankingInfo(saved), recorded };
  });
  if (outcome.recorded) await announceDestinationChange(deps, outcome.recorded, log);
  return outcome.saved;
}

/** SPEC §7 POST /settings/banking-info: the organization's bank account, when it has none yet. */
export async function saveBankingInfo(
  ctx: RequestContext,
  deps: DestinationChangeDeps,
  request: BankingInfoRequest,
  log: Log,
): Promise<BankingInfo> {
  const organizationId = organizationOf(ctx);
  return changeBankingInfo(ctx, deps, request, log, async (trx) => {
    // One account per organization: a second would be listed but never paid (SPEC §3 uses the first).
    if ((await listBankingInfoRows(trx, organizationId)).length > 0) {
      throw new AppError('BankingInfoExists', 'The organization has a bank account already; change that one');
    }
    return { before: undefined, write: (inner, metadata) => insertBankingInfoRow(inner, organizationId, metadata) };
  });
}

/** SPEC §7 PUT /settings/banking-info/{bankingInfoId}. */
export async function updateBankingInfo(
  ctx: RequestContext,
  deps: DestinationChangeDeps,
  id: string,
  request: BankingInfoRequest,
  log: Log,
): Promise<BankingInfo> {
  const organizationId = organizationOf(ctx);
  return changeBankingInfo(ctx, deps, request, log, async (trx) => {
    const before = await findBankingInfoRow(trx, organizationId, id);
    if (!before) throw new AppError('NotFound', 'Bank account not found');
    return { before, write: (inner, metadata) => updateBankingInfoRow(inner, organizationId, id, metadata) };
  });
}

/** The organization's banking details as stored, for back office. */
export async function listOrganizationBankingInfo(db: Db, organizationId: string): Promise<BankingInfoRow[]> {
  return listBankingInfoRows(db, organizationId);
}
