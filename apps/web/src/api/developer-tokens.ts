import {
  type CreateDeveloperTokenRequest,
  type CreatedDeveloperToken,
  type DeveloperToken,
  MFA_CODE_HEADER,
} from '@rayo/shared';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from './client.ts';

const developerTokensKey = ['settings', 'developer-tokens'] as const;

/** Admins only: the server refuses managers, so they never ask. */
export function useDeveloperTokens(enabled: boolean) {
  return useQuery({
    queryKey: developerTokensKey,
    queryFn: () => apiRequest<DeveloperToken[]>('/settings/developer-tokens'),
    enabled,
  });
}

function useDeveloperTokenMutation<Variables, Result>(call: (variables: Variables) => Promise<Result>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: call,
    onSettled: () => queryClient.invalidateQueries({ queryKey: developerTokensKey }),
  });
}

/** The answer carries the token, this once; with MFA on the code goes in the `mfa-code` header. */
export function useCreateDeveloperToken() {
  return useDeveloperTokenMutation(({ mfaCode, ...request }: CreateDeveloperTokenRequest & { mfaCode?: string }) =>
    apiRequest<CreatedDeveloperToken>('/settings/developer-tokens', {
      method: 'POST',
      body: request,
      headers: mfaCode ? { [MFA_CODE_HEADER]: mfaCode } : undefined,
    }),
  );
}

export function useRevokeDeveloperToken() {
  return useDeveloperTokenMutation((id: string) =>
    apiRequest<void>(`/settings/developer-tokens/${encodeURIComponent(id)}`, { method: 'DELETE' }),
  );
}
