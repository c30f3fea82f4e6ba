import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { eventStreamsOpen } from '../metrics.ts';
import { type ConcurrencyLimits, createConcurrencyLimit } from './concurrency.ts';
import { clientOf } from './rate-limit.ts';

export type EventStream = {
  send: (event: string, data: unknown) => void;
  /**
   * Ends the stream from this side, once what it follows is final: at once, or `afterMs` later
   * (an expiry, after which a payment already on its way may still arrive).
   */
  end: (afterMs?: number) => void;
  onClose: (cleanup: () => void) => void;
};

/**
 * Each open stream holds a socket, a subscription and a timer for as long as its page stays open,
 * and the route is public, so one client must not open enough of them to starve the others. A
 * checkout page keeps one stream open; 20 leave room for a shop's devices behind one address.
 * From 1,000 open, an address holding its fair share is refused, so that 50 addresses holding 20
 * each do not shut out every other payer; 2,000 is the most a process holds.
 */
export const STREAM_LIMITS: ConcurrencyLimits = { perKey: 20, fairShareFrom: 1000, total: 2000 };
const streams = createConcurrencyLimit(STREAM_LIMITS, {
  perKey: 'Too many open event streams from your address',
  total: 'Too many open event streams, try again shortly',
});

const HEARTBEAT_MS = 15_000;
/** The wait EventSource is told to keep before reconnecting; a stream ended by a shutdown spreads it. */
const RECONNECT_MS = 2000;
const SHUTDOWN_RECONNECT_SPREAD_MS = 3000;

/** The open streams of each HTTP server, ended when it shuts down. */
const openStreams = new WeakMap<object, Set<() => void>>();

/**
 * Ends every open event stream when the app closes, telling each client to reconnect after a
 * random moment of the next few seconds: EventSource then reconnects through the load balancer to
 * another process, and reads the status afresh (a rolling restart loses no watcher, and the others
 * are not hit by every client of this one at once). Without it a stream would hold `app.close()`.
 */
export function registerEventStreamDrain(app: FastifyInstance): void {
  app.addHook('preClose', async () => {
    for (const end of openStreams.get(app.server) ?? []) end();
  });
}

/**
 * Turns the reply into a Server-Sent Events stream, or throws when the caps above are reached (before
 * anything is written, so the error handler answers). A comment line every 15 s keeps proxies from
 * closing an idle connection; the stream ends when the client goes away, or when its route ends it
 * because what it follows is final.
 */
export function openEventStream(request: FastifyRequest, reply: FastifyReply): EventStream {
  const release = streams.admit(clientOf(request));
  reply.hijack();
  const raw = reply.raw;
  raw.writeHead(200, {
    'content-type': 'text/event-stream; charset=utf-8',
    'cache-control': 'no-cache, no-transform',
    connection: 'keep-alive',
    'x-accel-buffering': 'no',
  });
  raw.write(`retry: ${RECONNECT_MS}\n\n`);
  eventStreamsOpen.inc();
  const serverStreams = openStreams.get(request.server.server) ?? new Set<() => void>();
  openStreams.set(request.server.server, serverStreams);
  const endForShutdown = () => {
    const wait = RECONNECT_MS + Math.floor(Math.random() * SHUTDOWN_RECONNECT_SPREAD_MS);
    if (!raw.writableEnded) raw.end(`retry: ${wait}\n\n`);
  };
  serverStreams.add(endForShutdown);
  const cleanups: Array<() => void> = [
    release,
    () => serverStreams.delete(endForShutdown),
    () => eventStreamsOpen.dec(),
  ];
  const heartbeat = setInterval(() => raw.write(': ping\n\n'), HEARTBEAT_MS);
  let closed = false;
  const close = () => {
    closed = true;
    clearInterval(heartbeat);
    for (const cleanup of cleanups.splice(0)) cleanup();
  };
  request.raw.on('close', close);
  // The client may have gone while the route read the invoice, before anyone listened.
  if (request.raw.socket?.destroyed) close();
  return {
    send: (event, data) => {
      if (!raw.writableEnded) raw.write(`event: ${event}\ndata: ${JSON.stringify(data)}\n\n`);
    },
    end: (afterMs = 0) => {
      const finish = () => {
        if (!raw.writableEnded) raw.end();
        close();
      };
      if (afterMs <= 0) return finish();
      const timer = setTimeout(finish, afterMs);
      cleanups.push(() => clearTimeout(timer));
    },
    onClose: (cleanup) => {
      if (closed) cleanup();
      else cleanups.push(cleanup);
    },
  };
}
