import { STATUS_CODES } from 'node:http';
import type { Socket } from 'node:net';
import { AppError, type ErrorCode, isErrorCode } from '@rayo/shared';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import { applySecurityHeaders, securityHeaderLines } from './security.ts';

function capitalize(word: string): string {
  return word.charAt(0).toUpperCase() + word.slice(1);
}

function isBlank(value: unknown): boolean {
  return value === undefined || value === null || (typeof value === 'string' && value.trim() === '');
}

/**
 * SPEC §8: a failed field becomes `Missing<Field>` when it was absent or blank and
 * `Invalid<Field>` otherwise. A field without codes of its own answers with those of its last
 * word, so `newPassword` fails like `password` and the web app shows the same messages; failing
 * that, `InvalidInput`.
 */
export function validationErrorCode(field: string, input: unknown): ErrorCode {
  const prefix = isBlank(input) ? 'Missing' : 'Invalid';
  const lastWord = /[A-Z][a-z0-9]*$/.exec(field)?.[0];
  for (const name of [capitalize(field), lastWord]) {
    const code = `${prefix}${name}`;
    if (name && isErrorCode(code)) return code;
  }
  return 'InvalidInput';
}

function send(reply: FastifyReply, code: ErrorCode, message: string, status?: number) {
  return reply.status(status ?? new AppError(code).status).send({ code, message });
}

const BUSY_RETRY_AFTER_SECONDS = 2;

/**
 * Fastify's `frameworkErrors`: it answers a malformed URL (400) or an overlong path parameter
 * (414) before any route or error handler runs, and this gives those answers our shape too.
 */
export function answerFrameworkError(error: FastifyError, request: FastifyRequest, reply: FastifyReply): void {
  // No hook runs for these, so the security headers are set here.
  applySecurityHeaders(request, reply);
  send(reply, 'InvalidInput', error.message, error.statusCode ?? 400);
}

const SECURITY_HEADER_LINES = securityHeaderLines();

/**
 * A whole HTTP answer `{ code, message }` with the security headers, for a socket that has no
 * request Fastify could answer on; the connection closes after it.
 */
export function rawErrorAnswer(status: number, code: ErrorCode, message: string, headers: string[] = []): string {
  const body = JSON.stringify({ code, message });
  return [
    `HTTP/1.1 ${status} ${STATUS_CODES[status] ?? ''}`,
    'content-type: application/json; charset=utf-8',
    `content-length: ${Buffer.byteLength(body)}`,
    'cache-control: no-store',
    'connection: close',
    ...SECURITY_HEADER_LINES,
    ...headers,
    '',
    body,
  ].join('\r\n');
}

/** Writes `answer` if the socket still takes it, then closes the socket once it is sent. */
export function answerOnSocket(socket: Socket, answer: string): void {
  if (socket.writable) socket.end(answer, () => socket.destroy());
  else socket.destroy();
}

/** Node's parser names the fault it met (llhttp's reason, a fixed text) on the error it raises. */
function parserReason(error: Error): string | undefined {
  const reason = (error as { reason?: unknown }).reason;
  return typeof reason === 'string' && reason !== '' ? reason : undefined;
}

/**
 * Fastify's `clientErrorHandler`: what Node's HTTP parser refuses before Fastify sees a request
 * (headers too large, Content-Length beside chunked, bytes HTTP does not allow, a request that
 * took too long to arrive) is answered in our shape with the security headers, instead of
 * Fastify's `{ error, message, statusCode }` without them.
 */
export function answerClientError(error: NodeJS.ErrnoException, socket: Socket): void {
  // A connection reset has nobody left to answer.
  if (error.code === 'ECONNRESET' || socket.destroyed) return;
  if (error.code === 'ERR_HTTP_REQUEST_TIMEOUT') {
    answerOnSocket(socket, rawErrorAnswer(408, 'InvalidInput', 'The request took too long to arrive'));
  } else if (error.code === 'HPE_HEADER_OVERFLOW') {
    answerOnSocket(socket, rawErrorAnswer(431, 'InvalidInput', 'The request headers are too large'));
  } else {
    const reason = parserReason(error);
    const message = reason ? `The request is not valid HTTP: ${reason}` : 'The request is not valid HTTP';
    answerOnSocket(socket, rawErrorAnswer(400, 'InvalidInput', message));
  }
}

export function registerErrorHandler(app: FastifyInstance): void {
  app.setErrorHandler((error: FastifyError, request: FastifyRequest, reply: FastifyReply) => {
    if (error instanceof AppError) {
      if (error.code === 'Default')
        request.log.error({ err: error }, 'unexpected error; the request was answered with 500');
      // A refusal for load says when to come back; a rate limit has set its window's end already.
      if (
        (error.code === 'TooManyRequests' || error.code === 'ServiceUnavailable') &&
        !reply.hasHeader('retry-after')
      ) {
        reply.header('retry-after', String(BUSY_RETRY_AFTER_SECONDS));
      }
      return send(reply, error.code, error.message);
    }
    if (hasZodFastifySchemaValidationErrors(error)) {
      const issue = error.validation[0];
      const field = issue?.instancePath.split('/').filter(Boolean)[0] ?? '';
      const sources: Record<string, unknown> = {
        body: request.body,
        querystring: request.query,
        params: request.params,
        headers: request.headers,
      };
      const source = sources[error.validationContext ?? 'body'] as Record<string, unknown> | undefined;
      if (!field) return send(reply, 'InvalidInput', `The request is not valid: ${issue?.message ?? 'no details'}`);
      const missing = isBlank(source?.[field]);
      const code = validationErrorCode(field, source?.[field]);
      return send(reply, code, missing ? `${field} is required` : `${field}: ${issue?.message}`);
    }
    const status = error.statusCode ?? 500;
    if (status === 429) return send(reply, 'TooManyRequests', 'Too many requests, try again later');
    if (status >= 400 && status < 500) {
      // Malformed JSON, wrong content type, oversized bodies: the client's fault, said plainly.
      return send(reply, 'InvalidInput', error.message, status);
    }
    request.log.error({ err: error }, 'unexpected error; the request was answered with 500');
    return send(reply, 'Default', 'An unexpected error occurred');
  });

  app.setNotFoundHandler((request, reply) =>
    send(reply, 'NotFound', `No route ${request.method} ${request.url.split('?')[0]}`),
  );
}
