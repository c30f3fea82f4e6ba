import {
  type ConfirmForgotPasswordRequest,
  type OnboardRequest,
  OnboardResponseSchema,
  SignInResponseSchema,
  type SignUpRequest,
} from '@rayo/shared';
import { z } from 'zod';
import { sessionStore } from '../session/session-store.ts';
import { apiRequest } from './client.ts';

export function signUp(request: SignUpRequest): Promise<void> {
  return apiRequest('/auth/signup', z.undefined(), { method: 'POST', body: request, auth: false });
}

/** The session lasts as long as this browser's "remember me" says, as a sign-in would. */
export function confirmEmail(code: string) {
  const body = { code, remember: sessionStore.get().remember };
  return apiRequest('/auth/confirm-email', SignInResponseSchema, { method: 'POST', body, auth: false });
}

export function onboard(request: OnboardRequest) {
  return apiRequest('/onboard', OnboardResponseSchema, { method: 'POST', body: request });
}

export function requestPasswordReset(email: string): Promise<void> {
  return apiRequest('/auth/forgot-password', z.undefined(), { method: 'POST', body: { email }, auth: false });
}

export function resetPassword(request: ConfirmForgotPasswordRequest): Promise<void> {
  return apiRequest('/auth/confirm-forgot-password', z.undefined(), { method: 'POST', body: request, auth: false });
}
