import type { PayoutAddresses, SplitPercents } from '@rayo/shared';

/** What a new organization sets up before it sells and is paid, in the order it is usually done. */
export const setupStepIds = ['account', 'bpt', 'payoutDestination', 'bankDetails', 'kyb', 'mfa'] as const;
export type SetupStep = (typeof setupStepIds)[number];

export type SetupState = {
  accounts: number;
  bpts: number;
  addresses: Pick<PayoutAddresses, 'onchainAddress' | 'lightningAddress'> | null;
  bankAccounts: number;
  kybDocuments: number;
  mfa: boolean;
};

/** Each step and whether it is done: a payout destination is an on-chain or a Lightning address. */
export function setupSteps(state: SetupState): Array<{ id: SetupStep; done: boolean }> {
  const done: Record<SetupStep, boolean> = {
    account: state.accounts > 0,
    bpt: state.bpts > 0,
    payoutDestination: Boolean(state.addresses?.onchainAddress || state.addresses?.lightningAddress),
    bankDetails: state.bankAccounts > 0,
    kyb: state.kybDocuments > 0,
    mfa: state.mfa,
  };
  return setupStepIds.map((id) => ({ id, done: done[id] }));
}

/** The addresses the split sends a share to that are not set, whose share waits in Rayo meanwhile. */
export function missingPayoutAddresses(
  split: Pick<SplitPercents, 'onchainPercent' | 'lightningPercent'>,
  addresses: Pick<PayoutAddresses, 'onchainAddress' | 'lightningAddress'>,
): Array<'lightning' | 'onchain'> {
  const missing: Array<'lightning' | 'onchain'> = [];
  if (split.lightningPercent > 0 && !addresses.lightningAddress) missing.push('lightning');
  if (split.onchainPercent > 0 && !addresses.onchainAddress) missing.push('onchain');
  return missing;
}
