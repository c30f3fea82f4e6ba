import { type CreateManagerRequest, type Manager, MFA_CODE_HEADER, type UpdateManagerRequest } from '@rayo/shared';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from './client.ts';

const managersKey = ['managers'] as const;

export function useManagerList() {
  return useQuery({ queryKey: managersKey, queryFn: () => apiRequest<Manager[]>('/managers') });
}

function useManagerMutation<Variables>(call: (variables: Variables) => Promise<unknown>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: call,
    onSettled: () => queryClient.invalidateQueries({ queryKey: managersKey }),
  });
}

/** With MFA on, creating a manager or setting a password needs the `mfa-code` header (DESIGN §6). */
function mfaHeaders(mfaCode: string | undefined) {
  return mfaCode ? { headers: { [MFA_CODE_HEADER]: mfaCode } } : {};
}

export function useCreateManager() {
  return useManagerMutation(({ mfaCode, ...request }: CreateManagerRequest & { mfaCode?: string }) =>
    apiRequest<Manager>('/managers', { method: 'POST', body: request, ...mfaHeaders(mfaCode) }),
  );
}

export function useUpdateManager() {
  return useManagerMutation(({ id, mfaCode, ...request }: UpdateManagerRequest & { id: string; mfaCode?: string }) =>
    apiRequest<Manager>(`/managers/${encodeURIComponent(id)}`, {
      method: 'PATCH',
      body: request,
      ...mfaHeaders(mfaCode),
    }),
  );
}

export function useDeleteManager() {
  return useManagerMutation((id: string) =>
    apiRequest<void>(`/managers/${encodeURIComponent(id)}`, { method: 'DELETE' }),
  );
}
