import type { CreateManagerRequest, Manager, UpdateManagerRequest } from '@rayo/shared';
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

export function useCreateManager() {
  return useManagerMutation((request: CreateManagerRequest) =>
    apiRequest<Manager>('/managers', { method: 'POST', body: request }),
  );
}

export function useUpdateManager() {
  return useManagerMutation(({ id, ...request }: UpdateManagerRequest & { id: string }) =>
    apiRequest<Manager>(`/managers/${encodeURIComponent(id)}`, { method: 'PATCH', body: request }),
  );
}

export function useDeleteManager() {
  return useManagerMutation((id: string) =>
    apiRequest<void>(`/managers/${encodeURIComponent(id)}`, { method: 'DELETE' }),
  );
}
