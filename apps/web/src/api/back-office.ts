import type { BackOfficeOrganizationsQuery, BlockedRequest, Verification } from '@rayo/shared';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { saveBlob } from '../components/save-blob.ts';
import { apiCall, apiFile } from './client.ts';
import { filenameFromDisposition } from './dashboard.ts';

const backOfficeKey = ['back-office'] as const;

export function useBackOfficeOrganizations(query: BackOfficeOrganizationsQuery) {
  const { search, ...rest } = query;
  return useQuery({
    queryKey: [...backOfficeKey, 'organizations', query],
    queryFn: () => apiCall('GET /api/back-office/organizations', { query: { ...rest, ...(search ? { search } : {}) } }),
    placeholderData: keepPreviousData,
  });
}

function adminRecordKey(organizationId: string) {
  return [...backOfficeKey, 'organization', organizationId, 'admin'] as const;
}

/** The organization admin record; the organization's screens share it (its name is their title). */
export function useOrganizationAdminRecord(organizationId: string) {
  return useQuery({
    queryKey: adminRecordKey(organizationId),
    queryFn: () => apiCall('GET /api/back-office/organization/:id/admin', { params: { id: organizationId } }),
  });
}

export function useSetVerification(organizationId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (request: { field: Verification; verified: boolean }) =>
      apiCall('PUT /api/back-office/organization/:id/verification', { params: { id: organizationId }, body: request }),
    onSuccess: (record) => {
      queryClient.setQueryData(adminRecordKey(organizationId), record);
      void queryClient.invalidateQueries({ queryKey: [...backOfficeKey, 'organizations'] });
    },
  });
}

export function useSetBlocked(organizationId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (request: BlockedRequest) =>
      apiCall('PUT /api/back-office/organization/:id/blocked', { params: { id: organizationId }, body: request }),
    onSuccess: (record) => {
      queryClient.setQueryData(adminRecordKey(organizationId), record);
      void queryClient.invalidateQueries({ queryKey: [...backOfficeKey, 'organizations'] });
    },
  });
}

/** Fetched with the session's token (a plain link would carry none), then saved under its name. */
export async function downloadOrganizationKybDocument(
  organizationId: string,
  document: { id: string; fileName: string },
): Promise<void> {
  const response = await apiFile('GET /api/back-office/organization/:id/kyb-documents/:documentId', {
    params: { id: organizationId, documentId: document.id },
  });
  saveBlob(await response.blob(), document.fileName);
}

const notificationsKey = [...backOfficeKey, 'notifications'] as const;

export function useBackOfficeNotifications(page: number, limit: number) {
  return useQuery({
    queryKey: [...notificationsKey, page, limit],
    queryFn: () => apiCall('GET /api/back-office/notification', { query: { page, limit } }),
    placeholderData: keepPreviousData,
  });
}

/** SPEC §7: the list is reloaded after a delete. */
export function useDeleteNotification() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => apiCall('DELETE /api/back-office/notification/:id', { params: { id } }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: notificationsKey }),
  });
}

/** Unix seconds, `start` inclusive and `end` exclusive; saved under the name the server gives (its days). */
export async function downloadAuditCsv(start: number, end: number): Promise<void> {
  const response = await apiFile('GET /api/back-office/audit/csv', { query: { start, end } });
  saveBlob(await response.blob(), filenameFromDisposition(response.headers.get('content-disposition'), 'audit.csv'));
}

const onchainBatchesKey = [...backOfficeKey, 'onchain-payouts'] as const;
const onchainWalletKey = [...backOfficeKey, 'onchain-wallet'] as const;

/** The platform wallet: what is owed on-chain, what it holds, who waits and why, its deposit address. */
export function useOnchainWallet() {
  return useQuery({
    queryKey: onchainWalletKey,
    queryFn: () => apiCall('GET /api/back-office/onchain-wallet'),
  });
}

/** The on-chain payout pass, now; the wallet, the batches and the notices are read again. */
export function useRunOnchainPayouts() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => apiCall('POST /api/back-office/onchain-wallet/run'),
    onSuccess: (summary) => {
      queryClient.setQueryData(onchainWalletKey, summary);
      return Promise.all([
        queryClient.invalidateQueries({ queryKey: onchainBatchesKey }),
        queryClient.invalidateQueries({ queryKey: notificationsKey }),
      ]);
    },
  });
}

/** A higher fee for a batch no block has taken (a BIP 125 replacement); without `feeRate`, the estimate. */
export function useBumpBatchFee() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, feeRate }: { id: string; feeRate?: number }) =>
      apiCall('POST /api/back-office/onchain-payouts/:id/bump', {
        params: { id },
        body: feeRate === undefined ? {} : { feeRate },
      }),
    onSuccess: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: onchainBatchesKey }),
        queryClient.invalidateQueries({ queryKey: onchainWalletKey }),
      ]),
  });
}

/** A fresh deposit address of the platform wallet; the wallet's view is read again. */
export function useCreateDepositAddress() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => apiCall('POST /api/back-office/onchain-wallet/deposit-address'),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: onchainWalletKey }),
  });
}

export function useOnchainPayoutBatches() {
  return useQuery({
    queryKey: onchainBatchesKey,
    queryFn: () => apiCall('GET /api/back-office/onchain-payouts'),
  });
}

/** The unsigned batch as a BIP 174 file, for the operator's wallet to sign. */
export async function downloadBatchPsbt(batch: { id: string; txid: string }): Promise<void> {
  const response = await apiFile('GET /api/back-office/onchain-payouts/:id/psbt', { params: { id: batch.id } });
  saveBlob(await response.blob(), `payout-batch-${batch.txid.slice(0, 12)}.psbt`);
}

/** The signed PSBT (base64) or raw transaction (hex): stored and broadcast by the server. */
export function useSubmitSignedBatch() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, transaction }: { id: string; transaction: string }) =>
      apiCall('POST /api/back-office/onchain-payouts/:id/signed', { params: { id }, body: { transaction } }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: onchainBatchesKey }),
  });
}
