import type { SignInRequest, SignInResult } from '@rayo/shared';
import { sessionStore } from '../session/session-store.ts';
import { apiRequest } from './client.ts';

/** A session, or, for a user with MFA on, the challenge that sign-in's second step answers. */
export function signIn(request: SignInRequest): Promise<SignInResult> {
  return apiRequest<SignInResult>('/auth/signin', { method: 'POST', body: request, auth: false });
}

/** Ends the session here at once, and asks the server to revoke the refresh token. */
export function logout(): void {
  const { refreshToken } = sessionStore.get();
  sessionStore.logout();
  if (refreshToken) {
    apiRequest<void>('/auth/logout', { method: 'POST', body: { refreshToken }, auth: false }).catch((error: unknown) =>
      console.warn('Could not revoke the refresh token', error),
    );
  }
}
