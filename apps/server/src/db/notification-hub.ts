import pg from 'pg';

/** Called with a value, or with `null` after a reconnect when notifications may have been missed. */
export type NotificationListener<T> = (value: T | null) => void;

export type NotificationHub<T> = {
  subscribe(id: string, listener: NotificationListener<T>): () => void;
  close(): Promise<void>;
};

type Log = { warn: (object: object, message: string) => void };

const RECONNECT_DELAY_MS = 1000;

/**
 * Relays one PostgreSQL notification channel to this process's listeners, keyed by the id each
 * payload names. Every server process runs one per channel, so whichever process commits a
 * change, every watcher hears of it. `parse` turns a JSON payload into its id and value, or
 * undefined for a payload it does not know.
 */
export async function startNotificationHub<T>(
  connectionString: string,
  channel: string,
  parse: (payload: unknown) => { id: string; value: T } | undefined,
  log: Log,
): Promise<NotificationHub<T>> {
  const listeners = new Map<string, Set<NotificationListener<T>>>();
  let client: pg.Client | null = null;
  let closed = false;
  let reconnectTimer: NodeJS.Timeout | undefined;

  const emit = (id: string, value: T | null) => {
    for (const listener of listeners.get(id) ?? []) listener(value);
  };

  const connect = async (): Promise<void> => {
    const next = new pg.Client({ connectionString });
    next.on('notification', (message) => {
      const event = parse(JSON.parse(message.payload ?? 'null'));
      if (event) emit(event.id, event.value);
    });
    const retry = (error?: Error) => {
      if (closed || client !== next) return;
      client = null;
      if (error) log.warn({ err: error, channel }, 'event relay lost its PostgreSQL connection; reconnecting');
      next.end().catch(() => {});
      reconnectTimer = setTimeout(() => {
        connect().catch((err: Error) => retry(err));
      }, RECONNECT_DELAY_MS);
    };
    next.on('error', retry);
    next.on('end', () => retry());
    client = next;
    await next.connect();
    await next.query(`LISTEN ${channel}`);
    // Whatever happened while we were away, watchers read their state again.
    for (const id of listeners.keys()) emit(id, null);
  };

  await connect();

  return {
    subscribe(id, listener) {
      const set = listeners.get(id) ?? new Set<NotificationListener<T>>();
      set.add(listener);
      listeners.set(id, set);
      return () => {
        set.delete(listener);
        if (set.size === 0) listeners.delete(id);
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
