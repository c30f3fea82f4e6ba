import {
  type ConfirmForgotPasswordRequest,
  type OnboardRequest,
  OnboardResponseSchema,
  SignInResponseSchema,
  type SignUpRequest,
} from '@rayo/shared';
import { z } from 'zod';
import { apiRequest } from './client.ts';

export function signUp(request: SignUpRequest): Promise<void> {
  return apiRequest('/auth/signup', z.undefined(), { method: 'POST', body: request, auth: false });
}

export function confirmEmail(code: string) {
  return apiRequest('/auth/confirm-email', SignInResponseSchema, { method: 'POST', body: { code }, auth: false });
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
