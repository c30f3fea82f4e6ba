import {
  type Call,
  type CallAnswerIn,
  type CallBody,
  type CallParams,
  type CallQuery,
  type Contract,
  type ContractKey,
  contract,
  fileMediaTypes,
  type Method,
} from '@rayo/shared/contract';
import type { FastifyReply, FastifyRequest, FastifySchema } from 'fastify';
import type { App } from './app-type.ts';

/**
 * Registers the routes of the shared contract (docs/architecture.md "Route contract"): the
 * method, path, schemas and OpenAPI words come from the call's definition in
 * `@rayo/shared/contract`, so a route file writes only what the call does.
 */

export type CallRequest<C> = FastifyRequest<{ Params: CallParams<C>; Querystring: CallQuery<C>; Body: CallBody<C> }>;

/**
 * Answers with the call's answer, sent with its first status (204 without an answer); a handler
 * that chooses among the call's statuses sends the reply itself and returns it. A call that
 * answers a `file` always sends it through `reply`: its name and headers are the handler's.
 */
export type CallHandler<C> = C extends { file: object }
  ? (request: CallRequest<C>, reply: FastifyReply) => Promise<FastifyReply>
  : (request: CallRequest<C>, reply: FastifyReply) => Promise<CallAnswerIn<C> | FastifyReply>;

export type CallOptions<C> = {
  /** Run as the request arrives, before its body is read (a check of where it comes from). */
  onRequest?: readonly ((request: FastifyRequest) => Promise<void>)[];
  /** Run after access control, before the body is handled (an MFA code, an early refusal). */
  preHandler?: readonly ((request: CallRequest<C>, reply: FastifyReply) => Promise<void>)[];
};

export function splitCallKey(key: ContractKey): { method: Method; url: string } {
  const [method, url] = key.split(' ') as [Method, string];
  return { method, url };
}

function schemaOf(call: Call): FastifySchema {
  const statuses = call.statuses ?? [200];
  return {
    operationId: call.operationId,
    tags: [...call.tags],
    summary: call.summary,
    description: call.description ?? call.summary,
    ...(call.params && { params: call.params }),
    ...(call.query && { querystring: call.query }),
    ...(call.body && { body: call.body }),
    ...(call.headers && { headers: call.headers }),
    ...(call.file && { produces: [...fileMediaTypes(call.file)] }),
    ...(call.answer && { response: Object.fromEntries(statuses.map((status) => [status, call.answer])) }),
  } as FastifySchema;
}

export function registerCall<K extends ContractKey>(
  app: App,
  key: K,
  handler: CallHandler<Contract[K]>,
  options: CallOptions<Contract[K]> = {},
): void {
  const call: Call = contract[key];
  const { method, url } = splitCallKey(key);
  const status = call.statuses?.[0] ?? 200;
  app.route({
    method,
    url,
    schema: schemaOf(call),
    ...(options.onRequest && { onRequest: options.onRequest as never }),
    ...(options.preHandler && { preHandler: options.preHandler as never }),
    handler: async (request, reply) => {
      const answer: unknown = await handler(request as never, reply);
      if (answer === reply || reply.sent) return reply;
      if (!call.answer) return reply.status(204).send();
      return reply.status(status).send(answer);
    },
  });
}
