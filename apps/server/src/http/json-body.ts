import { AppError } from '@rayo/shared';
import type { FastifyInstance } from 'fastify';

/**
 * How deeply objects and arrays may nest in a JSON body, and how many there may be. No body of
 * the API nests past 3 or holds more than a few dozen; a store's own metadata gets room to spare.
 * Parsing a body and every walk over it after (the text-input guard, the schemas) cost in
 * proportion to these, so a body of thousands of levels, or a megabyte of empty arrays, must not
 * get that far: each cost the event loop tens to hundreds of milliseconds.
 */
export const MAX_JSON_DEPTH = 32;
export const MAX_JSON_CONTAINERS = 10_000;

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const OPEN_BRACKET = 0x5b;
const CLOSE_BRACKET = 0x5d;
const OPEN_BRACE = 0x7b;
const CLOSE_BRACE = 0x7d;

/**
 * What is wrong with the shape of the JSON text, read in one pass before it is parsed: objects
 * and arrays nested deeper than `maxDepth`, or more than `maxContainers` of them. Brackets inside
 * strings do not count. Text that is not JSON may be misread here; JSON.parse refuses it next.
 */
export function jsonShapeProblem(text: string, maxDepth: number, maxContainers: number): string | undefined {
  let depth = 0;
  let containers = 0;
  let inString = false;
  for (let i = 0; i < text.length; i += 1) {
    const char = text.charCodeAt(i);
    if (inString) {
      if (char === BACKSLASH) i += 1;
      else if (char === QUOTE) inString = false;
    } else if (char === QUOTE) {
      inString = true;
    } else if (char === OPEN_BRACKET || char === OPEN_BRACE) {
      depth += 1;
      containers += 1;
      if (depth > maxDepth) return `The JSON body nests deeper than ${maxDepth} levels`;
      if (containers > maxContainers) return `The JSON body holds more than ${maxContainers} objects and arrays`;
    } else if (char === CLOSE_BRACKET || char === CLOSE_BRACE) {
      depth -= 1;
    }
  }
  return undefined;
}

/**
 * Parses JSON bodies as Fastify does, except that an empty body counts as no body (the web app
 * sends a JSON content type on every request, SPEC §7, bodiless POSTs included) and a body past
 * `MAX_JSON_DEPTH` or `MAX_JSON_CONTAINERS` is refused before it is parsed.
 */
export function registerJsonBodyParser(app: FastifyInstance): void {
  const parseJson = app.getDefaultJsonParser('error', 'error');
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser<string>('application/json', { parseAs: 'string' }, (request, body, done) => {
    if (body === '') return done(null, undefined);
    const problem = jsonShapeProblem(body, MAX_JSON_DEPTH, MAX_JSON_CONTAINERS);
    if (problem) return done(new AppError('InvalidInput', problem), undefined);
    parseJson(request, body, done);
  });
}
