import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import helmet from 'helmet';

/**
 * Security headers and a strict Content-Security-Policy. Tokens live in localStorage (SPEC §3),
 * so no script may run unless it is one of our own files.
 */
const setSecurityHeaders = helmet({
  contentSecurityPolicy: {
    useDefaults: false,
    directives: {
      defaultSrc: ["'self'"],
      scriptSrc: ["'self'"],
      // Mantine writes its theme variables into a <style> element and sets inline styles.
      styleSrc: ["'self'", "'unsafe-inline'"],
      imgSrc: ["'self'", 'data:', 'blob:'],
      fontSrc: ["'self'", 'data:'],
      connectSrc: ["'self'"],
      objectSrc: ["'none'"],
      baseUri: ["'self'"],
      formAction: ["'self'"],
      frameAncestors: ["'none'"],
    },
  },
  crossOriginEmbedderPolicy: false,
  referrerPolicy: { policy: 'strict-origin-when-cross-origin' },
});

/**
 * The headers on a reply that no hook sees: Fastify answers a malformed URL through
 * `frameworkErrors` before any hook runs.
 */
export function applySecurityHeaders(request: FastifyRequest, reply: FastifyReply): void {
  // helmet sets every header before it returns, and throws rather than passing on an error.
  setSecurityHeaders(request.raw, reply.raw, () => {});
}

/**
 * Sets the headers on every request before anything else can answer it. Hooks run in the order
 * they are added and one that answers (the access check's 401 and 403) skips the rest, so this
 * must be registered first.
 */
export function registerSecurityHeaders(app: FastifyInstance): void {
  app.addHook('onRequest', (request, reply, done) => {
    applySecurityHeaders(request, reply);
    done();
  });
}
