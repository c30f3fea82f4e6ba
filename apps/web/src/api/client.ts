import { type ErrorCode, isErrorCode, type RefreshAccessTokenResponse } from '@rayo/shared';
import type { CallAnswer, CallInput, Contract, ContractKey } from '@rayo/shared/contract';
import { sessionStore } from '../session/session-store.ts';
import { takeEarlyResponse } from './early-requests.ts';

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
  // An upload goes as multipart/form-data, whose boundary the browser writes into the content type.
  const form = options.body instanceof FormData ? options.body : undefined;
  const headers: Record<string, string> = {
    ...(form ? {} : { 'content-type': 'application/json' }),
    ...options.headers,
  };
  const token = sessionStore.get().accessToken;
  if (token && options.auth !== false) headers.authorization = `Bearer ${token}`;
  // A public call's early request was made without a token.
  const earlyToken = options.auth === false ? '' : token;
  const early = earlyToken !== null && !options.method ? takeEarlyResponse(path, earlyToken) : undefined;
  // A failed early request is simply asked again.
  const earlyResponse = await early?.catch(() => undefined);
  if (earlyResponse) return earlyResponse;
  try {
    return await fetch(`/api${path}`, {
      method: options.method ?? 'GET',
      headers,
      body: form ?? (options.body === undefined ? undefined : JSON.stringify(options.body)),
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

/** Tabs share the tokens in localStorage, so they take turns refreshing under this lock. */
const REFRESH_LOCK = 'rayo-refresh';

async function withRefreshLock(run: () => Promise<boolean>): Promise<boolean> {
  // Browsers without Web Locks (and jsdom) refresh unguarded across tabs.
  if (typeof navigator === 'undefined' || !navigator.locks) return run();
  return await navigator.locks.request(REFRESH_LOCK, run);
}

/**
 * SPEC §4: a refresh happens only with remember on and a stored refresh token. A refresh token
 * works once, and the server ends the session when a used one comes back, so refreshes never
 * overlap: concurrent 401s of a tab share one refresh, and tabs take turns under a Web Lock. A
 * tab that gets the lock after another tab refreshed finds a new refresh token in storage, and
 * retries with the access token stored beside it instead of spending the old one again.
 */
function refreshAccessToken(): Promise<boolean> {
  const seen = sessionStore.get().refreshToken;
  refreshing ??= withRefreshLock(async () => {
    sessionStore.reload();
    const { remember, refreshToken } = sessionStore.get();
    if (!remember || !refreshToken) return false;
    if (refreshToken !== seen) return true;
    try {
      const response = await send('/auth/refresh-access-token', {
        method: 'POST',
        body: { refreshToken },
        auth: false,
      });
      if (!response.ok) return false;
      sessionStore.replaceTokens((await response.json()) as RefreshAccessTokenResponse);
      return true;
    } catch {
      return false;
    }
  }).finally(() => {
    refreshing = null;
  });
  return refreshing;
}

/**
 * Calls the API with the stored access token. On a 401 the token is refreshed and the call
 * retried once; when that is not possible, or fails, the user is logged out.
 *
 * The body is the route's `T` as it is: the server checks every JSON body it answers against the
 * route's response schema from '@rayo/shared' (a body that does not match is a 500, never sent),
 * so parsing it again here would only put zod and its schemas on the app's first screen. Routes
 * without a response schema answer 204, with no body: `T` is then `void`.
 */
export async function apiRequest<T>(path: string, options: RequestOptions = {}): Promise<T> {
  const response = await apiResponse(path, options);
  if (response.status === 204) return undefined as T;
  return (await response.json()) as T;
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

/** What a call of the contract takes: its params, query and body, and how to send it. */
export type CallOptions<K extends ContractKey> = CallInput<Contract[K]> &
  // An upload's one file goes in the field `file` of a multipart form.
  (Contract[K] extends { upload: object } ? { body: FormData } : unknown) & {
    auth?: boolean;
    headers?: Record<string, string>;
  };

type Input = { params?: Record<string, string>; query?: Record<string, unknown> };

/** The URL of a call (under `/api`), its params filled in and its query appended. */
export function callUrl<K extends ContractKey>(key: K, input: CallInput<Contract[K]>): string {
  const { params, query } = input as Input;
  const path = key
    .slice(key.indexOf(' ') + 1)
    .replace(/:(\w+)/g, (_, name: string) => encodeURIComponent(params?.[name] ?? ''));
  const search = new URLSearchParams();
  for (const [name, value] of Object.entries(query ?? {})) if (value !== undefined) search.set(name, String(value));
  return search.size > 0 ? `${path}?${search}` : path;
}

/**
 * Calls the API as the shared contract defines the call (docs/architecture.md "Route
 * contract"): only its method and path are needed here, while its input and answer types come
 * from its schemas at compile time, so no schema reaches the page. The answer is trusted as
 * `apiRequest` explains.
 */
export function apiCall<K extends ContractKey>(
  key: K,
  ...[options]: object extends CallOptions<K> ? [CallOptions<K>?] : [CallOptions<K>]
): Promise<CallAnswer<Contract[K]>> {
  const method = key.slice(0, key.indexOf(' '));
  const { body, auth, headers } = (options ?? {}) as {
    body?: unknown;
    auth?: boolean;
    headers?: Record<string, string>;
  };
  return apiRequest(callUrl(key, (options ?? {}) as CallInput<Contract[K]>).slice('/api'.length), {
    // A GET goes without a method, so that a public page's early request can answer it.
    ...(method !== 'GET' && { method }),
    ...(body !== undefined && { body }),
    ...(auth !== undefined && { auth }),
    ...(headers && { headers }),
  });
}

/** The contract's calls that answer a file rather than JSON. */
export type FileCallKey = { [K in ContractKey]: Contract[K] extends { file: object } ? K : never }[ContractKey];

/**
 * The response of a call that answers a file, body unread, sent with the session's token (a
 * plain link would carry none) under `apiResponse`'s rules, for the page to save.
 */
export function apiFile<K extends FileCallKey>(
  key: K,
  ...[input]: object extends CallInput<Contract[K]> ? [CallInput<Contract[K]>?] : [CallInput<Contract[K]>]
): Promise<Response> {
  return apiResponse(callUrl(key, input ?? ({} as CallInput<Contract[K]>)).slice('/api'.length));
}
