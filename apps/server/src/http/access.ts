import { AppError, isBackOfficeRole, type Role } from '@rayo/shared';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Db } from '../db/database.ts';
import type { AccessClaims, TokenIssuer } from '../modules/auth/tokens.ts';
import { hasMfaEnabled } from '../modules/mfa/mfa.service.ts';
import { requireCallerUser } from '../modules/users/users.service.ts';
import { developerScopesOf, permissionOf } from './permissions.ts';
import type { PublicContext, RequestContext } from './request-context.ts';

declare module 'fastify' {
  interface FastifyRequest {
    caller: RequestContext | null;
    /** The claims of a valid token whose user the route itself must check (`userCheckedOnWrite`). */
    callerToRecheck: AccessClaims | null;
  }
}

function bearerToken(request: FastifyRequest): string | undefined {
  const header = request.headers.authorization;
  if (!header?.startsWith('Bearer ')) return undefined;
  return header.slice('Bearer '.length).trim() || undefined;
}

const verifiedCallers = new WeakMap<FastifyRequest, Promise<AccessClaims | null>>();

/**
 * The claims of the request's bearer token if it is a valid access token, else null. Checked once
 * per request: the request budget counts by it before the access check reads it.
 */
export function verifiedCallerOf(request: FastifyRequest, tokens: TokenIssuer): Promise<AccessClaims | null> {
  const known = verifiedCallers.get(request);
  if (known) return known;
  const token = bearerToken(request);
  const caller = token ? tokens.verifyAccessToken(token) : Promise.resolve(null);
  verifiedCallers.set(request, caller);
  return caller;
}

/** Who is asking on a route whose access is not public: the context its services take first. */
export function callerOf(request: FastifyRequest): RequestContext {
  if (!request.caller) throw new AppError('Unauthorized');
  return request.caller;
}

/** The context of a public route: the client's address as `trustProxy` resolves it, no caller. */
export function publicContextOf(request: FastifyRequest): PublicContext {
  return { ip: request.ip };
}

/** The caller of a `userCheckedOnWrite` route, whose user may have been deleted since the token was issued. */
export function callerToRecheckOf(request: FastifyRequest): AccessClaims {
  if (!request.callerToRecheck) throw new AppError('Unauthorized');
  return request.callerToRecheck;
}

/** The web app's files and the API documentation are public without a line in the table. */
function isPublicByPath(url: string): boolean {
  return !url.startsWith('/api/') || url === '/api/docs' || url.startsWith('/api/docs/');
}

function isPublic(method: string, url: string): boolean {
  return isPublicByPath(url) || permissionOf(method, url)?.who === 'public';
}

export type AccessDeps = { tokens: TokenIssuer; db: Db; config: { backOfficeMfaRequired: boolean } };

/** Whether the platform makes this role turn MFA on before anything but its own settings. */
export function mustHaveMfa(config: AccessDeps['config'], role: Role): boolean {
  return config.backOfficeMfaRequired && isBackOfficeRole(role);
}

/**
 * Enforces `permissions.ts` on every request. An API route without a line there is refused, so
 * a forgotten line fails closed. Must be registered before any route, so that every route
 * passes through `onRoute`.
 */
export function registerAccessControl(app: FastifyInstance, deps: AccessDeps): void {
  app.decorateRequest('caller', null);
  app.decorateRequest('callerToRecheck', null);
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
    const caller = await verifiedCallerOf(request, deps.tokens);
    if (!caller) throw new AppError('Unauthorized', 'A valid access token is required');
    const permitted = permission.who === 'signed-in' || permission.who.includes(caller.role);
    // A deleted user's token is refused as such on every route, before its role is.
    const user = !permitted || !permission.userCheckedOnWrite ? await requireCallerUser(deps.db, caller) : undefined;
    if (!permitted) throw new AppError('Forbidden', 'Your role may not do this');
    // Routes open to every signed-in user (settings, MFA itself) stay open: they are how MFA is turned on.
    if (permission.who !== 'signed-in' && mustHaveMfa(deps.config, caller.role)) {
      if (!(await hasMfaEnabled(deps.db, caller.userId))) {
        throw new AppError('MfaRequired', 'Turn MFA on in Settings before using back office');
      }
    }
    if (caller.developerScope && !developerScopesOf(request.method, permission).includes(caller.developerScope)) {
      throw new AppError('Forbidden', `A developer token with the ${caller.developerScope} scope may not do this`);
    }
    if (user) request.caller = { ...caller, actorEmail: user.email, ...publicContextOf(request) };
    else request.callerToRecheck = caller;
  });
}
