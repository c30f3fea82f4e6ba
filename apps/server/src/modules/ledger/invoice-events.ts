import { type InvoiceStatus, InvoiceStatusEventSchema } from '@rayo/shared';
import { type NotificationHub, startNotificationHub } from '../../db/notification-hub.ts';
import { INVOICE_EVENTS_CHANNEL } from './settlement.repo.ts';

/** Listeners get a status, or `null` after a reconnect when events may have been missed. */
export type InvoiceEventHub = NotificationHub<InvoiceStatus>;

type Log = { warn: (object: object, message: string) => void };

/** Relays invoice status events from PostgreSQL to this process's SSE clients. */
export async function startInvoiceEventHub(connectionString: string, log: Log): Promise<InvoiceEventHub> {
  return startNotificationHub(
    connectionString,
    INVOICE_EVENTS_CHANNEL,
    (payload) => {
      const event = InvoiceStatusEventSchema.safeParse(payload);
      return event.success ? { id: event.data.id, value: event.data.status } : undefined;
    },
    log,
  );
}
