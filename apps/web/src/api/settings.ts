import type { ChangePasswordRequest } from '@rayo/shared';
import { useMutation } from '@tanstack/react-query';
import { sessionStore } from '../session/session-store.ts';
import { apiRequest } from './client.ts';

/**
 * Sends the stored refresh token along, so the server keeps this session and ends the user's
 * others.
 */
export function useChangePassword() {
  return useMutation({
    mutationFn: (request: Omit<ChangePasswordRequest, 'refreshToken'>) =>
      apiRequest<void>('/settings/password', {
        method: 'POST',
        body: { ...request, refreshToken: sessionStore.get().refreshToken ?? undefined },
      }),
  });
}
