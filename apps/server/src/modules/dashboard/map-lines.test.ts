import { Readable } from 'node:stream';
import { text } from 'node:stream/consumers';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { mapLines } from './map-lines.ts';

function mapped(chunks: Buffer[], mapLine = (line: string) => `[${line}]`): Promise<string> {
  return text(Readable.from(chunks).pipe(mapLines(mapLine)));
}

describe('mapLines', () => {
  it('maps every line, however the input is cut into chunks, multi-byte characters included', async () => {
    const input = Buffer.from('uno\nCafé ñandú\n\ntres\n');
    await fc.assert(
      fc.asyncProperty(fc.uniqueArray(fc.integer({ min: 1, max: input.length - 1 })), async (cuts) => {
        const bounds = [0, ...cuts.sort((a, b) => a - b), input.length];
        const chunks = bounds.slice(1).map((end, i) => input.subarray(bounds[i], end));
        expect(await mapped(chunks)).toBe('[uno][Café ñandú][][tres]');
      }),
    );
  });

  it('maps a last line without a line end', async () => {
    expect(await mapped([Buffer.from('a\nb')])).toBe('[a][b]');
  });

  it('fails the stream when a line cannot be mapped', async () => {
    const failing = mapped([Buffer.from('ok\nbad\n')], (line) => {
      if (line === 'bad') throw new Error('bad line');
      return line;
    });
    await expect(failing).rejects.toThrow('bad line');
  });
});
