import { type CreateDeveloperTokenRequest, MFA_CODE_HEADER } from '@rayo/shared';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { apiCall } from './client.ts';

const developerTokensKey = ['settings', 'developer-tokens'] as const;

/** Admins only: the server refuses managers, so they never ask. */
export function useDeveloperTokens(enabled: boolean) {
  return useQuery({
    queryKey: developerTokensKey,
    queryFn: () => apiCall('GET /api/settings/developer-tokens'),
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
    apiCall('POST /api/settings/developer-tokens', {
      body: request,
      ...(mfaCode && { headers: { [MFA_CODE_HEADER]: mfaCode } }),
    }),
  );
}

export function useRevokeDeveloperToken() {
  return useDeveloperTokenMutation((id: string) =>
    apiCall('DELETE /api/settings/developer-tokens/:id', { params: { id } }),
  );
}
