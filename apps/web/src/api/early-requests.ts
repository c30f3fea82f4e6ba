/**
 * Calls the page's head starts before the framework has loaded (the script is written by
 * vite.config.ts): home's first figures wait on the organization, whose time zone places the
 * period, and the public checkout, donation and shareable terminal pages show nothing of their
 * own before their checkout, link or terminal has arrived; asking once the framework had run would add a round trip after
 * it. The app takes each early answer once, for the same path and access token (none for a
 * public call), through `send`.
 */

/** The window property the head's script keeps its requests under, by API path. */
export const EARLY_REQUESTS_KEY = 'rayoEarlyRequests';

/**
 * What the head asks for early when a signed-in visitor opens `/`: the path `apiCall` sends
 * `GET /api/organization/current` to.
 */
export const HOME_EARLY_PATHS = ['/organization/current'];

/**
 * Public pages whose one call the head starts: a page at `page` + id reads `api` + id (the id
 * as `encodeURIComponent` writes it, as the app's hooks ask for it).
 */
export const PUBLIC_EARLY_PAGES = {
  checkout: { page: '/ecommerce/checkout/', api: '/public/checkouts/' },
  donation: { page: '/donation/', api: '/public/donation-links/' },
  // The shareable terminal (`/bpts/:bptToken`); the signed-in terminal's path has one more part.
  terminal: { page: '/bpts/', api: '/terminal/' },
} as const;

/** The call a public page at `page` + id makes for its id. */
export function publicEarlyPath(page: keyof typeof PUBLIC_EARLY_PAGES, id: string): string {
  return `${PUBLIC_EARLY_PAGES[page].api}${encodeURIComponent(id)}`;
}

type EarlyRequest = { token: string; response: Promise<Response> };

export function takeEarlyResponse(path: string, token: string): Promise<Response> | undefined {
  const requests = (window as unknown as Record<string, Record<string, EarlyRequest> | undefined>)[EARLY_REQUESTS_KEY];
  const request = requests?.[path];
  if (!requests || !request) return undefined;
  delete requests[path];
  return request.token === token ? request.response : undefined;
}
