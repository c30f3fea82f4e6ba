import { type ErrorCode, isErrorCode, RefreshAccessTokenResponseSchema } from '@rayo/shared';
import type { z } from 'zod';
import { sessionStore } from '../session/session-store.ts';

/** A failed call: the server's error code, or `Network` when no answer arrived. */
export class ApiError extends Error {
  readonly code: ErrorCode | 'Network';
  readonly status: number;

  constructor(code: ErrorCode | 'Network', status: number, message: string) {
    super(message);
    this.name = 'ApiError';
    this.code = code;
    this.status = status;
  }
}

export function isNetworkError(error: unknown): boolean {
  return error instanceof ApiError && error.code === 'Network';
}

type RequestOptions = { method?: string; body?: unknown; auth?: boolean; headers?: Record<string, string> };

async function send(path: string, options: RequestOptions): Promise<Response> {
  const headers: Record<string, string> = { 'content-type': 'application/json', ...options.headers };
  const token = sessionStore.get().accessToken;
  if (token && options.auth !== false) headers.authorization = `Bearer ${token}`;
  try {
    return await fetch(`/api${path}`, {
      method: options.method ?? 'GET',
      headers,
      body: options.body === undefined ? undefined : JSON.stringify(options.body),
    });
  } catch (error) {
    throw new ApiError('Network', 0, error instanceof Error ? error.message : 'Network error');
  }
}

async function failure(response: Response): Promise<ApiError> {
  const body = (await response.json().catch(() => null)) as { code?: unknown; message?: unknown } | null;
  const code = isErrorCode(body?.code) ? body.code : 'Default';
  return new ApiError(code, response.status, typeof body?.message === 'string' ? body.message : response.statusText);
}

let refreshing: Promise<boolean> | null = null;

/**
 * SPEC §4: a refresh happens only with remember on and a stored refresh token. Concurrent
 * 401s share one refresh.
 */
function refreshAccessToken(): Promise<boolean> {
  const { remember, refreshToken } = sessionStore.get();
  if (!remember || !refreshToken) return Promise.resolve(false);
  refreshing ??= (async () => {
    try {
      const response = await send('/auth/refresh-access-token', {
        method: 'POST',
        body: { refreshToken },
        auth: false,
      });
      if (!response.ok) return false;
      const { accessToken } = RefreshAccessTokenResponseSchema.parse(await response.json());
      sessionStore.replaceAccessToken(accessToken);
      return true;
    } catch {
      return false;
    } finally {
      refreshing = null;
    }
  })();
  return refreshing;
}

/**
 * Calls the API with the stored access token. On a 401 the token is refreshed and the call
 * retried once; when that is not possible, or fails, the user is logged out.
 */
export async function apiRequest<T>(path: string, schema: z.ZodType<T>, options: RequestOptions = {}): Promise<T> {
  const response = await apiResponse(path, options);
  if (response.status === 204) return schema.parse(undefined);
  return schema.parse(await response.json());
}

/**
 * The successful response of a call, body unread, with the same token, refresh and logout
 * rules as `apiRequest`; for bodies that are streamed rather than parsed as JSON (the CSV).
 */
export async function apiResponse(path: string, options: RequestOptions = {}): Promise<Response> {
  let response = await send(path, options);
  if (response.status === 401 && options.auth !== false) {
    if (await refreshAccessToken()) response = await send(path, options);
    if (response.status === 401) {
      sessionStore.logout();
      throw await failure(response);
    }
  }
  if (!response.ok) throw await failure(response);
  return response;
}
