import { type SignInRequest, type SignInResponse, SignInResponseSchema } from '@rayo/shared';
import { z } from 'zod';
import { sessionStore } from '../session/session-store.ts';
import { apiRequest } from './client.ts';

export function signIn(request: SignInRequest): Promise<SignInResponse> {
  return apiRequest('/auth/signin', SignInResponseSchema, { method: 'POST', body: request, auth: false });
}

/** Ends the session here at once, and asks the server to revoke the refresh token. */
export function logout(): void {
  const { refreshToken } = sessionStore.get();
  sessionStore.logout();
  if (refreshToken) {
    apiRequest('/auth/logout', z.undefined(), { method: 'POST', body: { refreshToken }, auth: false }).catch(
      (error: unknown) => console.warn('Could not revoke the refresh token', error),
    );
  }
}
