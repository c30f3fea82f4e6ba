import type { Clock } from '../src/domain/clock.ts';

/** A clock that stands still until the test moves it, so fixed rate-limit windows never roll over mid-test. */
export type TestClock = Clock & { advance: (ms: number) => void };

export function createTestClock(start = new Date()): TestClock {
  let now = start.getTime();
  const clock = () => new Date(now);
  clock.advance = (ms: number) => {
    now += ms;
  };
  return clock;
}
