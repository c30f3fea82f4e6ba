import type { FastifyInstance } from 'fastify';

/**
 * Parses JSON bodies as Fastify does, except that an empty body counts as no body: the web app
 * sends a JSON content type on every request (SPEC §7), bodiless POSTs included.
 */
export function registerJsonBodyParser(app: FastifyInstance): void {
  const parseJson = app.getDefaultJsonParser('error', 'error');
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser<string>('application/json', { parseAs: 'string' }, (request, body, done) => {
    if (body === '') return done(null, undefined);
    parseJson(request, body, done);
  });
}
