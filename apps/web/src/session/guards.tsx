import type { NavEntry } from '@rayo/shared';
import { navByRole } from '@rayo/shared';
import type { ReactNode } from 'react';
import { Navigate, useLocation, useSearchParams } from 'react-router';
import { homePathOf, loginPathAfterLogout, safeRedirect } from './routes.ts';
import { useSession } from './use-session.ts';

/**
 * SPEC §2: a route that needs a session, visited without an access token, logs out; the
 * Shopify and Ecwid pages send their full path along so sign-in returns there. With
 * `entry`, roles whose sidebar lacks that entry (SPEC §6) are sent to their own home.
 */
export function RequireSession({ entry, children }: { entry?: NavEntry; children: ReactNode }) {
  const { accessToken, role } = useSession();
  const location = useLocation();
  if (!accessToken || !role) {
    return <Navigate to={loginPathAfterLogout(`${location.pathname}${location.search}`)} replace />;
  }
  if (entry && !navByRole[role].includes(entry)) return <Navigate to={homePathOf(role)} replace />;
  return children;
}

/**
 * SPEC §2: /login redirects home when a session exists, or back to the page named in its
 * `redirect` query. This is also how a fresh sign-in leaves the login page.
 */
export function RedirectIfSignedIn({ children }: { children: ReactNode }) {
  const { accessToken, role } = useSession();
  const [searchParams] = useSearchParams();
  if (accessToken && role) {
    return <Navigate to={safeRedirect(searchParams.get('redirect')) ?? homePathOf(role)} replace />;
  }
  return children;
}
