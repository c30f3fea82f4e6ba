import { useEffect } from 'react';
import { Outlet, useMatches } from 'react-router';
import { useTranslation } from '../i18n/index.ts';

/** The name of the deepest route matched: SPEC's route name, kept in each route's `handle`. */
function routeName(matches: ReturnType<typeof useMatches>): string | undefined {
  for (const match of [...matches].reverse()) {
    const name = (match.handle as { name?: string } | undefined)?.name;
    if (name) return name;
  }
  return undefined;
}

/**
 * Names the screen in the browser's tab, history and screen readers ('Settings · Rayo'), in the
 * language shown; every route has its title (the route table's test checks none is missing).
 */
export function DocumentTitle() {
  const { t } = useTranslation();
  const name = routeName(useMatches());
  useEffect(() => {
    document.title = name ? `${t(`pageTitles.${name}`)} · Rayo` : 'Rayo';
  }, [name, t]);
  return <Outlet />;
}
