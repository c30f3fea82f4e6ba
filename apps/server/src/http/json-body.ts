import { type Readable, Transform } from 'node:stream';
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
 * Reads the shape of JSON text as it arrives, chunk after chunk, before it is parsed: `feed`
 * answers what is wrong once objects and arrays nest deeper than `maxDepth` or number more than
 * `maxContainers`. Brackets inside strings do not count. It reads bytes: every byte of a UTF-8
 * character past ASCII is at least 0x80, so none is taken for a bracket or a quote. Text that is
 * not JSON may be misread here; JSON.parse refuses it next.
 */
export function createJsonShapeScanner(maxDepth: number, maxContainers: number) {
  let depth = 0;
  let containers = 0;
  let inString = false;
  // A backslash that ended the last chunk escapes the first byte of the next.
  let escaped = false;

  function feed(chunk: Uint8Array): string | undefined {
    for (let i = 0; i < chunk.length; i += 1) {
      const char = chunk[i];
      if (escaped) {
        escaped = false;
      } else if (inString) {
        if (char === BACKSLASH) escaped = true;
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

  return { feed };
}

const JSON_TYPE = /^application\/json\s*(;|$)/i;

/**
 * A stream that passes the body on while it reads its shape, and fails at the first byte past
 * `MAX_JSON_DEPTH` or `MAX_JSON_CONTAINERS`: a megabyte of brackets is refused after its first
 * few, not once it has all arrived. Fastify then answers 400 and closes the connection.
 */
function shapeChecked(body: Readable): Readable & { receivedEncodedLength: number } {
  const scanner = createJsonShapeScanner(MAX_JSON_DEPTH, MAX_JSON_CONTAINERS);
  const checked = Object.assign(
    new Transform({
      transform(chunk: Buffer, _encoding, callback) {
        // Fastify holds the body to its limit by what was received, before any decoding.
        checked.receivedEncodedLength += chunk.length;
        const problem = scanner.feed(chunk);
        callback(problem ? new AppError('InvalidInput', problem) : null, problem ? undefined : chunk);
      },
    }),
    { receivedEncodedLength: 0 },
  );
  // Fastify listens for the failure while it reads the body, and not once it has refused it for
  // its length: a failure then has nobody left to tell.
  checked.on('error', () => {});
  return body.pipe(checked);
}

/**
 * Parses JSON bodies as Fastify does, except that an empty body counts as no body (the web app
 * sends a JSON content type on every request, SPEC §7, bodiless POSTs included) and a body past
 * `MAX_JSON_DEPTH` or `MAX_JSON_CONTAINERS` is refused while it arrives, before it is parsed.
 */
export function registerJsonBodyParser(app: FastifyInstance): void {
  app.addHook('preParsing', async (request, _reply, payload) => {
    const { headers } = request;
    // The web app sends the JSON type on bodiless calls too; they have nothing to read.
    const length = Number(headers['content-length'] ?? 0);
    const hasBody = headers['transfer-encoding'] !== undefined || length > 0;
    // A body longer than the limit is refused by Fastify for its length, unread.
    const refusedUnread = length > request.routeOptions.bodyLimit;
    return hasBody && !refusedUnread && JSON_TYPE.test(headers['content-type'] ?? '') ? shapeChecked(payload) : payload;
  });
  const parseJson = app.getDefaultJsonParser('error', 'error');
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser<string>('application/json', { parseAs: 'string' }, (request, body, done) => {
    if (body === '') return done(null, undefined);
    parseJson(request, body, done);
  });
}
