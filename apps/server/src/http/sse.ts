import type { FastifyReply, FastifyRequest } from 'fastify';

export type EventStream = { send: (event: string, data: unknown) => void; onClose: (cleanup: () => void) => void };

const HEARTBEAT_MS = 15_000;

/**
 * Turns the reply into a Server-Sent Events stream. A comment line every 15 s keeps proxies
 * from closing an idle connection; the stream ends when the client goes away.
 */
export function openEventStream(request: FastifyRequest, reply: FastifyReply): EventStream {
  reply.hijack();
  const raw = reply.raw;
  raw.writeHead(200, {
    'content-type': 'text/event-stream; charset=utf-8',
    'cache-control': 'no-cache, no-transform',
    connection: 'keep-alive',
    'x-accel-buffering': 'no',
  });
  raw.write('retry: 2000\n\n');
  const cleanups: Array<() => void> = [];
  const heartbeat = setInterval(() => raw.write(': ping\n\n'), HEARTBEAT_MS);
  request.raw.on('close', () => {
    clearInterval(heartbeat);
    for (const cleanup of cleanups) cleanup();
  });
  return {
    send: (event, data) => {
      if (!raw.writableEnded) raw.write(`event: ${event}\ndata: ${JSON.stringify(data)}\n\n`);
    },
    onClose: (cleanup) => cleanups.push(cleanup),
  };
}
