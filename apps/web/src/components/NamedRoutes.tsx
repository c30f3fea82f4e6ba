import { createContext, useContext, useMemo } from 'react';
import { matchRoutes, type RouteObject, useLocation, useRoutes } from 'react-router';
import { preloadLazyScreens } from './lazy-page.tsx';

const RouteNamesContext = createContext<readonly string[]>([]);

/**
 * Renders the route table for the current location, starts loading the code of all the lazy
 * screens it matched at once, and tells the screens inside the names of the routes it matched (SPEC §2's route names, kept in each route's `handle`). React Router's
 * own way to read them, `useMatches`, needs its data router, which is twice the code of the
 * routing the app uses.
 */
export function NamedRoutes({ routes }: { routes: RouteObject[] }) {
  const location = useLocation();
  const names = useMemo(() => {
    const matches = matchRoutes(routes, location) ?? [];
    for (const { route } of matches) preloadLazyScreens(route.element).catch(() => {});
    return matches.flatMap(({ route }) => {
      const name = (route.handle as { name?: string } | undefined)?.name;
      return name ? [name] : [];
    });
  }, [routes, location]);
  return <RouteNamesContext.Provider value={names}>{useRoutes(routes, location)}</RouteNamesContext.Provider>;
}

/** The names of the routes matched, outermost first. */
export function useRouteNames(): readonly string[] {
  return useContext(RouteNamesContext);
}
