import { type ConnectEcwidRequest, type ConnectShopifyRequest, MFA_CODE_HEADER, type ShopPlatform } from '@rayo/shared';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { apiCall } from './client.ts';

const shopKey = (platform: ShopPlatform) => ['shops', platform] as const;

export function useShopConnection(platform: ShopPlatform) {
  return useQuery({
    queryKey: shopKey(platform),
    queryFn: () => apiCall(`GET /api/shops/${platform}`),
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
    apiCall('PUT /api/shops/shopify', {
      body: request,
      headers: mfaCode ? { [MFA_CODE_HEADER]: mfaCode } : undefined,
    }),
  );
}

export function useConnectEcwid() {
  return useShopMutation('ecwid', ({ mfaCode, ...request }: WithMfa<ConnectEcwidRequest>) =>
    apiCall('PUT /api/shops/ecwid', {
      body: request,
      headers: mfaCode ? { [MFA_CODE_HEADER]: mfaCode } : undefined,
    }),
  );
}

export function useDisconnectShop(platform: ShopPlatform) {
  return useShopMutation(platform, () => apiCall(`DELETE /api/shops/${platform}`));
}
