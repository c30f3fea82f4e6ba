import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { createLog } from './log.ts';

async function firstLine(stream: PassThrough): Promise<string> {
  const chunks: string[] = [];
  for await (const chunk of stream) {
    chunks.push(String(chunk));
    if (chunks.join('').includes('\n')) break;
  }
  return chunks.join('');
}

describe('createLog', () => {
  it('writes a line a person reads to a terminal', async () => {
    const terminal = Object.assign(new PassThrough(), { isTTY: true });
    const log = await createLog('info', terminal);
    log.info({ lightning: 'devnet' }, 'payments ready');
    const line = await firstLine(terminal);
    expect(line).toMatch(/^\[\d\d:\d\d:\d\d\] INFO: payments ready\n/);
    expect(() => JSON.parse(line)).toThrow();
  });

  it('writes JSON lines anywhere else', async () => {
    const lines: string[] = [];
    const log = await createLog('info', { write: (line: string) => void lines.push(line) });
    log.info({ lightning: 'devnet' }, 'payments ready');
    expect(JSON.parse(lines[0] as string)).toMatchObject({ level: 30, msg: 'payments ready', lightning: 'devnet' });
  });
});
