import { type InvoiceStatus, InvoiceStatusEventSchema } from '@rayo/shared';
import pg from 'pg';
import { INVOICE_EVENTS_CHANNEL } from './invoices.repo.ts';

/** Called with a status, or with `null` after a reconnect when events may have been missed. */
export type InvoiceListener = (status: InvoiceStatus | null) => void;

export type InvoiceEventHub = {
  subscribe(invoiceId: string, listener: InvoiceListener): () => void;
  close(): Promise<void>;
};

type Log = { warn: (object: object, message: string) => void };

const RECONNECT_DELAY_MS = 1000;

/**
 * Relays invoice status events from PostgreSQL to this process's SSE clients. Every server
 * process runs one, so whichever process records a settlement, every watcher hears of it.
 */
export async function startInvoiceEventHub(connectionString: string, log: Log): Promise<InvoiceEventHub> {
  const listeners = new Map<string, Set<InvoiceListener>>();
  let client: pg.Client | null = null;
  let closed = false;
  let reconnectTimer: NodeJS.Timeout | undefined;

  const emit = (invoiceId: string, status: InvoiceStatus | null) => {
    for (const listener of listeners.get(invoiceId) ?? []) listener(status);
  };

  const connect = async (): Promise<void> => {
    const next = new pg.Client({ connectionString });
    next.on('notification', (message) => {
      const event = InvoiceStatusEventSchema.safeParse(JSON.parse(message.payload ?? 'null'));
      if (event.success) emit(event.data.id, event.data.status);
    });
    const retry = (error?: Error) => {
      if (closed || client !== next) return;
      client = null;
      if (error) log.warn({ err: error }, 'invoice event connection lost; reconnecting');
      next.end().catch(() => {});
      reconnectTimer = setTimeout(() => {
        connect().catch((err: Error) => retry(err));
      }, RECONNECT_DELAY_MS);
    };
    next.on('error', retry);
    next.on('end', () => retry());
    client = next;
    await next.connect();
    await next.query(`LISTEN ${INVOICE_EVENTS_CHANNEL}`);
    // Whatever happened while we were away, watchers re-read their invoice.
    for (const invoiceId of listeners.keys()) emit(invoiceId, null);
  };

  await connect();

  return {
    subscribe(invoiceId, listener) {
      const set = listeners.get(invoiceId) ?? new Set<InvoiceListener>();
      set.add(listener);
      listeners.set(invoiceId, set);
      return () => {
        set.delete(listener);
        if (set.size === 0) listeners.delete(invoiceId);
      };
    },
    async close() {
      closed = true;
      clearTimeout(reconnectTimer);
      await client?.end().catch(() => {});
      client = null;
    },
  };
}
