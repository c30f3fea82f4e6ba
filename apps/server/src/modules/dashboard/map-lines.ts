import { Transform } from 'node:stream';
import { StringDecoder } from 'node:string_decoder';

/**
 * A stream that turns each line of its input (ended by "\n") into `mapLine`'s text, a chunk at
 * a time: a line cut by a chunk boundary waits for the rest of itself in the next chunk.
 */
export function mapLines(mapLine: (line: string) => string): Transform {
  const decoder = new StringDecoder('utf8');
  let partial = '';
  const mapText = (text: string) => {
    const lines = text.split('\n');
    partial = lines.pop() ?? '';
    // One join of the mapped lines makes one flat string, cheaper to encode than a chain of +=.
    return lines.map(mapLine).join('');
  };
  return new Transform({
    transform(chunk: Buffer, _encoding, done) {
      try {
        const out = mapText(partial + decoder.write(chunk));
        done(null, out === '' ? undefined : out);
      } catch (error) {
        done(error as Error);
      }
    },
    flush(done) {
      try {
        const rest = partial + decoder.end();
        done(null, rest === '' ? undefined : mapLine(rest));
      } catch (error) {
        done(error as Error);
      }
    },
  });
}
