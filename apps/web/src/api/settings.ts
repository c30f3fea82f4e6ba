import type { ChangePasswordRequest } from '@rayo/shared';
import { useMutation } from '@tanstack/react-query';
import { sessionStore } from '../session/session-store.ts';
import { apiCall } from './client.ts';

/**
 * Sends the stored refresh token along, so the server keeps this session and ends the user's
 * others. Every access token signed before the change is refused, this tab's too, so the one
 * answered replaces it.
 */
export function useChangePassword() {
  return useMutation({
    mutationFn: (request: Omit<ChangePasswordRequest, 'refreshToken'>) =>
      apiCall('POST /api/settings/password', {
        body: { ...request, refreshToken: sessionStore.get().refreshToken ?? undefined },
      }),
    onSuccess: ({ accessToken }) => sessionStore.replaceAccessToken(accessToken),
  });
}
