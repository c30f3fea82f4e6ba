import { lazy, Suspense, useSyncExternalStore } from 'react';
import { notificationShown, subscribeToFirstNotification } from './notifications.ts';

const Notifications = lazy(() =>
  import('@mantine/notifications').then((module) => ({ default: module.Notifications })),
);

/**
 * The notifications' container (with its portal and transitions), mounted with the first
 * notification shown (`notifications.ts`) rather than with the first screen.
 */
export function DeferredNotifications() {
  const wanted = useSyncExternalStore(subscribeToFirstNotification, notificationShown);
  if (!wanted) return null;
  return (
    <Suspense fallback={null}>
      {/*
        At the bottom, on the right: at the top a message covered the top bar and the page's title
        on a phone, where it spans the screen. Red errors ask for the top themselves (SPEC §8, §9).
      */}
      <Notifications position="bottom-right" />
    </Suspense>
  );
}
