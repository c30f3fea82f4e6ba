import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createJsonShapeScanner } from './json-body.ts';

/** What the scanner finds wrong with `text`, fed in the pieces `cuts` makes of it. */
function jsonShapeProblem(
  text: string,
  maxDepth: number,
  maxContainers: number,
  cuts: number[] = [],
): string | undefined {
  const scanner = createJsonShapeScanner(maxDepth, maxContainers);
  const bytes = Buffer.from(text);
  const ends = [...new Set(cuts.map((cut) => cut % (bytes.length + 1)))].sort((a, b) => a - b);
  let start = 0;
  for (const end of [...ends, bytes.length]) {
    const problem = scanner.feed(bytes.subarray(start, end));
    if (problem) return problem;
    start = end;
  }
  return undefined;
}

/** How deeply objects and arrays nest in a parsed value, the slow and obvious way. */
function depthOf(value: unknown): number {
  if (typeof value !== 'object' || value === null) return 0;
  return 1 + Math.max(0, ...Object.values(value).map(depthOf));
}

/** How many objects and arrays a parsed value holds, itself included. */
function containersOf(value: unknown): number {
  if (typeof value !== 'object' || value === null) return 0;
  return 1 + Object.values(value).reduce<number>((sum, item) => sum + containersOf(item), 0);
}

const nestsDeeperThan = (text: string, limit: number, cuts: number[] = []) =>
  jsonShapeProblem(text, limit, Infinity, cuts) !== undefined;

describe('jsonShapeProblem', () => {
  it('reads the depth of any JSON text as parsing it would, strings with brackets and escapes included', () => {
    const text = fc.oneof(fc.string(), fc.constantFrom('[', ']', '{', '}', '"', '\\', '\\"', '"[', '\\\\'));
    const value = fc.letrec((tie) => ({
      node: fc.oneof(
        { depthSize: 'small', withCrossShrink: true },
        fc.oneof(text, fc.integer(), fc.constant(null)),
        fc.array(tie('node'), { maxLength: 3 }),
        fc.dictionary(text, tie('node'), { maxKeys: 3 }),
      ),
    })).node;
    fc.assert(
      fc.property(
        value,
        fc.nat({ max: 8 }),
        fc.nat({ max: 12 }),
        fc.array(fc.nat()),
        (parsed, limit, containers, cuts) => {
          // However the body is cut into chunks as it arrives.
          const text = JSON.stringify(parsed);
          expect(nestsDeeperThan(text, limit, cuts)).toBe(depthOf(parsed) > limit);
          const tooMany = jsonShapeProblem(text, Infinity, containers, cuts) !== undefined;
          expect(tooMany).toBe(containersOf(parsed) > containers);
        },
      ),
      { numRuns: 2000 },
    );
  });

  it('stops at the first level past the limit', () => {
    expect(nestsDeeperThan('['.repeat(33), 32)).toBe(true);
    expect(nestsDeeperThan(`${'['.repeat(32)}${']'.repeat(32)}`, 32)).toBe(false);
    expect(nestsDeeperThan('{"a":{"b":[{}]}}', 3)).toBe(true);
    expect(jsonShapeProblem(`[${'[],'.repeat(10_000)}0]`, 32, 10_000)).toBe(
      'The JSON body holds more than 10000 objects and arrays',
    );
  });
});
