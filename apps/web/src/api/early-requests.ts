/**
 * Calls the page's head starts before the framework has loaded (the script is written by
 * vite.config.ts): home's first figures wait on the organization, whose time zone places the
 * period, and asking for it once the framework had run would add its round trip after that.
 * The app takes each early answer once, for the same path and access token, through `send`.
 */

/** The window property the head's script keeps its requests under, by API path. */
export const EARLY_REQUESTS_KEY = 'rayoEarlyRequests';

export const CURRENT_ORGANIZATION_PATH = '/organization/current';

/** What the head asks for early when a signed-in visitor opens `/`. */
export const HOME_EARLY_PATHS = [CURRENT_ORGANIZATION_PATH];

type EarlyRequest = { token: string; response: Promise<Response> };

export function takeEarlyResponse(path: string, token: string): Promise<Response> | undefined {
  const requests = (window as unknown as Record<string, Record<string, EarlyRequest> | undefined>)[EARLY_REQUESTS_KEY];
  const request = requests?.[path];
  if (!requests || !request) return undefined;
  delete requests[path];
  return request.token === token ? request.response : undefined;
}
