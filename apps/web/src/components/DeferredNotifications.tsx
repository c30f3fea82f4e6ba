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
      {/* At the top (SPEC §8), on the right: every page's title is on the left, where a centred message covered it. */}
      <Notifications position="top-right" />
    </Suspense>
  );
}
