import {
  type ConnectEcwidRequest,
  type ConnectShopifyRequest,
  MFA_CODE_HEADER,
  ShopConnectionSchema,
  ShopConnectionStateSchema,
  type ShopPlatform,
} from '@rayo/shared';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { z } from 'zod';
import { apiRequest } from './client.ts';

const shopKey = (platform: ShopPlatform) => ['shops', platform] as const;

export function useShopConnection(platform: ShopPlatform) {
  return useQuery({
    queryKey: shopKey(platform),
    queryFn: () => apiRequest(`/shops/${platform}`, ShopConnectionStateSchema),
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
    apiRequest('/shops/shopify', ShopConnectionSchema, {
      method: 'PUT',
      body: request,
      headers: mfaCode ? { [MFA_CODE_HEADER]: mfaCode } : undefined,
    }),
  );
}

export function useConnectEcwid() {
  return useShopMutation('ecwid', ({ mfaCode, ...request }: WithMfa<ConnectEcwidRequest>) =>
    apiRequest('/shops/ecwid', ShopConnectionSchema, {
      method: 'PUT',
      body: request,
      headers: mfaCode ? { [MFA_CODE_HEADER]: mfaCode } : undefined,
    }),
  );
}

export function useDisconnectShop(platform: ShopPlatform) {
  return useShopMutation(platform, () => apiRequest(`/shops/${platform}`, z.undefined(), { method: 'DELETE' }));
}
