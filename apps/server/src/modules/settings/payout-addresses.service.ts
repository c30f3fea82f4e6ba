import {
  AppError,
  type LightningAddressRequest,
  type NotificationKind,
  type OnchainAddressRequest,
  type PayoutAddresses,
} from '@rayo/shared';
import type { LightningBackend } from '../../adapters/lightning/types.ts';
import { resolveLightningAddress } from '../../adapters/lnurl/lightning-address-client.ts';
import type { LnurlLog } from '../../adapters/lnurl/withdraw-client.ts';
import type { Config } from '../../config.ts';
import type { Db } from '../../db/database.ts';
import { type BitcoinNetwork, checkBitcoinAddress } from '../../domain/bitcoin-address.ts';
import { parseLightningAddress } from '../../domain/lightning-address.ts';
import type { RequestContext } from '../../http/request-context.ts';
import { organizationOf } from '../accounts/accounts.service.ts';
import { type AuditAction, audit } from '../audit/audit.service.ts';
import type { AccessClaims } from '../auth/tokens.ts';
import { notifyBackOffice } from '../notifications/notifications.service.ts';
import { cancelPayoutsToOldAddress } from '../payouts/payout-cancel.service.ts';
import { lightningAddressReach } from '../payouts/payouts.service.ts';
import {
  findPayoutAddresses,
  type PayoutAddressesRow,
  updateLightningAddress,
  updateOnchainAddress,
} from './payout-addresses.repo.ts';
import {
  announceDestinationChange,
  type DestinationChangeDeps,
  recordDestinationChange,
} from './payout-destination-changes.service.ts';

export type PayoutAddressDeps = DestinationChangeDeps & {
  config: Pick<Config, 'lnurlAllowPrivateHosts' | 'lightning'>;
  lightning: Pick<LightningBackend, 'network' | 'lookupPayment'>;
};

type Log = LnurlLog & { warn: (details: object, message: string) => void };

/** On-chain payouts leave from the Lightning node's wallet, so addresses are for its network; devnet's is regtest. */
function networkOf(deps: PayoutAddressDeps): BitcoinNetwork {
  return deps.lightning.network === 'devnet' ? 'regtest' : deps.lightning.network;
}

async function readAddresses(db: Db, organizationId: string, lock = false): Promise<PayoutAddressesRow> {
  const row = await findPayoutAddresses(db, organizationId, { lock });
  if (!row) throw new AppError('NotFound', 'Organization not found');
  return row;
}

function toPayoutAddresses(deps: PayoutAddressDeps, row: PayoutAddressesRow): PayoutAddresses {
  return {
    onchainAddress: row.onchain_address,
    lightningAddress: row.lightning_address,
    network: networkOf(deps),
    bankVerified: row.bank_verified,
    onchainVerified: row.crypto_verified,
    lightningVerified: row.disbursement_address_verified,
  };
}

export async function getPayoutAddresses(deps: PayoutAddressDeps, caller: AccessClaims): Promise<PayoutAddresses> {
  return toPayoutAddresses(deps, await readAddresses(deps.db, organizationOf(caller)));
}

type AddressChange = {
  field: 'onchainAddress' | 'lightningAddress';
  action: AuditAction & NotificationKind;
  address: string;
  write: (trx: Db, organizationId: string, address: string) => Promise<void>;
};

/**
 * Writes the address with its verification withdrawn, the change that holds its payouts
 * (payout-destination-changes.service.ts), the audit entry and back office's notice in one
 * transaction, then mails every admin. The same address again writes nothing and keeps its
 * verification.
 */
async function changeAddress(
  ctx: RequestContext,
  deps: PayoutAddressDeps,
  log: Log,
  change: AddressChange,
): Promise<PayoutAddresses> {
  const organizationId = organizationOf(ctx);
  const outcome = await deps.db.transaction().execute(async (trx) => {
    const row = await readAddresses(trx, organizationId, true);
    const column = change.field === 'onchainAddress' ? 'onchain_address' : 'lightning_address';
    const verifiedColumn = change.field === 'onchainAddress' ? 'crypto_verified' : 'disbursement_address_verified';
    const before = row[column];
    if (before === change.address) return { addresses: toPayoutAddresses(deps, row) };
    await change.write(trx, organizationId, change.address);
    const recorded = await recordDestinationChange(trx, {
      organizationId,
      kind: change.field === 'onchainAddress' ? 'onchain' : 'lightning',
      before,
      beforeVerified: row[verifiedColumn],
      after: change.address,
      actor: { userId: ctx.userId, email: ctx.actorEmail },
    });
    await audit(ctx, trx, change.action, {
      organizationId,
      target: `organization:${organizationId}`,
      before: { [change.field]: before },
      after: { [change.field]: change.address },
    });
    await notifyBackOffice(trx, {
      organizationId,
      kind: change.action,
      payload: {
        changedBy: ctx.actorEmail,
        wasVerified: row[verifiedColumn],
        before,
        after: change.address,
      },
    });
    return {
      addresses: toPayoutAddresses(deps, { ...row, [column]: change.address, [verifiedColumn]: false }),
      recorded,
    };
  });
  if (outcome.recorded) await announceDestinationChange(deps, outcome.recorded, log);
  return outcome.addresses;
}

/** Sets where the on-chain part of the payout split goes; only an address of the node's network. */
export async function setOnchainAddress(
  ctx: RequestContext,
  deps: PayoutAddressDeps,
  request: OnchainAddressRequest,
  log: Log,
): Promise<PayoutAddresses> {
  const network = networkOf(deps);
  const address = request.onchainAddress.trim();
  const check = checkBitcoinAddress(address, network);
  if (!check.valid) {
    if (check.reason === 'wrong-network') {
      throw new AppError(
        'OnchainAddressWrongNetwork',
        `This is a ${check.network} address; payouts are made on ${network}`,
      );
    }
    throw new AppError(
      'InvalidOnchainAddress',
      'This is not a valid Bitcoin address: check it for a mistyped character',
    );
  }
  // Bech32 addresses are kept lowercase, as wallets show them; base58 ones are case-sensitive.
  const stored = check.type === 'p2pkh' || check.type === 'p2sh' ? address : address.toLowerCase();
  return changeAddress(ctx, deps, log, {
    field: 'onchainAddress',
    action: 'settings.onchain_address_changed',
    address: stored,
    write: updateOnchainAddress,
  });
}

/**
 * Sets where the Lightning part of the payout split goes. The address is resolved (LUD-16) before
 * anything is written, and outside the transaction, so that a slow domain holds no lock.
 */
export async function setLightningAddress(
  ctx: RequestContext,
  deps: PayoutAddressDeps,
  request: LightningAddressRequest,
  log: Log,
): Promise<PayoutAddresses> {
  organizationOf(ctx);
  const address = parseLightningAddress(request.lightningAddress);
  // The same reach as the payout job's, which resolves this address again to pay it.
  await resolveLightningAddress({ address, ...lightningAddressReach(deps.config), log });
  return changeAddress(ctx, deps, log, {
    field: 'lightningAddress',
    action: 'settings.lightning_address_changed',
    address: address.address,
    // Open payouts to the old address that no payment can still complete are cancelled in the
    // same transaction: their shares go to the new address with the next batch.
    write: async (trx, organizationId, newAddress) => {
      await updateLightningAddress(trx, organizationId, newAddress);
      await cancelPayoutsToOldAddress(ctx, trx, deps.lightning, {
        organizationId,
        newAddress,
        actorUserId: ctx.userId,
        actorEmail: ctx.actorEmail,
      });
    },
  });
}
