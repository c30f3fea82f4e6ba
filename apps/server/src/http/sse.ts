import type { FastifyReply, FastifyRequest } from 'fastify';
import { type ConcurrencyLimits, createConcurrencyLimit } from './concurrency.ts';
import { clientOf } from './rate-limit.ts';

export type EventStream = { send: (event: string, data: unknown) => void; onClose: (cleanup: () => void) => void };

/**
 * Each open stream holds a socket, a subscription and a timer for as long as its page stays open,
 * and the route is public, so one client must not open enough of them to starve the others. A
 * checkout page keeps one stream open; 20 leave room for a shop's devices behind one address.
 */
export const STREAM_LIMITS: ConcurrencyLimits = { perKey: 20, total: 1000 };
const streams = createConcurrencyLimit(STREAM_LIMITS, {
  perKey: 'Too many open event streams from your address',
  total: 'Too many open event streams, try again shortly',
});

const HEARTBEAT_MS = 15_000;

/**
 * Turns the reply into a Server-Sent Events stream, or throws when the caps above are reached (before
 * anything is written, so the error handler answers). A comment line every 15 s keeps proxies from
 * closing an idle connection; the stream ends when the client goes away.
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
  raw.write('retry: 2000\n\n');
  const cleanups: Array<() => void> = [release];
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
    onClose: (cleanup) => {
      if (closed) cleanup();
      else cleanups.push(cleanup);
    },
  };
}
