import { describe, expect, it } from 'vitest';
import { missingPayoutAddresses, setupSteps } from './setup-steps.ts';

describe('setupSteps', () => {
  it('lists every step of a new organization as to do, and each as done once it is', () => {
    const fresh = { accounts: 0, bpts: 0, addresses: null, bankAccounts: 0, kybDocuments: 0, mfa: false };
    expect(setupSteps(fresh).filter((step) => step.done)).toEqual([]);
    expect(setupSteps(fresh).map((step) => step.id)).toEqual([
      'account',
      'bpt',
      'payoutDestination',
      'bankDetails',
      'kyb',
      'mfa',
    ]);
    const ready = {
      accounts: 1,
      bpts: 2,
      addresses: { onchainAddress: null, lightningAddress: 'cafe@example.com' },
      bankAccounts: 1,
      kybDocuments: 3,
      mfa: true,
    };
    expect(setupSteps(ready).every((step) => step.done)).toBe(true);
  });
});

describe('missingPayoutAddresses', () => {
  it('names an address the split pays a share to that is not set, and no other', () => {
    const none = { onchainAddress: null, lightningAddress: null };
    expect(missingPayoutAddresses({ lightningPercent: 60, onchainPercent: 0 }, none)).toEqual(['lightning']);
    expect(missingPayoutAddresses({ lightningPercent: 30, onchainPercent: 30 }, none)).toEqual([
      'lightning',
      'onchain',
    ]);
    expect(
      missingPayoutAddresses({ lightningPercent: 60, onchainPercent: 0 }, { ...none, lightningAddress: 'a@b.co' }),
    ).toEqual([]);
    expect(missingPayoutAddresses({ lightningPercent: 0, onchainPercent: 0 }, none)).toEqual([]);
  });
});
