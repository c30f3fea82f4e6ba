import net, { type AddressInfo } from 'node:net';
import type { App } from '../src/http/app-type.ts';

export type RawAnswer = { status: number; headers: Record<string, string>; body: string };

/** The first whole HTTP answer in `bytes`, or undefined while there is none. */
function parseAnswer(bytes: Buffer): RawAnswer | undefined {
  const text = bytes.toString('latin1');
  const split = text.indexOf('\r\n\r\n');
  if (split < 0) return undefined;
  const [statusLine = '', ...lines] = text.slice(0, split).split('\r\n');
  const headers = Object.fromEntries(
    lines.map((line) => [line.slice(0, line.indexOf(':')).toLowerCase(), line.slice(line.indexOf(':') + 1).trim()]),
  );
  const body = text.slice(split + 4);
  const length = Number(headers['content-length']);
  if (Number.isNaN(length) || body.length < length) return undefined;
  return {
    status: Number(statusLine.split(' ')[1]),
    headers,
    body: Buffer.from(body.slice(0, length), 'latin1').toString(),
  };
}

/**
 * A connection to a listening app that writes whatever bytes it is given, as no HTTP client
 * library would. `answer` settles with the first whole answer, or undefined when the server
 * closes without one; `closed` when the connection is gone.
 */
export function openRawConnection(app: App) {
  const { port } = app.server.address() as AddressInfo;
  const socket = net.connect({ host: '127.0.0.1', port });
  const chunks: Buffer[] = [];
  let settle: (answer: RawAnswer | undefined) => void = () => {};
  const answer = new Promise<RawAnswer | undefined>((resolve) => {
    settle = resolve;
  });
  const closed = new Promise<void>((resolve) => socket.once('close', () => resolve()));
  socket.on('data', (chunk) => {
    chunks.push(chunk);
    const parsed = parseAnswer(Buffer.concat(chunks));
    if (parsed) settle(parsed);
  });
  socket.on('close', () => settle(parseAnswer(Buffer.concat(chunks))));
  // A reset after the answer is the server closing; what it said is still in `chunks`.
  socket.on('error', () => {});
  const connected = new Promise<void>((resolve) => socket.once('connect', () => resolve()));
  return {
    connected,
    answer,
    closed,
    write: (bytes: string | Buffer) => socket.write(bytes),
    end: () => socket.end(),
    destroy: () => socket.destroy(),
  };
}

/**
 * Writes `bytes` on a fresh connection (then ends the sending side when `end` is set), and reads
 * until the server answers once or closes; undefined when it closed without a word. Fails after
 * 15 s of neither, so that a connection the server forgets shows as a failure, not a hang.
 */
export async function rawExchange(app: App, bytes: string | Buffer, end: boolean): Promise<RawAnswer | undefined> {
  const connection = openRawConnection(app);
  connection.write(bytes);
  if (end) connection.end();
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error('no answer and no close within 15 s')), 15_000);
  });
  try {
    return await Promise.race([connection.answer, timeout]);
  } finally {
    clearTimeout(timer);
    connection.destroy();
  }
}
