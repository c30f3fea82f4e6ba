import { useEffect } from 'react';
import { Outlet } from 'react-router';
import { useTranslation } from '../i18n/index.ts';
import { useRouteNames } from './NamedRoutes.tsx';

/**
 * Names the screen in the browser's tab, history and screen readers ('Settings · Rayo'), in the
 * language shown; every route has its title (the route table's test checks none is missing).
 */
export function DocumentTitle() {
  const { t } = useTranslation();
  // The deepest route's name is the screen's.
  const name = useRouteNames().at(-1);
  useEffect(() => {
    document.title = name ? `${t(`pageTitles.${name}`)} · Rayo` : 'Rayo';
  }, [name, t]);
  return <Outlet />;
}
