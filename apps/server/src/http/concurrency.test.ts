import { AppError, type ErrorCode } from '@rayo/shared';
import { describe, expect, it } from 'vitest';
import { createConcurrencyLimit } from './concurrency.ts';

/** A call that stays in flight until `finish` is called. */
function pending() {
  let finish = () => {};
  const done = new Promise<void>((resolve) => {
    finish = resolve;
  });
  return { run: () => done, finish };
}

async function refusal(call: Promise<unknown>): Promise<ErrorCode> {
  const error = await call.then(
    () => expect.fail('the call was let through'),
    (reason: unknown) => reason,
  );
  expect(error).toBeInstanceOf(AppError);
  return (error as AppError).code;
}

const refusals = { perKey: 'too many from you', total: 'too many in all' };

function admitRefusal(admit: () => unknown): ErrorCode {
  try {
    admit();
  } catch (error) {
    expect(error).toBeInstanceOf(AppError);
    return (error as AppError).code;
  }
  return expect.fail('the caller was let in');
}

describe('createConcurrencyLimit', () => {
  it('admits until a cap, and a place released twice (a close seen twice) frees one place only', () => {
    const { admit } = createConcurrencyLimit({ perKey: 2, total: 3 }, refusals);
    const a1 = admit('a');
    admit('a');
    const b1 = admit('b');
    expect(admitRefusal(() => admit('a'))).toBe('TooManyRequests');
    expect(admitRefusal(() => admit('c'))).toBe('ServiceUnavailable');

    a1();
    a1();
    admit('c');
    expect(admitRefusal(() => admit('d'))).toBe('ServiceUnavailable');
    b1();
    admit('a');
    expect(admitRefusal(() => admit('a'))).toBe('TooManyRequests');
  });

  it('refuses a key past its cap with 429 and the process past its total with 503, until slots free up', async () => {
    const { withSlot } = createConcurrencyLimit({ perKey: 2, total: 3 }, refusals);
    const a1 = pending();
    const a2 = pending();
    const b1 = pending();
    const calls = [withSlot('a', a1.run), withSlot('a', a2.run), withSlot('b', b1.run)];

    expect(await refusal(withSlot('a', async () => 'a3'))).toBe('TooManyRequests');
    expect(await refusal(withSlot('c', async () => 'c1'))).toBe('ServiceUnavailable');

    a1.finish();
    await calls[0];
    expect(await withSlot('c', async () => 'c1')).toBe('c1');
    expect(await withSlot('a', async () => 'a3')).toBe('a3');

    a2.finish();
    b1.finish();
    await Promise.all(calls);
  });

  it('frees the slot of a call that fails', async () => {
    const { withSlot } = createConcurrencyLimit({ perKey: 1, total: 1 }, refusals);
    await expect(withSlot('a', () => Promise.reject(new Error('remote down')))).rejects.toThrow('remote down');
    expect(await withSlot('a', async () => 'again')).toBe('again');
  });
});

describe('a fair share of the total', () => {
  it('refuses keys holding their share once the total passes the mark, and still lets a newcomer in', () => {
    const { admit } = createConcurrencyLimit({ perKey: 5, fairShareFrom: 10, total: 20 }, refusals);
    // Two keys hold 5 each: the mark is reached.
    for (const key of ['a', 'b']) for (let n = 0; n < 5; n += 1) admit(key);
    expect(admitRefusal(() => admit('a'))).toBe('TooManyRequests');
    // A newcomer's share is 10 / 3 = 3 places.
    const c = [admit('c'), admit('c'), admit('c')];
    expect(admitRefusal(() => admit('c'))).toBe('TooManyRequests');
    // A fourth key's share is 10 / 4 = 2.
    admit('d');
    admit('d');
    expect(admitRefusal(() => admit('d'))).toBe('TooManyRequests');
    // With c gone, three keys share the mark again: d gets a third place, and no fourth.
    for (const release of c) release();
    admit('d');
    expect(admitRefusal(() => admit('d'))).toBe('TooManyRequests');
  });

  it('lets every newcomer in with one place, up to the total', () => {
    const { admit } = createConcurrencyLimit({ perKey: 5, fairShareFrom: 10, total: 12 }, refusals);
    for (const key of ['a', 'b']) for (let n = 0; n < 5; n += 1) admit(key);
    admit('c');
    admit('d');
    expect(admitRefusal(() => admit('e'))).toBe('ServiceUnavailable');
  });
});
