type Waiting<I, O> = { item: I; resolve: (result: O) => void; reject: (error: unknown) => void };

/**
 * Gathers the writes asked for while `maxInFlight` earlier ones are on their way into one call of
 * `write` (at most `maxBatch` items, answered in their order): under load one statement and one
 * commit carry many, while a write that finds a free slot goes at once.
 */
export function batchWrites<I, O>(
  write: (items: I[]) => Promise<O[]>,
  options: { maxBatch: number; maxInFlight: number },
): (item: I) => Promise<O> {
  const waiting: Waiting<I, O>[] = [];
  let inFlight = 0;
  const send = () => {
    while (inFlight < options.maxInFlight && waiting.length > 0) {
      const batch = waiting.splice(0, options.maxBatch);
      inFlight += 1;
      write(batch.map((entry) => entry.item))
        .then(
          (results) => {
            batch.forEach((entry, index) => {
              entry.resolve(results[index] as O);
            });
          },
          (error: unknown) => {
            for (const entry of batch) entry.reject(error);
          },
        )
        .finally(() => {
          inFlight -= 1;
          send();
        });
    }
  };
  return (item) =>
    new Promise<O>((resolve, reject) => {
      waiting.push({ item, resolve, reject });
      send();
    });
}
