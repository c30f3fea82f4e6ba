import {
  type ErrorCode,
  errorStatus,
  organizationRoles,
  WEBHOOK_DELIVERY_HEADER,
  WEBHOOK_EVENT_HEADER,
  WEBHOOK_SIGNATURE_HEADER,
  type WebhookDeliveryType,
} from '@rayo/shared';
import { type Call, contract, fileMediaTypes, webhookEventSchema, webhookEvents } from '@rayo/shared/contract';
import { z } from 'zod';
import { splitCallKey } from './contract.ts';

/**
 * The API document (served under /api/docs) says what the contract says beyond the schemas
 * @fastify/swagger reads from the routes: each call's refusals as `{ code, message }` with their
 * codes, 204 for calls without an answer, a file's media type, and the webhook events Rayo sends (OpenAPI 3.1 `webhooks`).
 */

export const OPENAPI_VERSION = '3.1.0';

/** What a call's permission and schemas refuse with, before its own refusals. */
function impliedRefusals(call: Call): ErrorCode[] {
  const codes: ErrorCode[] = [];
  if (call.params || call.query || call.body || call.headers || call.upload) codes.push('InvalidInput');
  if (call.who !== 'public') codes.push('Unauthorized');
  if (Array.isArray(call.who)) {
    codes.push('Forbidden');
    const inOrganization = call.who.some((role) => (organizationRoles as readonly string[]).includes(role));
    if (inOrganization && call.scope?.within !== 'no-organization') codes.push('OnboardingRequired');
  }
  const outside = call.scope?.outside;
  if (call.scope)
    codes.push(
      outside === 400
        ? 'InvalidInput'
        : outside === 403
          ? 'Forbidden'
          : outside === 409
            ? 'AlreadyOnboarded'
            : 'NotFound',
    );
  return codes;
}

/** Every code a call may answer with, `Default` (500) last. */
export function refusalsOf(call: Call): ErrorCode[] {
  return [...new Set([...impliedRefusals(call), ...call.refusals, 'Default' as const])];
}

type Operation = { responses?: Record<string, unknown>; requestBody?: unknown };
type Document = { openapi?: string; paths?: Record<string, Record<string, Operation>>; webhooks?: unknown };

function refusalResponse(codes: readonly ErrorCode[]) {
  return {
    description: codes.map((code) => `\`${code}\``).join(', '),
    content: {
      'application/json': {
        schema: {
          type: 'object',
          required: ['code', 'message'],
          properties: { code: { type: 'string', enum: codes }, message: { type: 'string' } },
        },
      },
    },
  };
}

function responsesOf(call: Call, generated: Record<string, unknown> = {}): Record<string, unknown> {
  const responses: Record<string, unknown> = call.answer ? { ...generated } : {};
  if (call.file) {
    const { disposition } = call.file;
    responses[200] = {
      description: call.description ?? call.summary,
      headers: disposition
        ? {
            'Content-Disposition': {
              description: `\`${disposition}; filename="…"\`: the file's name`,
              schema: { type: 'string' },
            },
          }
        : { ETag: { description: "The file's hash, quoted", schema: { type: 'string' } } },
      content: Object.fromEntries(
        fileMediaTypes(call.file).map((mediaType) => [mediaType, { schema: { type: 'string', format: 'binary' } }]),
      ),
    };
    if (!disposition) responses[304] = { description: 'Not modified: `If-None-Match` names the current `ETag`' };
  } else if (call.streams) {
    responses[200] = {
      description: call.description ?? call.summary,
      content: { [call.streams]: { schema: { type: 'string' } } },
    };
  } else if (!call.answer) {
    responses[204] = { description: 'Done; no body' };
  }
  const byStatus = new Map<number, ErrorCode[]>();
  for (const code of refusalsOf(call))
    byStatus.set(errorStatus[code], [...(byStatus.get(errorStatus[code]) ?? []), code]);
  for (const [status, codes] of byStatus) responses[status] = refusalResponse(codes);
  return responses;
}

/** An upload's body: multipart/form-data with its one file in the field `file`. */
function uploadBody({ mediaTypes, maxBytes }: NonNullable<Call['upload']>) {
  return {
    required: true,
    description: `One file in the field \`file\`, of at most ${maxBytes} bytes, and nothing else`,
    content: {
      'multipart/form-data': {
        schema: {
          type: 'object',
          required: ['file'],
          properties: { file: { type: 'string', format: 'binary' } },
          additionalProperties: false,
        },
        encoding: { file: { contentType: mediaTypes.join(', ') } },
      },
    },
  };
}

/** `/api/x/:id` as OpenAPI writes it, `/api/x/{id}`. */
function openApiPath(url: string): string {
  return url.replace(/:([A-Za-z0-9_]+)/g, '{$1}');
}

function headerParameter(name: string, description: string) {
  return { name, in: 'header', required: true, description, schema: { type: 'string' } };
}

function webhookOf(type: WebhookDeliveryType) {
  return {
    post: {
      operationId: `webhook${type.replace(/(^|\.)(\w)/g, (_, _dot, letter: string) => letter.toUpperCase())}`,
      summary: webhookEvents[type].summary,
      description: `Sent to each active endpoint subscribed to \`${type}\`. Verify \`${WEBHOOK_SIGNATURE_HEADER}\` over the raw body before parsing it (docs/api.md "Webhooks").`,
      parameters: [
        headerParameter(WEBHOOK_EVENT_HEADER, 'The event type'),
        headerParameter(
          WEBHOOK_DELIVERY_HEADER,
          'The delivery id (= body `id`): the same on every retry and redelivery',
        ),
        headerParameter(
          WEBHOOK_SIGNATURE_HEADER,
          '`t=<unix seconds>,v1=<hex HMAC-SHA256(secret, "<t>.<raw body>")>`; refuse a `t` more than 5 minutes from your clock',
        ),
      ],
      requestBody: {
        required: true,
        content: {
          'application/json': { schema: z.toJSONSchema(webhookEventSchema(type), { target: 'draft-2020-12' }) },
        },
      },
      responses: {
        '2XX': { description: 'Stored; anything else (or no answer within 10 seconds) is retried with backoff' },
      },
    },
  };
}

/** The swagger plugin's `transformObject`: completes the generated document from the contract. */
export function completeApiDocument<D extends object>(generated: D): D {
  const document = generated as Document;
  const paths = { ...document.paths };
  for (const [key, call] of Object.entries(contract) as [keyof typeof contract, Call][]) {
    const { method, url } = splitCallKey(key);
    const path = openApiPath(url);
    const operation = paths[path]?.[method.toLowerCase()];
    if (!operation) continue;
    paths[path] = {
      ...paths[path],
      [method.toLowerCase()]: {
        ...operation,
        ...(call.upload && { requestBody: uploadBody(call.upload) }),
        responses: responsesOf(call, operation.responses),
      },
    };
  }
  const types = Object.keys(webhookEvents) as WebhookDeliveryType[];
  return { ...document, paths, webhooks: Object.fromEntries(types.map((type) => [type, webhookOf(type)])) } as D;
}
