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

/** The path to the first unstorable key or string inside `value`, or undefined. */
function findUnstorable(value: unknown, path: string[] = []): string[] | undefined {
  if (typeof value === 'string') return isUnstorable(value) ? path : undefined;
  if (typeof value !== 'object' || value === null) return undefined;
  for (const [key, item] of Object.entries(value)) {
    if (isUnstorable(key)) return [...path, key];
    const found = findUnstorable(item, [...path, key]);
    if (found) return found;
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
      const path = findUnstorable(input);
      if (!path) continue;
      const [field = ''] = path;
      const code = field ? validationErrorCode(field, (input as Record<string, unknown>)[field]) : 'InvalidInput';
      throw new AppError(code, `${field || 'The request'} contains a NUL byte or an unpaired UTF-16 surrogate`);
    }
  });
}
