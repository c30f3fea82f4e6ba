import type { ConfirmForgotPasswordRequest, OnboardRequest, SignUpRequest } from '@rayo/shared';
import { sessionStore } from '../session/session-store.ts';
import { apiCall } from './client.ts';

export function signUp(request: SignUpRequest): Promise<void> {
  return apiCall('POST /api/auth/signup', { body: request, auth: false });
}

/** The session lasts as long as this browser's "remember me" says, as a sign-in would. */
export function confirmEmail(request: { code: string; password: string }) {
  const body = { ...request, remember: sessionStore.get().remember };
  return apiCall('POST /api/auth/confirm-email', { body, auth: false });
}

export function onboard(request: OnboardRequest) {
  return apiCall('POST /api/onboard', { body: request });
}

export function requestPasswordReset(email: string): Promise<void> {
  return apiCall('POST /api/auth/forgot-password', { body: { email }, auth: false });
}

export function resetPassword(request: ConfirmForgotPasswordRequest): Promise<void> {
  return apiCall('POST /api/auth/confirm-forgot-password', { body: request, auth: false });
}
