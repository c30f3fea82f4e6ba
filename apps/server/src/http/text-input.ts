import { AppError } from '@rayo/shared';
import type { FastifyInstance } from 'fastify';
import { validationErrorCode } from './error-handler.ts';

/**
 * Text no column can hold: PostgreSQL refuses NUL in text and jsonb (the query fails, a 500),
 * and a lone UTF-16 surrogate has no UTF-8 form, so the driver would store U+FFFD instead.
 */
function isUnstorable(text: string): boolean {
  return text.includes('\u0000') || !text.isWellFormed();
}

/** Objects and arrays, but not the raw bytes a route reads for itself (a webhook's body). */
function isWalkable(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !ArrayBuffer.isView(value);
}

/**
 * The top-level field under which `value` holds an unstorable key or string ('' for `value`
 * itself or a key of its own), or undefined. It walks with a stack of its own rather than by
 * recursion, so no depth of nesting can overflow the call stack, and carries only the top-level
 * field down rather than each path.
 */
function fieldWithUnstorableText(value: unknown): string | undefined {
  if (typeof value === 'string') return isUnstorable(value) ? '' : undefined;
  if (!isWalkable(value)) return undefined;
  const pending: Array<[field: string, item: unknown]> = [];
  for (const [key, item] of Object.entries(value)) {
    if (isUnstorable(key)) return '';
    pending.push([key, item]);
  }
  for (let next = pending.pop(); next !== undefined; next = pending.pop()) {
    const [field, item] = next;
    if (typeof item === 'string') {
      if (isUnstorable(item)) return field;
    } else if (isWalkable(item)) {
      for (const [key, inner] of Object.entries(item)) {
        if (isUnstorable(key)) return field;
        pending.push([field, inner]);
      }
    }
  }
  return undefined;
}

/**
 * Refuses such text in path parameters, query strings and JSON bodies of every route, before
 * any schema or handler sees it, with the code a schema failure of the same field would have.
 */
export function registerTextInputGuard(app: FastifyInstance): void {
  app.addHook('preValidation', async (request) => {
    for (const input of [request.params, request.query, request.body]) {
      const field = fieldWithUnstorableText(input);
      if (field === undefined) continue;
      const code = field ? validationErrorCode(field, (input as Record<string, unknown>)[field]) : 'InvalidInput';
      throw new AppError(code, `${field || 'The request'} contains a NUL byte or an unpaired UTF-16 surrogate`);
    }
  });
}
