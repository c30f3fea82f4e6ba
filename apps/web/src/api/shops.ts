import {
  type ConnectEcwidRequest,
  type ConnectShopifyRequest,
  MFA_CODE_HEADER,
  type ShopConnection,
  type ShopConnectionState,
  type ShopPlatform,
} from '@rayo/shared';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from './client.ts';

const shopKey = (platform: ShopPlatform) => ['shops', platform] as const;

export function useShopConnection(platform: ShopPlatform) {
  return useQuery({
    queryKey: shopKey(platform),
    queryFn: () => apiRequest<ShopConnectionState>(`/shops/${platform}`),
  });
}

type WithMfa<T> = T & { mfaCode?: string | undefined };

function useShopMutation<Variables>(platform: ShopPlatform, call: (variables: Variables) => Promise<unknown>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: call,
    onSettled: () => queryClient.invalidateQueries({ queryKey: shopKey(platform) }),
  });
}

/** Shopify checks the token before Rayo saves it; with MFA on the code goes in the `mfa-code` header. */
export function useConnectShopify() {
  return useShopMutation('shopify', ({ mfaCode, ...request }: WithMfa<ConnectShopifyRequest>) =>
    apiRequest<ShopConnection>('/shops/shopify', {
      method: 'PUT',
      body: request,
      headers: mfaCode ? { [MFA_CODE_HEADER]: mfaCode } : undefined,
    }),
  );
}

export function useConnectEcwid() {
  return useShopMutation('ecwid', ({ mfaCode, ...request }: WithMfa<ConnectEcwidRequest>) =>
    apiRequest<ShopConnection>('/shops/ecwid', {
      method: 'PUT',
      body: request,
      headers: mfaCode ? { [MFA_CODE_HEADER]: mfaCode } : undefined,
    }),
  );
}

export function useDisconnectShop(platform: ShopPlatform) {
  return useShopMutation(platform, () => apiRequest<void>(`/shops/${platform}`, { method: 'DELETE' }));
}
