import { homeEntryOf, type NavEntry, type Role } from '@rayo/shared';

/** The path of each sidebar entry. */
export const navPaths: Record<NavEntry, string> = {
  index: '/',
  settings: '/settings',
  accounts: '/accounts',
  bpts: '/bpts',
  integrations: '/integrations',
  managers: '/managers',
  'back-office': '/back-office',
};

export function homePathOf(role: Role | null): string {
  return role ? navPaths[homeEntryOf(role)] : '/';
}

/** Pages that need a session but must come back to where they were after sign-in (SPEC §2). */
const returnAfterLoginPrefixes = ['/ecommerce/shopify', '/ecommerce/ecwid'];

/** Where a logout from `path` (pathname + search) sends the user. */
export function loginPathAfterLogout(path: string): string {
  const pathname = path.split(/[?#]/)[0] ?? '';
  const returns = returnAfterLoginPrefixes.some((prefix) => pathname === prefix || pathname.startsWith(`${prefix}/`));
  return returns ? `/login?redirect=${encodeURIComponent(path)}` : '/login';
}

/** A redirect target from the query string, accepted only when it stays on this site. */
export function safeRedirect(target: string | null): string | null {
  if (!target?.startsWith('/') || target.startsWith('//') || target.startsWith('/\\')) return null;
  return target;
}
