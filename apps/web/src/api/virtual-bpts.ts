import type { CreateVirtualBptRequest, VirtualBpt } from '@rayo/shared';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from './client.ts';

const virtualBptsKey = ['virtual-bpts'] as const;

export function useVirtualBpts() {
  return useQuery({ queryKey: virtualBptsKey, queryFn: () => apiRequest<VirtualBpt[]>('/virtual-bpts') });
}

function useVirtualBptMutation<Variables>(call: (variables: Variables) => Promise<unknown>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: call,
    onSettled: () => queryClient.invalidateQueries({ queryKey: virtualBptsKey }),
  });
}

export function useCreateVirtualBpt() {
  return useVirtualBptMutation((request: CreateVirtualBptRequest) =>
    apiRequest<VirtualBpt>('/virtual-bpts', { method: 'POST', body: request }),
  );
}

export function useDeleteVirtualBpt() {
  return useVirtualBptMutation((id: string) =>
    apiRequest<void>(`/virtual-bpts/${encodeURIComponent(id)}`, { method: 'DELETE' }),
  );
}
