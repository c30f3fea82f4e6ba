import {
  LogoutRequestSchema,
  RefreshAccessTokenRequestSchema,
  RefreshAccessTokenResponseSchema,
  SignInRequestSchema,
  SignInResultSchema,
} from '@rayo/shared';
import type { App } from '../../app.ts';
import { enforceRateLimit } from '../../http/rate-limit.ts';
import { type AuthDeps, logout, refreshAccessToken, signIn } from './auth.service.ts';

export function registerAuthRoutes(app: App, deps: AuthDeps): void {
  const window = deps.config.signInLimitWindowSeconds;
  const perIp = { name: 'signin-ip', limit: deps.config.signInLimitPerIp, windowSeconds: window };
  const perEmail = { name: 'signin-email', limit: deps.config.signInLimitPerEmail, windowSeconds: window };
  const refreshPerIp = { name: 'refresh-ip', limit: deps.config.refreshLimitPerIp, windowSeconds: 60 };

  app.post(
    '/api/auth/signin',
    {
      schema: { tags: ['auth'], body: SignInRequestSchema, response: { 200: SignInResultSchema } },
    },
    async (request, reply) => {
      await enforceRateLimit(deps.db, reply, perIp, request.ip);
      await enforceRateLimit(deps.db, reply, perEmail, request.body.email.toLowerCase());
      return signIn(deps, request.body, request.ip);
    },
  );

  app.post(
    '/api/auth/refresh-access-token',
    {
      schema: {
        tags: ['auth'],
        body: RefreshAccessTokenRequestSchema,
        response: { 200: RefreshAccessTokenResponseSchema },
      },
    },
    async (request, reply) => {
      await enforceRateLimit(deps.db, reply, refreshPerIp, request.ip);
      return refreshAccessToken(deps, request.body.refreshToken, request.ip);
    },
  );

  app.post(
    '/api/auth/logout',
    {
      // Fastify validates an absent body as null, so `optional()` alone would refuse it.
      schema: { tags: ['auth'], body: LogoutRequestSchema.nullish() },
    },
    async (request, reply) => {
      await logout(deps, request.body?.refreshToken);
      return reply.status(204).send();
    },
  );
}
