/** Reads a Server-Sent Events stream over real HTTP and hands out its events in order. */
export async function openSse(url: string) {
  const controller = new AbortController();
  const response = await fetch(url, { signal: controller.signal, headers: { accept: 'text/event-stream' } });
  if (!response.ok || !response.body) throw new Error(`SSE ${url} answered ${response.status}`);
  const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
  const queue: Array<{ event: string; data: unknown }> = [];
  let buffer = '';
  const waiters: Array<() => void> = [];

  void (async () => {
    try {
      for (;;) {
        const { value, done } = await reader.read();
        if (done) return;
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
    close: () => controller.abort(),
  };
}
