import { type CreateBptRequest, SATS, type UpdateBptRequest } from '@rayo/shared';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { apiCall } from './client.ts';

const bptsKey = ['bpts'] as const;

export function useBpts() {
  return useQuery({ queryKey: bptsKey, queryFn: () => apiCall('GET /api/bpts') });
}

/** The currencies a BPT may price in, SAT first. */
export function useCurrencies() {
  return useQuery({
    queryKey: ['currencies'],
    queryFn: async () => {
      const currencies = await apiCall('GET /api/currencies');
      return [...currencies].sort((a, b) => Number(b.code === SATS) - Number(a.code === SATS));
    },
    staleTime: Number.POSITIVE_INFINITY,
  });
}

function useBptMutation<Variables>(call: (variables: Variables) => Promise<unknown>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: call,
    onSettled: () => queryClient.invalidateQueries({ queryKey: bptsKey }),
  });
}

export function useCreateBpt() {
  return useBptMutation((request: CreateBptRequest) => apiCall('POST /api/bpts', { body: request }));
}

export function useUpdateBpt() {
  return useBptMutation(({ id, ...request }: UpdateBptRequest & { id: string }) =>
    apiCall('PATCH /api/bpts/:id', { params: { id }, body: request }),
  );
}

export function useDeleteBpt() {
  return useBptMutation((id: string) => apiCall('DELETE /api/bpts/:id', { params: { id } }));
}

/** A new share token for a shareable BPT; the old link stops working. */
export function useRotateShareToken() {
  return useBptMutation((id: string) => apiCall('POST /api/bpts/:id/share-token', { params: { id } }));
}

/** The public link of a shareable BPT's terminal. */
export function shareLinkOf(shareToken: string): string {
  return `${window.location.origin}/bpts/${encodeURIComponent(shareToken)}`;
}
