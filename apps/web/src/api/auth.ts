import type { SignInRequest, SignInResponse, SignInResult } from '@rayo/shared';
import { sessionStore } from '../session/session-store.ts';
import { apiCall } from './client.ts';

/** A session, or, for a user with MFA on, the challenge that sign-in's second step answers. */
export function signIn(request: SignInRequest): Promise<SignInResult> {
  return apiCall('POST /api/auth/signin', { body: request, auth: false });
}

/**
 * Stores a session that sign-in (or its MFA step, or the email confirmation) answered. A language
 * picked on the way in is kept and saved as the user's, so that this and every later sign-in
 * answer it; if saving fails, this session still shows it and the next sign-in the stored one.
 */
export function startSession(session: SignInResponse, remember: boolean): void {
  const chosen = sessionStore.signIn(session, remember);
  if (chosen) {
    apiCall('PUT /api/settings/language', { body: { language: chosen } }).catch((error: unknown) =>
      console.warn('Could not save the language chosen at sign-in', error),
    );
  }
}

/** Ends the session here at once, and asks the server to revoke the refresh token. */
export function logout(): void {
  const { refreshToken } = sessionStore.get();
  sessionStore.logout();
  if (refreshToken) {
    apiCall('POST /api/auth/logout', { body: { refreshToken }, auth: false }).catch((error: unknown) =>
      console.warn('Could not revoke the refresh token', error),
    );
  }
}
