import type { IncomingMessage, ServerResponse } from 'node:http';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import helmet from 'helmet';

/**
 * Security headers and a strict Content-Security-Policy. Tokens live in localStorage (SPEC §3),
 * so no script may run unless it is one of our own files.
 */
const directives = {
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
};

const setSecurityHeaders = helmet({
  contentSecurityPolicy: { useDefaults: false, directives },
  crossOriginEmbedderPolicy: false,
  referrerPolicy: { policy: 'strict-origin-when-cross-origin' },
});

/** What the Ecwid app page may load and who may frame it (config `shops`). */
export type EcwidPagePolicy = { ecwidSdkUrl: string; ecwidCssUrl: string; ecwidAdminOrigins: string[] };

/**
 * `/ecommerce/ecwid` is shown inside the Ecwid admin's iframe and loads Ecwid's SDK and styles:
 * its document alone lets exactly those origins in, and the Ecwid admin frame it.
 */
function ecwidPageHeaders(policy: EcwidPagePolicy) {
  const sdkOrigin = new URL(policy.ecwidSdkUrl).origin;
  const cssOrigin = new URL(policy.ecwidCssUrl).origin;
  return helmet({
    contentSecurityPolicy: {
      useDefaults: false,
      directives: {
        ...directives,
        scriptSrc: ["'self'", sdkOrigin],
        styleSrc: [...directives.styleSrc, cssOrigin],
        frameAncestors: policy.ecwidAdminOrigins.length > 0 ? policy.ecwidAdminOrigins : ["'none'"],
      },
    },
    crossOriginEmbedderPolicy: false,
    // helmet's X-Frame-Options would forbid the frame that frame-ancestors allows.
    xFrameOptions: false,
    referrerPolicy: { policy: 'strict-origin-when-cross-origin' },
  });
}

const ECWID_PAGE = /^\/ecommerce\/ecwid\/?(?:[?#]|$)/;
/** The API's answers, but not its documentation's page and files. */
const API_ANSWER = /^\/api\/(?!docs(?:[/?#]|$))/;

/**
 * The headers on a reply that no hook sees: Fastify answers a malformed URL through
 * `frameworkErrors` before any hook runs.
 */
export function applySecurityHeaders(request: FastifyRequest, reply: FastifyReply): void {
  // helmet sets every header before it returns, and throws rather than passing on an error.
  setSecurityHeaders(request.raw, reply.raw, () => {});
}

/**
 * The same headers as `name: value` lines, for answers written straight to a socket, where there
 * is no request or reply for helmet to work on: refusals of Node's HTTP parser and of the
 * connection cap. helmet only sets and removes headers, so a recorder stands in for the reply.
 */
export function securityHeaderLines(): string[] {
  const headers = new Map<string, string>();
  const recorder = {
    setHeader: (name: string, value: string) => headers.set(name, value),
    removeHeader: (name: string) => headers.delete(name),
  };
  setSecurityHeaders({} as IncomingMessage, recorder as unknown as ServerResponse, () => {});
  return [...headers].map(([name, value]) => `${name}: ${value}`);
}

/**
 * Sets the headers on every request before anything else can answer it. Hooks run in the order
 * they are added and one that answers (the access check's 401 and 403) skips the rest, so this
 * must be registered first.
 */
export function registerSecurityHeaders(app: FastifyInstance, ecwid: EcwidPagePolicy): void {
  const setEcwidPageHeaders = ecwidPageHeaders(ecwid);
  app.addHook('onRequest', (request, reply, done) => {
    if (ECWID_PAGE.test(request.url)) setEcwidPageHeaders(request.raw, reply.raw, () => {});
    else applySecurityHeaders(request, reply);
    // API answers hold a caller's data (an IBAN, a session's tokens): no cache, the browser's or a
    // proxy's, keeps them. A route whose answer may be kept says so itself and replaces this.
    if (API_ANSWER.test(request.url)) reply.header('cache-control', 'no-store');
    done();
  });
}
