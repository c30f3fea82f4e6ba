import { type CheckoutStatus, CheckoutStatusEventSchema } from '@rayo/shared';
import { type NotificationHub, startNotificationHub } from '../../db/notification-hub.ts';
import { CHECKOUT_EVENTS_CHANNEL } from './checkouts.repo.ts';

/** Listeners get a status, or `null` after a reconnect when events may have been missed. */
export type CheckoutEventHub = NotificationHub<CheckoutStatus>;

type Log = { warn: (object: object, message: string) => void };

/** Relays checkout status events (`notifyCheckoutStatus`) from PostgreSQL to this process's SSE clients. */
export async function startCheckoutEventHub(connectionString: string, log: Log): Promise<CheckoutEventHub> {
  return startNotificationHub(
    connectionString,
    CHECKOUT_EVENTS_CHANNEL,
    (payload) => {
      const event = CheckoutStatusEventSchema.safeParse(payload);
      return event.success ? { id: event.data.id, value: event.data.status } : undefined;
    },
    log,
  );
}
