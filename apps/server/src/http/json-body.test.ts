import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { jsonShapeProblem } from './json-body.ts';

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

const nestsDeeperThan = (text: string, limit: number) => jsonShapeProblem(text, limit, Infinity) !== undefined;

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
      fc.property(value, fc.nat({ max: 8 }), fc.nat({ max: 12 }), (parsed, limit, containers) => {
        const text = JSON.stringify(parsed);
        expect(nestsDeeperThan(text, limit)).toBe(depthOf(parsed) > limit);
        const tooMany = jsonShapeProblem(text, Infinity, containers) !== undefined;
        expect(tooMany).toBe(containersOf(parsed) > containers);
      }),
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
