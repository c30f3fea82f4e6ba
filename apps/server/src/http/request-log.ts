import type { FastifyRequest } from 'fastify';

const REDACTED = '[redacted]';

/**
 * Path segments that are bearer secrets: whoever holds one may use it. A shared terminal's token
 * (`/bpts/:bptToken` in the web app, `/api/terminal/:token` in the API) charges on that terminal,
 * and a devnet withdrawal's k1 takes its money. The signed-in terminal (`/bpts/:id/terminal`)
 * carries an id, which is no secret.
 */
const SECRET_PATHS: RegExp[] = [
  /^(\/bpts\/)[^/]+(\/?)$/,
  /^(\/api\/terminal\/)[^/]+(.*)$/,
  /^(\/api\/devnet\/lnurlw\/)[^/]+(.*)$/,
];

/** Mailed links land on these web pages with the confirmation or reset code in the query. */
const SECRET_QUERY_PATHS = new Set(['/onboard', '/confirm-forgot-password', '/check-your-email']);

/** Query parameters that carry codes, tokens or addresses on any path. */
const SECRET_QUERY_NAMES = new Set(['code', 'token', 'k1', 'email']);

function decodedName(name: string): string {
  try {
    return decodeURIComponent(name).toLowerCase();
  } catch {
    return name.toLowerCase();
  }
}

/**
 * The request URL as it may be logged: the path and the parameter names stay for debugging, the
 * secrets of mailed links and shared terminals do not, since logs are read and kept by more
 * people than those links were sent to.
 */
export function redactUrl(url: string): string {
  const mark = url.indexOf('?');
  const pathname = mark === -1 ? url : url.slice(0, mark);
  const query = mark === -1 ? undefined : url.slice(mark + 1);
  let path = pathname;
  for (const pattern of SECRET_PATHS) path = path.replace(pattern, `$1${REDACTED}$2`);
  if (query === undefined) return path;
  const everyValue = SECRET_QUERY_PATHS.has(pathname.replace(/\/+$/, ''));
  const parameters = query.split('&').map((parameter) => {
    const equals = parameter.indexOf('=');
    // Without '=', on a page whose every value is secret, the whole parameter may be one.
    if (equals === -1) return everyValue ? REDACTED : parameter;
    const name = parameter.slice(0, equals);
    return everyValue || SECRET_QUERY_NAMES.has(decodedName(name)) ? `${name}=${REDACTED}` : parameter;
  });
  return `${path}?${parameters.join('&')}`;
}

/** Fastify's own request fields, with the URL redacted; pino uses it for every `req` logged. */
export function serializeRequest(request: FastifyRequest) {
  return {
    method: request.method,
    url: redactUrl(request.url),
    host: request.host,
    remoteAddress: request.ip,
    remotePort: request.socket?.remotePort,
  };
}
