import { AppError } from '@rayo/shared';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Db } from '../db/database.ts';
import type { AccessClaims, TokenIssuer } from '../modules/auth/tokens.ts';
import { findUserById } from '../modules/users/users.repo.ts';
import { permissionOf } from './permissions.ts';

declare module 'fastify' {
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

/** The web app's files and the API documentation are public without a line in the table. */
function isPublicByPath(url: string): boolean {
  return !url.startsWith('/api/') || url === '/api/docs' || url.startsWith('/api/docs/');
}

function isPublic(method: string, url: string): boolean {
  return isPublicByPath(url) || permissionOf(method, url)?.who === 'public';
}

export type AccessDeps = { tokens: TokenIssuer; db: Db };

/**
 * The claims of a valid token whose user still exists. Access tokens are not stored, so without
 * this read a deleted manager's token would keep opening the API until it expired.
 */
async function verifiedCaller(deps: AccessDeps, token: string | undefined): Promise<AccessClaims | null> {
  const claims = token ? await deps.tokens.verifyAccessToken(token) : null;
  if (!claims || !(await findUserById(deps.db, claims.userId))) return null;
  return claims;
}

/**
 * Enforces `permissions.ts` on every request. An API route without a line there is refused, so
 * a forgotten line fails closed. Must be registered before any route, so that every route
 * passes through `onRoute`.
 */
export function registerAccessControl(app: FastifyInstance, deps: AccessDeps): void {
  app.decorateRequest('caller', null);
  app.addHook('onRoute', (route) => {
    const methods = Array.isArray(route.method) ? route.method : [route.method];
    // The OpenAPI document says which calls need no token.
    if (route.schema && methods.every((method) => isPublic(method, route.url))) {
      route.schema = { ...route.schema, security: [] };
    }
  });
  app.addHook('onRequest', async (request) => {
    // Unknown URLs match no route; let the not-found handler answer them.
    if (request.is404) return;
    const { url } = request.routeOptions;
    if (url === undefined || isPublicByPath(url)) return;
    const permission = permissionOf(request.method, url);
    if (permission === undefined) throw new AppError('Forbidden', 'This route has no line in the permission table');
    if (permission.who === 'public') return;
    const caller = await verifiedCaller(deps, bearerToken(request));
    if (!caller) throw new AppError('Unauthorized', 'A valid access token is required');
    if (permission.who !== 'signed-in' && !permission.who.includes(caller.role)) {
      throw new AppError('Forbidden', 'Your role may not do this');
    }
    request.caller = caller;
  });
}
