import {
  MFA_CODE_HEADER,
  type MfaSignInRequest,
  type MfaStatus,
  type RecoverMfaRequest,
  type SignInResponse,
} from '@rayo/shared';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiCall } from './client.ts';
import { mfaKey } from './mfa-status.ts';

export { useMfaStatus } from './mfa-status.ts';

/** A new secret and recovery codes; MFA stays off until `useValidateMfa` succeeds. */
export function useEnableMfa() {
  return useMutation({
    mutationFn: () => apiCall('POST /api/settings/mfa/enable'),
  });
}

/** A change that, once it succeeds, leaves MFA `hasMfa`; the status is then read again from the server. */
function useMfaChange(call: (code: string) => Promise<unknown>, hasMfa: boolean) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: call,
    onSuccess: () => queryClient.setQueryData<MfaStatus>(mfaKey, (status) => status && { ...status, hasMfa }),
    onSettled: () => queryClient.invalidateQueries({ queryKey: mfaKey }),
  });
}

export function useValidateMfa() {
  return useMfaChange((code) => apiCall('POST /api/settings/mfa/validate', { body: { code } }), true);
}

/** SPEC §7: an empty body, and the code in the `mfa-code` header. */
export function useDisableMfa() {
  return useMfaChange(
    (code) => apiCall('POST /api/settings/mfa/disable', { headers: { [MFA_CODE_HEADER]: code } }),
    false,
  );
}

// Sign-in's second step runs before there is a session, so it sends no token.

export function signInWithMfaCode(request: MfaSignInRequest): Promise<SignInResponse> {
  return apiCall('POST /api/auth/signin/mfa', { body: request, auth: false });
}

export function signInWithRecoveryCode(request: RecoverMfaRequest): Promise<SignInResponse> {
  return apiCall('POST /api/settings/mfa/recover', { body: request, auth: false });
}
