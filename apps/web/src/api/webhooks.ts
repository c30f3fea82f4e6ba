import { type CreateWebhookEndpointRequest, MFA_CODE_HEADER } from '@rayo/shared';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { apiCall } from './client.ts';

const webhooksKey = ['webhooks'] as const;
const deliveriesKey = ['webhooks', 'deliveries'] as const;

export function useWebhookEndpoints() {
  return useQuery({
    queryKey: webhooksKey,
    queryFn: () => apiCall('GET /api/webhooks'),
  });
}

/** Pending deliveries change without the page doing anything, so the log refreshes while shown. */
const LOG_REFRESH_MS = 5000;

export function useWebhookDeliveries(page: number, limit: number) {
  return useQuery({
    queryKey: [...deliveriesKey, page, limit],
    queryFn: () => apiCall('GET /api/webhooks/deliveries', { query: { page, limit } }),
    placeholderData: keepPreviousData,
    refetchInterval: LOG_REFRESH_MS,
  });
}

function useWebhookMutation<Variables, Result>(call: (variables: Variables) => Promise<Result>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: call,
    onSettled: () => queryClient.invalidateQueries({ queryKey: webhooksKey }),
  });
}

/** The answer carries the signing secret, this once; with MFA on the code goes in the `mfa-code` header. */
export function useCreateWebhookEndpoint() {
  return useWebhookMutation(({ mfaCode, ...request }: CreateWebhookEndpointRequest & { mfaCode?: string }) =>
    apiCall('POST /api/webhooks', {
      body: request,
      ...(mfaCode && { headers: { [MFA_CODE_HEADER]: mfaCode } }),
    }),
  );
}

export function useDeleteWebhookEndpoint() {
  return useWebhookMutation((id: string) => apiCall('DELETE /api/webhooks/:id', { params: { id } }));
}

export function useSendTestWebhook() {
  return useWebhookMutation((id: string) => apiCall('POST /api/webhooks/:id/test', { params: { id } }));
}

export function useRedeliverWebhook() {
  return useWebhookMutation((id: string) => apiCall('POST /api/webhooks/deliveries/:id/redeliver', { params: { id } }));
}
