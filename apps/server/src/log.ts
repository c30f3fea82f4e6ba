import pino, { type DestinationStream, type Logger } from 'pino';
import type { Config } from './config.ts';
import { serializeRequest } from './http/request-log.ts';

/** Where the log goes: stdout unless a test takes it; `isTTY` says a person is reading it. */
export type LogOutput = DestinationStream & { isTTY?: boolean };

/**
 * The process log: one line a person can read (pino-pretty) when the output is a terminal, and a
 * JSON line for journald, Docker or a log shipper otherwise.
 */
export async function createLog(level: Config['logLevel'], output?: LogOutput): Promise<Logger> {
  const options = { level, serializers: { req: serializeRequest } };
  const tty = output ? output.isTTY === true : process.stdout.isTTY === true;
  if (!tty) return pino(options, output);
  // Loaded only for a terminal, so a production start does not pay for it.
  const { default: pretty } = await import('pino-pretty');
  return pino(
    options,
    pretty({
      // stdout's file descriptor with synchronous writes, so the last lines before an exit are not lost.
      destination: output ?? 1,
      sync: true,
      colorize: !output,
      translateTime: 'SYS:HH:MM:ss',
      ignore: 'pid,hostname',
    }),
  );
}
