import { createContext, useContext, useMemo } from 'react';
import { matchRoutes, type RouteObject, useLocation, useRoutes } from 'react-router';

const RouteNamesContext = createContext<readonly string[]>([]);

/**
 * Renders the route table for the current location, and tells the screens inside the names of
 * the routes it matched (SPEC §2's route names, kept in each route's `handle`). React Router's
 * own way to read them, `useMatches`, needs its data router, which is twice the code of the
 * routing the app uses.
 */
export function NamedRoutes({ routes }: { routes: RouteObject[] }) {
  const location = useLocation();
  const names = useMemo(
    () =>
      (matchRoutes(routes, location) ?? []).flatMap(({ route }) => {
        const name = (route.handle as { name?: string } | undefined)?.name;
        return name ? [name] : [];
      }),
    [routes, location],
  );
  return <RouteNamesContext.Provider value={names}>{useRoutes(routes, location)}</RouteNamesContext.Provider>;
}

/** The names of the routes matched, outermost first. */
export function useRouteNames(): readonly string[] {
  return useContext(RouteNamesContext);
}
