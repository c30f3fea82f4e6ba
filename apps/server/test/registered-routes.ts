import type { App } from '../src/http/app-type.ts';

/** Every registered route as `METHOD /path`, read from Fastify's route tree (HEAD is GET's twin). */
export function registeredRoutes(app: App): string[] {
  const routes: string[] = [];
  const prefixes: string[] = [];
  for (const line of app.printRoutes({ commonPrefix: false }).split('\n')) {
    const match = /^([│ ]*)[├└]── (\S+)(?: \(([A-Z, ]+)\))?$/.exec(line);
    if (!match) continue;
    const [, indent = '', segment = '', methods] = match;
    const depth = indent.length / 4;
    prefixes.length = depth;
    const path = (prefixes[depth - 1] ?? '') + segment;
    prefixes.push(path);
    for (const method of methods?.split(', ') ?? []) if (method !== 'HEAD') routes.push(`${method} ${path}`);
  }
  return routes;
}

/** An API route with a line in the permission table; the documentation is public without one. */
export function isApiRoute(route: string): boolean {
  const path = route.split(' ')[1] ?? '';
  return path.startsWith('/api/') && !path.startsWith('/api/docs');
}
