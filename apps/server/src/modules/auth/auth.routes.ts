import { publicContextOf } from '../../http/access.ts';
import type { App } from '../../http/app-type.ts';
import { registerCall } from '../../http/contract.ts';
import { clientOf, enforceRateLimit, forgiveRateLimitHits, type RateLimitDeps } from '../../http/rate-limit.ts';
import { type AuthDeps, logout, refreshAccessToken, signIn } from './auth.service.ts';
import { hasSignedInAs, knownDeviceOf, rememberDevice } from './known-device.ts';

export function registerAuthRoutes(app: App, deps: AuthDeps & RateLimitDeps): void {
  const window = deps.config.signInLimitWindowSeconds;
  // Sign-in limits count failures only. Per email they count per client address, so that
  // someone guessing from one address does not lock the user out everywhere; the slower limit
  // on the email alone bounds guesses spread over many addresses. A browser that signed in to the
  // account before counts on its own budget instead, so those guesses do not lock its owner out.
  const perIp = { name: 'signin-ip', limit: deps.config.signInLimitPerIp, windowSeconds: window };
  const perEmailAndIp = { name: 'signin-email-ip', limit: deps.config.signInLimitPerEmail, windowSeconds: window };
  const perEmail = { name: 'signin-email-all', limit: deps.config.signInLimitPerEmailGlobal, windowSeconds: 60 * 60 };
  const perKnownDevice = { name: 'signin-device', limit: deps.config.signInLimitPerEmail, windowSeconds: window };
  const secureCookie = deps.config.publicUrl.startsWith('https:');
  const refreshPerIp = { name: 'refresh-ip', limit: deps.config.refreshLimitPerIp, windowSeconds: 60 };

  registerCall(app, 'POST /api/auth/signin', async (request, reply) => {
    const email = request.body.email.toLowerCase();
    const device = await knownDeviceOf(deps.tokens, request);
    const hits = hasSignedInAs(device, email)
      ? [await enforceRateLimit(deps, reply, perKnownDevice, `${device.id} ${email}`)]
      : [
          await enforceRateLimit(deps, reply, perIp, clientOf(request)),
          await enforceRateLimit(deps, reply, perEmailAndIp, `${email} ${clientOf(request)}`),
          await enforceRateLimit(deps, reply, perEmail, email),
        ];
    const result = await signIn(publicContextOf(request), deps, request.body);
    await forgiveRateLimitHits(deps.db, hits);
    await rememberDevice(deps.tokens, reply, device, email, secureCookie);
    return result;
  });

  registerCall(app, 'POST /api/auth/refresh-access-token', async (request, reply) => {
    await enforceRateLimit(deps, reply, refreshPerIp, clientOf(request));
    return refreshAccessToken(publicContextOf(request), deps, request.body.refreshToken);
  });

  registerCall(app, 'POST /api/auth/logout', async (request) => logout(deps, request.body?.refreshToken));
}
