import { type CreateVirtualBptRequest, VirtualBptListSchema, VirtualBptSchema } from '@rayo/shared';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { z } from 'zod';
import { apiRequest } from './client.ts';

const virtualBptsKey = ['virtual-bpts'] as const;

export function useVirtualBpts() {
  return useQuery({ queryKey: virtualBptsKey, queryFn: () => apiRequest('/virtual-bpts', VirtualBptListSchema) });
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
    apiRequest('/virtual-bpts', VirtualBptSchema, { method: 'POST', body: request }),
  );
}

export function useDeleteVirtualBpt() {
  return useVirtualBptMutation((id: string) =>
    apiRequest(`/virtual-bpts/${encodeURIComponent(id)}`, z.unknown(), { method: 'DELETE' }),
  );
}
