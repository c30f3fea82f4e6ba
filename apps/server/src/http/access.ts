import { AppError, type Role } from '@rayo/shared';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { AccessClaims, TokenIssuer } from '../modules/auth/tokens.ts';

/**
 * Who may call a route, declared on the route as `config: { access }`:
 * `public` for anyone, `signed-in` for any valid access token, or a list of roles.
 * An API route without a declaration is refused, so a forgotten declaration fails closed;
 * the web app's files and the API documentation are public.
 */
export type Access = 'public' | 'signed-in' | readonly Role[];

declare module 'fastify' {
  interface FastifyContextConfig {
    access?: Access;
  }
  interface FastifyRequest {
    caller: AccessClaims | null;
  }
}

function bearerToken(request: FastifyRequest): string | undefined {
  const header = request.headers.authorization;
  if (!header?.startsWith('Bearer ')) return undefined;
  return header.slice('Bearer '.length).trim() || undefined;
}

/** The signed-in caller of a route whose access is not public. */
export function callerOf(request: FastifyRequest): AccessClaims {
  if (!request.caller) throw new AppError('Unauthorized');
  return request.caller;
}

function isPublicByPath(url: string): boolean {
  return !url.startsWith('/api/') || url === '/api/docs' || url.startsWith('/api/docs/');
}

/** Must be registered before any route, so that every route passes through `onRoute`. */
export function registerAccessControl(app: FastifyInstance, tokens: TokenIssuer): void {
  app.decorateRequest('caller', null);
  app.addHook('onRoute', (route) => {
    if (route.config?.access === undefined && isPublicByPath(route.url)) {
      route.config = { ...route.config, access: 'public' };
    }
    // The OpenAPI document says which calls need no token.
    if (route.config?.access === 'public' && route.schema) route.schema = { ...route.schema, security: [] };
  });
  app.addHook('onRequest', async (request) => {
    const access = request.routeOptions.config.access;
    // Unknown routes have no access declared; let the not-found handler answer them.
    if (request.is404 || access === 'public') return;
    if (access === undefined) throw new AppError('Forbidden', 'This route declares no access');
    const token = bearerToken(request);
    const caller = token ? await tokens.verifyAccessToken(token) : null;
    if (!caller) throw new AppError('Unauthorized', 'A valid access token is required');
    if (access !== 'signed-in' && !access.includes(caller.role)) {
      throw new AppError('Forbidden', 'Your role may not do this');
    }
    request.caller = caller;
  });
}
