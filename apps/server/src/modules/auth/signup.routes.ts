import { publicContextOf } from '../../http/access.ts';
import type { App } from '../../http/app-type.ts';
import { registerCall } from '../../http/contract.ts';
import { clientOf, enforceRateLimit, type RateLimitDeps, type RateLimitRule } from '../../http/rate-limit.ts';
import { requestPasswordReset, resetPassword } from './password-reset.service.ts';
import { type AccountMailDeps, confirmEmail, signUp } from './signup.service.ts';

/** Sign-up, email confirmation and password reset: the public calls that send or spend mailed codes. */
export function registerSignUpRoutes(app: App, deps: AccountMailDeps & RateLimitDeps): void {
  const windowSeconds = deps.config.signInLimitWindowSeconds;
  const perIp = (name: string): RateLimitRule => ({ name, limit: deps.config.signInLimitPerIp, windowSeconds });
  const perEmail = (name: string): RateLimitRule => ({ name, limit: deps.config.signInLimitPerEmail, windowSeconds });

  registerCall(app, 'POST /api/auth/signup', async (request, reply) => {
    await enforceRateLimit(deps, reply, perIp('signup-ip'), clientOf(request));
    await enforceRateLimit(deps, reply, perEmail('signup-email'), request.body.email.toLowerCase());
    await signUp(publicContextOf(request), deps, request.body);
  });

  registerCall(app, 'POST /api/auth/confirm-email', async (request, reply) => {
    await enforceRateLimit(deps, reply, perIp('confirm-email-ip'), clientOf(request));
    return confirmEmail(publicContextOf(request), deps, request.body);
  });

  registerCall(app, 'POST /api/auth/forgot-password', async (request, reply) => {
    await enforceRateLimit(deps, reply, perIp('reset-ip'), clientOf(request));
    await enforceRateLimit(deps, reply, perEmail('reset-email'), request.body.email.toLowerCase());
    await requestPasswordReset(publicContextOf(request), deps, request.body);
  });

  registerCall(app, 'POST /api/auth/confirm-forgot-password', async (request, reply) => {
    await enforceRateLimit(deps, reply, perIp('reset-confirm-ip'), clientOf(request));
    // Guesses at one user's code from many addresses are bounded too.
    await enforceRateLimit(deps, reply, perEmail('reset-confirm-email'), request.body.email.toLowerCase());
    await resetPassword(publicContextOf(request), deps, request.body);
  });
}
