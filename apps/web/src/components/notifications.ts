import type { NotificationData } from '@mantine/notifications';

let shownOnce = false;
const listeners = new Set<() => void>();

/**
 * Mantine's notifications, with their code loaded by the first one shown: a notification follows
 * something the user did, never a first screen, so the login page does without that code. The
 * container (`DeferredNotifications`) mounts at the same moment and shows them in order.
 */
export const notifications = {
  show(data: NotificationData): void {
    if (!shownOnce) {
      shownOnce = true;
      for (const listener of listeners) listener();
    }
    void import('@mantine/notifications').then((mantine) => mantine.notifications.show(data));
  },
  hide(id: string): void {
    void import('@mantine/notifications').then((mantine) => mantine.notifications.hide(id));
  },
};

export function subscribeToFirstNotification(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

export function notificationShown(): boolean {
  return shownOnce;
}
