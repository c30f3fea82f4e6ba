/**
 * Asks `probe` again every 100 ms until it gives something other than undefined or false, and
 * returns that; throws once `timeoutMs` has passed. Tests wait this way on what they can observe
 * (a row, a request a stand-in received, a stream's deliveries) instead of sleeping a fixed time.
 */
export async function waitFor<T>(probe: () => Promise<T | undefined> | T | undefined, timeoutMs = 15_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined && value !== false) return value;
    if (Date.now() > deadline) throw new Error('timed out waiting');
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}
