import type { Account, CreateAccountRequest, UpdateAccountRequest } from '@rayo/shared';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from './client.ts';

/**
 * Every account query lives under the `accounts` key, so one invalidation after a change also
 * refreshes the account dropdowns that read `/account/all` (see `useAccounts` in catalog.ts).
 */
const accountsKey = ['accounts'] as const;

/** The organization's accounts with their internal codes, for the Accounts screen. */
export function useAccountList() {
  return useQuery({ queryKey: [...accountsKey, 'details'], queryFn: () => apiRequest<Account[]>('/accounts') });
}

function useAccountMutation<Variables>(call: (variables: Variables) => Promise<unknown>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: call,
    onSettled: () => queryClient.invalidateQueries({ queryKey: accountsKey }),
  });
}

export function useCreateAccount() {
  return useAccountMutation((request: CreateAccountRequest) =>
    apiRequest<Account>('/accounts', { method: 'POST', body: request }),
  );
}

export function useUpdateAccount() {
  return useAccountMutation(({ id, ...request }: UpdateAccountRequest & { id: string }) =>
    apiRequest<Account>(`/accounts/${encodeURIComponent(id)}`, { method: 'PATCH', body: request }),
  );
}

export function useDeleteAccount() {
  return useAccountMutation((id: string) =>
    apiRequest<void>(`/accounts/${encodeURIComponent(id)}`, { method: 'DELETE' }),
  );
}
