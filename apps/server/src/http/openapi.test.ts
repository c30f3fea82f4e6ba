import { errorStatus, WEBHOOK_DELIVERY_HEADER, WEBHOOK_EVENT_HEADER, WEBHOOK_SIGNATURE_HEADER } from '@rayo/shared';
import { type Call, contract, fileMediaTypes, webhookEvents } from '@rayo/shared/contract';
import { Validator } from '@seriousme/openapi-schema-validator';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../test/test-app.ts';
import { splitCallKey } from './contract.ts';
import { refusalsOf } from './openapi.ts';

/**
 * The API document as /api/docs serves it, checked by a validator nobody here wrote against the
 * OpenAPI 3.1 schema, and against the contract it is derived from.
 */

type Response = {
  description?: string;
  headers?: Record<string, unknown>;
  content?: Record<string, { schema?: { properties?: Record<string, { enum?: string[] }> } }>;
};
type Operation = {
  operationId?: string;
  description?: string;
  responses: Record<string, Response>;
  parameters?: { name: string; in: string }[];
  requestBody?: { content: Record<string, { schema: { properties?: Record<string, { const?: string }> } }> };
};
type Document = {
  openapi: string;
  paths: Record<string, Record<string, Operation>>;
  webhooks: Record<string, { post: Operation }>;
};

let t: TestApp;
let doc: Document;

beforeAll(async () => {
  t = await createTestApp();
  const response = await t.app.inject({ method: 'GET', url: '/api/docs/json' });
  expect(response.statusCode).toBe(200);
  doc = response.json();
});

afterAll(async () => {
  await t?.close();
});

function operationOf(key: keyof typeof contract): Operation | undefined {
  const { method, url } = splitCallKey(key);
  return doc.paths[url.replace(/:(\w+)/g, '{$1}')]?.[method.toLowerCase()];
}

const calls = Object.entries(contract) as [keyof typeof contract, Call][];

describe('the OpenAPI document', () => {
  it('is a valid OpenAPI 3.1 document', async () => {
    expect(doc.openapi).toBe('3.1.0');
    const result = await new Validator().validate(structuredClone(doc));
    expect(result.errors ?? [], JSON.stringify(result.errors, null, 2)?.slice(0, 4000)).toEqual([]);
    expect(result.valid).toBe(true);
  });

  it('gives every operation an operationId of its own', () => {
    const ids = Object.values(doc.paths).flatMap((byMethod) => Object.values(byMethod).map((op) => op.operationId));
    const named = ids.filter((id) => id !== undefined);
    expect(new Set(named).size).toBe(named.length);
  });

  it.each(calls)('describes %s as the contract defines it', (key, call) => {
    const operation = operationOf(key);
    expect(operation, 'the route is registered').toBeDefined();
    if (!operation) return;
    expect(operation.operationId).toBe(call.operationId);
    expect(operation.description?.length).toBeGreaterThan(10);
    const statuses = Object.keys(operation.responses);
    if (call.upload) expect(Object.keys(operation.requestBody?.content ?? {})).toEqual(['multipart/form-data']);
    if (call.answer) for (const status of call.statuses ?? [200]) expect(statuses).toContain(String(status));
    else if (call.file) {
      expect(Object.keys(operation.responses[200]?.content ?? {})).toEqual(fileMediaTypes(call.file));
      expect(Object.keys(operation.responses[200]?.headers ?? {})).toEqual([
        call.file.disposition ? 'Content-Disposition' : 'ETag',
      ]);
      if (!call.file.disposition) expect(statuses).toContain('304');
    } else if (!call.streams) {
      expect(statuses).toContain('204');
      expect(statuses).not.toContain('200');
    }
    for (const code of refusalsOf(call)) {
      const refusal = operation.responses[errorStatus[code]]?.content?.['application/json']?.schema;
      expect(Object.keys(refusal?.properties ?? {}), `${code} answers { code, message }`).toEqual(['code', 'message']);
      expect(refusal?.properties?.code?.enum, `${code} is listed`).toContain(code);
    }
  });

  it('lists the webhook events Rayo sends, with their signature headers', () => {
    expect(Object.keys(doc.webhooks).sort()).toEqual(Object.keys(webhookEvents).sort());
    for (const [type, { post }] of Object.entries(doc.webhooks)) {
      expect(post.parameters?.filter((p) => p.in === 'header').map((p) => p.name)).toEqual([
        WEBHOOK_EVENT_HEADER,
        WEBHOOK_DELIVERY_HEADER,
        WEBHOOK_SIGNATURE_HEADER,
      ]);
      expect(post.requestBody?.content['application/json']?.schema.properties?.type?.const).toBe(type);
      expect(post.operationId).toMatch(/^webhook[A-Z]/);
    }
  });
});
