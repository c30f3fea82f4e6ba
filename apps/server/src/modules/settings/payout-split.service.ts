import {
  AppError,
  missingVerifications,
  type PayoutSplit,
  type PayoutSplitRequest,
  type PayoutSplitSettings,
  percentsToBps,
  SPLIT_NEEDS_VALIDATION_MESSAGE,
  type SplitPercents,
  shiftDecimal,
  type VerificationEntries,
  type Verifications,
} from '@rayo/shared';
import type { Config } from '../../config.ts';
import type { Db } from '../../db/database.ts';
import type { RequestContext } from '../../http/request-context.ts';
import { organizationOf } from '../accounts/accounts.service.ts';
import { audit } from '../audit/audit.service.ts';
import type { AccessClaims } from '../auth/tokens.ts';
import { notifyBackOffice } from '../notifications/notifications.service.ts';
import {
  findOrganizationPayoutSplit,
  findPayoutSplitSettings,
  listVerificationEntries,
  type PayoutSplitRow,
  updatePayoutSplit,
} from './payout-split.repo.ts';

export type PayoutSplitDeps = { db: Db; config: Pick<Config, 'conversionFeeBps'> };

function percentsOf(row: PayoutSplitRow): SplitPercents {
  // The table keeps whole percentages (its check constraint), so these divide exactly.
  return {
    fiatPercent: row.payout_fiat_bps / 100,
    onchainPercent: row.payout_onchain_bps / 100,
    lightningPercent: row.payout_lightning_bps / 100,
  };
}

function verificationsOf(row: PayoutSplitRow): Verifications {
  return {
    bank: row.bank_verified,
    crypto: row.crypto_verified,
    disbursementAddress: row.disbursement_address_verified,
    conversionAddress: row.conversion_address_verified,
    kyb: row.kyb_verified,
  };
}

function toSettings(row: PayoutSplitRow, entries: VerificationEntries, conversionFeeBps: number): PayoutSplitSettings {
  return {
    ...percentsOf(row),
    currency: row.currency,
    conversionFeePercent: shiftDecimal(String(conversionFeeBps), 2),
    verifications: verificationsOf(row),
    entries,
  };
}

/**
 * The split a sale settles with, read by the settlement in its own transaction (`db`): the
 * organization's at that moment, which the sale keeps whatever changes later.
 */
export async function readPayoutSplitForSale(db: Db, organizationId: string): Promise<PayoutSplit> {
  return findOrganizationPayoutSplit(db, organizationId);
}

/** What the organizations have entered of what back office verifies, by id. */
export async function readVerificationEntries(
  db: Db,
  organizationIds: readonly string[],
): Promise<Map<string, VerificationEntries>> {
  return listVerificationEntries(db, organizationIds);
}

async function entriesOf(db: Db, organizationId: string): Promise<VerificationEntries> {
  const entries = (await listVerificationEntries(db, [organizationId])).get(organizationId);
  if (!entries) throw new AppError('NotFound', 'Organization not found');
  return entries;
}

async function readSettings(db: Db, organizationId: string, lock = false): Promise<PayoutSplitRow> {
  const row = await findPayoutSplitSettings(db, organizationId, { lock });
  if (!row) throw new AppError('NotFound', 'Organization not found');
  return row;
}

export async function getPayoutSplit(deps: PayoutSplitDeps, caller: AccessClaims): Promise<PayoutSplitSettings> {
  const organizationId = organizationOf(caller);
  const [row, entries] = await Promise.all([readSettings(deps.db, organizationId), entriesOf(deps.db, organizationId)]);
  return toSettings(row, entries, deps.config.conversionFeeBps);
}

/**
 * Changes how the organization's sales are paid out from the next settlement on; settled sales
 * keep the split they were recorded with. SPEC §4: only once back office has verified what the
 * new split relies on (`verificationsNeededFor`). The change, its audit entry and back office's
 * notification commit together.
 */
export async function setPayoutSplit(
  ctx: RequestContext,
  deps: PayoutSplitDeps,
  request: PayoutSplitRequest,
): Promise<PayoutSplitSettings> {
  const organizationId = organizationOf(ctx);
  return deps.db.transaction().execute(async (trx) => {
    const row = await readSettings(trx, organizationId, true);
    const split: SplitPercents = {
      fiatPercent: request.fiatPercent,
      onchainPercent: request.onchainPercent,
      lightningPercent: request.lightningPercent,
    };
    if (missingVerifications(verificationsOf(row), split).length > 0) {
      throw new AppError('SplitNeedsValidation', SPLIT_NEEDS_VALIDATION_MESSAGE);
    }
    const bps = percentsToBps(split);
    await updatePayoutSplit(trx, organizationId, bps);
    await audit(ctx, trx, 'settings.payout_split_changed', {
      organizationId,
      target: `organization:${organizationId}`,
      before: percentsOf(row),
      after: split,
    });
    await notifyBackOffice(trx, {
      organizationId,
      kind: 'settings.payout_split_changed',
      payload: { before: percentsOf(row), after: split },
    });
    return toSettings(
      {
        ...row,
        payout_fiat_bps: bps.fiatBps,
        payout_onchain_bps: bps.onchainBps,
        payout_lightning_bps: bps.lightningBps,
      },
      await entriesOf(trx, organizationId),
      deps.config.conversionFeeBps,
    );
  });
}
