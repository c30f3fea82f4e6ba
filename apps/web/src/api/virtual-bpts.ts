import type { CreateVirtualBptRequest } from '@rayo/shared';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { apiCall } from './client.ts';

const virtualBptsKey = ['virtual-bpts'] as const;

export function useVirtualBpts() {
  return useQuery({ queryKey: virtualBptsKey, queryFn: () => apiCall('GET /api/virtual-bpts') });
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
    apiCall('POST /api/virtual-bpts', { body: request }),
  );
}

export function useDeleteVirtualBpt() {
  return useVirtualBptMutation((id: string) => apiCall('DELETE /api/virtual-bpts/:id', { params: { id } }));
}
