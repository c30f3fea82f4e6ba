import {
  type CreatedWebhookEndpoint,
  type CreateWebhookEndpointRequest,
  MFA_CODE_HEADER,
  type WebhookDelivery,
  type WebhookDeliveryPage,
  type WebhookEndpoint,
} from '@rayo/shared';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from './client.ts';

const webhooksKey = ['webhooks'] as const;
const deliveriesKey = ['webhooks', 'deliveries'] as const;

export function useWebhookEndpoints() {
  return useQuery({
    queryKey: webhooksKey,
    queryFn: () => apiRequest<WebhookEndpoint[]>('/webhooks'),
  });
}

/** Pending deliveries change without the page doing anything, so the log refreshes while shown. */
const LOG_REFRESH_MS = 5000;

export function useWebhookDeliveries(page: number, limit: number) {
  return useQuery({
    queryKey: [...deliveriesKey, page, limit],
    queryFn: () => apiRequest<WebhookDeliveryPage>(`/webhooks/deliveries?page=${page}&limit=${limit}`),
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
    apiRequest<CreatedWebhookEndpoint>('/webhooks', {
      method: 'POST',
      body: request,
      headers: mfaCode ? { [MFA_CODE_HEADER]: mfaCode } : undefined,
    }),
  );
}

export function useDeleteWebhookEndpoint() {
  return useWebhookMutation((id: string) =>
    apiRequest<void>(`/webhooks/${encodeURIComponent(id)}`, { method: 'DELETE' }),
  );
}

export function useSendTestWebhook() {
  return useWebhookMutation((id: string) =>
    apiRequest<WebhookDelivery>(`/webhooks/${encodeURIComponent(id)}/test`, { method: 'POST' }),
  );
}

export function useRedeliverWebhook() {
  return useWebhookMutation((id: string) =>
    apiRequest<WebhookDelivery>(`/webhooks/deliveries/${encodeURIComponent(id)}/redeliver`, { method: 'POST' }),
  );
}
