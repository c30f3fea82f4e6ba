import { EventSource } from 'undici';

/** Reads a Server-Sent Events stream over real HTTP and hands out its events in order. */
export async function openSse(url: string, headers: Record<string, string> = {}) {
  const controller = new AbortController();
  const response = await fetch(url, {
    signal: controller.signal,
    headers: { accept: 'text/event-stream', ...headers },
  });
  if (!response.ok || !response.body) throw new Error(`SSE ${url} answered ${response.status}`);
  const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
  const queue: Array<{ event: string; data: unknown }> = [];
  let buffer = '';
  const waiters: Array<() => void> = [];
  let ended = false;

  void (async () => {
    try {
      for (;;) {
        const { value, done } = await reader.read();
        if (done) {
          ended = true;
          for (const wake of waiters.splice(0)) wake();
          return;
        }
        buffer += value;
        let end = buffer.indexOf('\n\n');
        while (end >= 0) {
          const block = buffer.slice(0, end);
          buffer = buffer.slice(end + 2);
          const event = /^event: (.*)$/m.exec(block)?.[1];
          const data = /^data: (.*)$/m.exec(block)?.[1];
          if (event && data) queue.push({ event, data: JSON.parse(data) });
          for (const wake of waiters.splice(0)) wake();
          end = buffer.indexOf('\n\n');
        }
      }
    } catch {
      // Aborted by close().
    }
  })();

  return {
    /** The next event, waiting up to `timeoutMs` for it. */
    async next(timeoutMs = 5000): Promise<{ event: string; data: unknown }> {
      const deadline = Date.now() + timeoutMs;
      while (queue.length === 0) {
        if (Date.now() > deadline) throw new Error(`no SSE event within ${timeoutMs} ms`);
        await new Promise<void>((resolve) => {
          waiters.push(resolve);
          setTimeout(resolve, 50);
        });
      }
      return queue.shift() as { event: string; data: unknown };
    },
    /** Waits up to `timeoutMs` for the server to end the stream, after the events it sent. */
    async end(timeoutMs = 15_000): Promise<void> {
      const deadline = Date.now() + timeoutMs;
      while (!ended) {
        if (Date.now() > deadline) throw new Error(`the server did not end the stream within ${timeoutMs} ms`);
        await new Promise<void>((resolve) => {
          waiters.push(resolve);
          setTimeout(resolve, 50);
        });
      }
    },
    close: () => controller.abort(),
  };
}

export type StatusWatcher = {
  /** Every status the watcher was told, in order, over all its connections. */
  statuses: string[];
  /** How many times a stream opened: more than once means it reconnected. */
  opens: () => number;
  /** How many times the stream failed for good and a new one was opened, as the web app does. */
  reopened: () => number;
  /** Resolves once `final` was told. */
  told: Promise<void>;
  close: () => void;
};

/**
 * Follows a status stream as the web app does (apps/web/src/api/invoices.ts): undici's EventSource,
 * a WHATWG implementation nobody here wrote, reconnects by itself after a dropped or ended stream
 * and after the server's `retry` wait; a stream refused outright is opened anew. Rayo sends the
 * current status on every connection, so a reconnected watcher learns what it missed.
 */
export function watchStatus(url: string, final: string): StatusWatcher {
  const statuses: string[] = [];
  let opens = 0;
  let reopened = 0;
  let stopped = false;
  let source: EventSource | undefined;
  let timer: NodeJS.Timeout | undefined;
  let resolveTold: () => void = () => {};
  const told = new Promise<void>((resolve) => {
    resolveTold = resolve;
  });
  const open = () => {
    const current = new EventSource(url);
    source = current;
    current.addEventListener('open', () => {
      opens += 1;
    });
    current.addEventListener('status', (event) => {
      const { status } = JSON.parse((event as MessageEvent).data) as { status: string };
      statuses.push(status);
      if (status === final) resolveTold();
    });
    current.addEventListener('error', () => {
      if (current.readyState !== EventSource.CLOSED || stopped) return;
      reopened += 1;
      timer = setTimeout(open, 1000);
    });
  };
  open();
  return {
    statuses,
    opens: () => opens,
    reopened: () => reopened,
    told,
    close: () => {
      stopped = true;
      clearTimeout(timer);
      source?.close();
    },
  };
}
