import { type BankingInfoMetadata, MFA_CODE_HEADER, type PayoutAddresses } from '@rayo/shared';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { apiCall } from './client.ts';

const bankingInfoKey = ['settings', 'banking-info'] as const;
const payoutAddressesKey = ['settings', 'payout-addresses'] as const;

/** With MFA on, the code goes in the `mfa-code` header (DESIGN §6). */
function mfaHeaders(mfaCode: string | undefined) {
  return mfaCode ? { headers: { [MFA_CODE_HEADER]: mfaCode } } : {};
}

export function useBankingInfo() {
  return useQuery({
    queryKey: bankingInfoKey,
    queryFn: () => apiCall('GET /api/settings/banking-info/all'),
  });
}

export function useBankingTemplate() {
  return useQuery({
    queryKey: ['settings', 'banking-info-template'],
    queryFn: () => apiCall('GET /api/settings/banking-info-template'),
  });
}

export function usePayoutAddresses() {
  return useQuery({
    queryKey: payoutAddressesKey,
    queryFn: () => apiCall('GET /api/settings/payout-addresses'),
  });
}

/**
 * A change withdraws back office's verification of the field, which the badges and the payout
 * split's list of verifications show, and holds the payouts to it, which the payouts screen
 * shows: all are read again.
 */
function useRefreshVerifications() {
  const queryClient = useQueryClient();
  return () =>
    Promise.all([
      queryClient.invalidateQueries({ queryKey: payoutAddressesKey }),
      queryClient.invalidateQueries({ queryKey: ['settings', 'payout-split'] }),
      queryClient.invalidateQueries({ queryKey: ['settings', 'payouts'] }),
    ]);
}

/** SPEC §7: POST adds the organization's bank account, PUT changes the one it has. */
/**
 * `onSaved` runs from the mutation itself: the first save makes the section show the new entry's
 * form in place of the empty one, and a callback given to `mutate` dies with the form it came from.
 */
export function useSaveBankingInfo(onSaved?: () => void) {
  const queryClient = useQueryClient();
  const refresh = useRefreshVerifications();
  return useMutation({
    mutationFn: ({ id, metadata, mfaCode }: { id?: string; metadata: BankingInfoMetadata; mfaCode?: string }) =>
      id
        ? apiCall('PUT /api/settings/banking-info/:bankingInfoId', {
            params: { bankingInfoId: id },
            body: { bankingInfoMetadata: metadata },
            ...mfaHeaders(mfaCode),
          })
        : apiCall('POST /api/settings/banking-info', {
            body: { bankingInfoMetadata: metadata },
            ...mfaHeaders(mfaCode),
          }),
    onSuccess: async () => {
      onSaved?.();
      await Promise.all([queryClient.invalidateQueries({ queryKey: bankingInfoKey }), refresh()]);
    },
  });
}

function useSetAddress(send: (address: string, mfaCode?: string) => Promise<PayoutAddresses>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ address, mfaCode }: { address: string; mfaCode?: string }) => send(address, mfaCode),
    onSuccess: async (addresses) => {
      queryClient.setQueryData<PayoutAddresses>(payoutAddressesKey, addresses);
      await Promise.all([
        queryClient.invalidateQueries({ queryKey: ['settings', 'payout-split'] }),
        queryClient.invalidateQueries({ queryKey: ['settings', 'payouts'] }),
      ]);
    },
  });
}

export function useSetOnchainAddress() {
  return useSetAddress((onchainAddress, mfaCode) =>
    apiCall('PUT /api/settings/onchain-address', { body: { onchainAddress }, ...mfaHeaders(mfaCode) }),
  );
}

export function useSetLightningAddress() {
  return useSetAddress((lightningAddress, mfaCode) =>
    apiCall('PUT /api/settings/lightning-address', { body: { lightningAddress }, ...mfaHeaders(mfaCode) }),
  );
}
