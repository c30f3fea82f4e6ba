import { type CreateManagerRequest, ManagerListSchema, ManagerSchema, type UpdateManagerRequest } from '@rayo/shared';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { z } from 'zod';
import { apiRequest } from './client.ts';

const managersKey = ['managers'] as const;

export function useManagerList() {
  return useQuery({ queryKey: managersKey, queryFn: () => apiRequest('/managers', ManagerListSchema) });
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
    apiRequest('/managers', ManagerSchema, { method: 'POST', body: request }),
  );
}

export function useUpdateManager() {
  return useManagerMutation(({ id, ...request }: UpdateManagerRequest & { id: string }) =>
    apiRequest(`/managers/${encodeURIComponent(id)}`, ManagerSchema, { method: 'PATCH', body: request }),
  );
}

export function useDeleteManager() {
  return useManagerMutation((id: string) =>
    apiRequest(`/managers/${encodeURIComponent(id)}`, z.unknown(), { method: 'DELETE' }),
  );
}
