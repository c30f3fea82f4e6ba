import type { z } from 'zod';
import type { DeveloperTokenScope } from '../developer-tokens.ts';
import type { ErrorCode } from '../errors.ts';
import type { Role } from '../roles.ts';

/**
 * One API call, defined once (docs/architecture.md "Route contract"): the server registers it,
 * the permission table and the OpenAPI document are derived from it, and the web client's types
 * are inferred from it.
 */

export type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/** `'METHOD /api/path/:param'`, exactly as Fastify registers the route. */
export type CallKey = `${Method} /api/${string}`;

/**
 * Who may call a route (DESIGN §6). Outside its scope a resource answers 404, as if it did not
 * exist, so other organizations' ids cannot be probed; `outside` names the calls that answer otherwise.
 */
export type Permission = {
  /**
   * `'public'` (no token; the route checks any credential it takes, such as a share token,
   * itself), `'signed-in'` (any valid access token), or the roles that may call it.
   */
  who: 'public' | 'signed-in' | readonly Role[];
  scope?: Scope;
  /**
   * The route checks that the caller's user still exists in its own write
   * (docs/decisions/0039-invoice-issuing.md), so the access hook does not read it first.
   */
  userCheckedOnWrite?: true;
  /**
   * The developer-token scopes that may call the route, where not the rule of
   * `developerScopesOf`. A token acts as its admin, but only inside its scope.
   */
  developerScopes?: readonly DeveloperTokenScope[];
};

/** The `developerScopes` of what only a person does, never a program holding a developer token. */
export const person = [] as const;

export type Scope =
  | {
      /** The path, query or body parameter naming the resource. */
      param: string;
      within: 'organization' | 'linked-accounts';
      /** 400 where the resource is a body field (an invalid input), 403 for the dashboard's account filter. */
      outside?: 400 | 403;
    }
  | { within: 'no-organization'; outside: 409 };

/** The media types of the files the API answers with. */
export type FileMediaType = 'text/csv' | 'application/pdf' | 'application/octet-stream' | 'image/png' | 'image/jpeg';

/** The media types a `file` call may answer in, as a list. */
export function fileMediaTypes(file: NonNullable<Call['file']>): readonly FileMediaType[] {
  return typeof file.mediaType === 'string' ? [file.mediaType] : file.mediaType;
}

export type Call = Permission & {
  /** Unique across the API; the OpenAPI document's `operationId`. */
  operationId: string;
  tags: readonly string[];
  summary: string;
  description?: string;
  params?: z.ZodType;
  query?: z.ZodType;
  body?: z.ZodType;
  /** The request headers the call reads, checked like its params (the web sends them as `headers`). */
  headers?: z.ZodType;
  /**
   * The request is multipart/form-data holding one file in the field `file`, of `mediaTypes`
   * (read from its bytes) and at most `maxBytes`; the handler reads it with `readSingleUpload`.
   */
  upload?: { mediaTypes: readonly FileMediaType[]; maxBytes: number };
  /** The JSON answer; a call without one answers 204 with no body, unless it `streams` or answers a `file`. */
  answer?: z.ZodType;
  /** The statuses answered with `answer`, the first by default; 200 when not given. */
  statuses?: readonly [200 | 201 | 202, ...(200 | 201 | 202)[]];
  /** An answer that is not JSON, described in `description`. */
  streams?: 'text/event-stream';
  /**
   * The answer is a file of `mediaType` (200), or of one of them where the file is served in the
   * type it was uploaded in, named in its `Content-Disposition`: `attachment` is saved, `inline`
   * shown; without a disposition, an image for a page to show, with an `ETag` that answers 304 to
   * `If-None-Match`. The handler sends the bytes or the stream through `reply` itself, with the
   * headers only it knows (the file's name, its type among several, caching).
   */
  file?: {
    mediaType: FileMediaType | readonly FileMediaType[];
    disposition?: 'attachment' | 'inline';
  };
  /**
   * The codes the call refuses with besides those its permission implies (401, 403, the scope's
   * 404, 400 `InvalidInput` for a request that does not match its schemas).
   */
  refusals: readonly ErrorCode[];
};

/** A module's calls, keyed by what they answer to. */
export type CallTable = Readonly<Record<CallKey, Call>>;

/** Keeps each call's literal types, which the server's handlers and the web client infer from. */
export function defineCalls<const Table extends CallTable>(table: Table): Table {
  return table;
}

type Infer<C, Field extends string, Otherwise> = C extends { [K in Field]: infer S extends z.ZodType }
  ? z.output<S>
  : Otherwise;
type InferIn<C, Field extends string, Otherwise> = C extends { [K in Field]: infer S extends z.ZodType }
  ? z.input<S>
  : Otherwise;

/** What a handler reads: parsed params, query and body. */
export type CallParams<C> = Infer<C, 'params', unknown>;
export type CallQuery<C> = Infer<C, 'query', unknown>;
export type CallBody<C> = Infer<C, 'body', unknown>;
/** What a handler answers with (before serialization), and what a client receives (after). */
export type CallAnswerIn<C> = InferIn<C, 'answer', void>;
export type CallAnswer<C> = Infer<C, 'answer', void>;

/** What a client sends: the path's params, the query and the body, where the call has them. */
export type CallInput<C> = (C extends { params: z.ZodType } ? { params: InferIn<C, 'params', never> } : unknown) &
  (C extends { query: z.ZodType } ? { query: InferIn<C, 'query', never> } : unknown) &
  (C extends { body: z.ZodType } ? { body: InferIn<C, 'body', never> } : unknown);
