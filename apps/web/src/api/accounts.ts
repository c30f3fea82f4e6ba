import type { CreateAccountRequest, UpdateAccountRequest } from '@rayo/shared';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { apiCall } from './client.ts';

/**
 * Every account query lives under the `accounts` key, so one invalidation after a change also
 * refreshes the account dropdowns that read `/account/all` (see `useAccounts` in catalog.ts).
 */
const accountsKey = ['accounts'] as const;

/** The organization's accounts with their internal codes, for the Accounts screen. */
export function useAccountList() {
  return useQuery({ queryKey: [...accountsKey, 'details'], queryFn: () => apiCall('GET /api/accounts') });
}

function useAccountMutation<Variables>(call: (variables: Variables) => Promise<unknown>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: call,
    onSettled: () => queryClient.invalidateQueries({ queryKey: accountsKey }),
  });
}

export function useCreateAccount() {
  return useAccountMutation((request: CreateAccountRequest) => apiCall('POST /api/accounts', { body: request }));
}

export function useUpdateAccount() {
  return useAccountMutation(({ id, ...request }: UpdateAccountRequest & { id: string }) =>
    apiCall('PATCH /api/accounts/:id', { params: { id }, body: request }),
  );
}

export function useDeleteAccount() {
  return useAccountMutation((id: string) => apiCall('DELETE /api/accounts/:id', { params: { id } }));
}
