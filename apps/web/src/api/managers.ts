import { type CreateManagerRequest, MFA_CODE_HEADER, type UpdateManagerRequest } from '@rayo/shared';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { apiCall } from './client.ts';

const managersKey = ['managers'] as const;

export function useManagerList() {
  return useQuery({ queryKey: managersKey, queryFn: () => apiCall('GET /api/managers') });
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
    apiCall('POST /api/managers', { body: request, ...mfaHeaders(mfaCode) }),
  );
}

export function useUpdateManager() {
  return useManagerMutation(({ id, mfaCode, ...request }: UpdateManagerRequest & { id: string; mfaCode?: string }) =>
    apiCall('PATCH /api/managers/:id', { params: { id }, body: request, ...mfaHeaders(mfaCode) }),
  );
}

export function useDeleteManager() {
  return useManagerMutation((id: string) => apiCall('DELETE /api/managers/:id', { params: { id } }));
}
