import type { ConfirmForgotPasswordRequest, OnboardRequest, SignInResponse, SignUpRequest } from '@rayo/shared';
import { sessionStore } from '../session/session-store.ts';
import { apiCall, apiRequest } from './client.ts';

export function signUp(request: SignUpRequest): Promise<void> {
  return apiRequest<void>('/auth/signup', { method: 'POST', body: request, auth: false });
}

/** The session lasts as long as this browser's "remember me" says, as a sign-in would. */
export function confirmEmail(request: { code: string; password: string }) {
  const body = { ...request, remember: sessionStore.get().remember };
  return apiRequest<SignInResponse>('/auth/confirm-email', { method: 'POST', body, auth: false });
}

export function onboard(request: OnboardRequest) {
  return apiCall('POST /api/onboard', { body: request });
}

export function requestPasswordReset(email: string): Promise<void> {
  return apiRequest<void>('/auth/forgot-password', { method: 'POST', body: { email }, auth: false });
}

export function resetPassword(request: ConfirmForgotPasswordRequest): Promise<void> {
  return apiRequest<void>('/auth/confirm-forgot-password', { method: 'POST', body: request, auth: false });
}
