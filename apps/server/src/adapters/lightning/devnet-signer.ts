import { Worker } from 'node:worker_threads';
import { batchWrites } from '../../db/batch-writes.ts';
import { type DevnetInvoiceRequest, type SignedDevnetInvoice, signDevnetInvoice } from './devnet-invoice.ts';

export type DevnetSigner = {
  sign(request: DevnetInvoiceRequest): Promise<SignedDevnetInvoice>;
  /** Whether the thread came to take invoices (false: it was lost first); they are signed here until then. */
  threadReady: Promise<boolean>;
  /** Stops the thread; what it was still signing, and every later invoice, is signed by the caller's. */
  close(): Promise<void>;
};

/** Null where the thread did not sign: the caller's thread signs that one. */
type SignedBatch = (SignedDevnetInvoice | null)[];

/**
 * Signs the devnet node's invoices on a thread of their own, so that the event loop, which every
 * request of the process shares, does not (docs/benchmarks.md: signing was the largest single
 * cost of a charge there). Charges that arrive while the thread is busy go to it together.
 *
 * A thread that cannot start or dies costs no charge: what it was given, and every invoice after,
 * is signed on the caller's thread. It is not started again, as it only runs pure code and dying
 * means something is badly wrong; `onLost` hears why.
 */
export function createDevnetSigner(nodeKey: Uint8Array, onLost: (error: Error) => void): DevnetSigner {
  const inFlight = new Map<number, { size: number; resolve: (results: SignedBatch) => void }>();
  let nextId = 0;
  let thread: Worker | undefined;
  // Until the thread has loaded its modules, the caller's signs: the first charges after a start
  // do not wait for it.
  let ready = false;
  const { promise: threadReady, resolve: settleReady } = Promise.withResolvers<boolean>();

  const letGo = () => {
    thread = undefined;
    settleReady(false);
    for (const [id, batch] of inFlight) {
      inFlight.delete(id);
      batch.resolve(new Array(batch.size).fill(null));
    }
  };
  try {
    thread = new Worker(new URL('./devnet-signer.worker.ts', import.meta.url), { workerData: { nodeKey } });
    thread.on('message', (message: 'ready' | { id: number; results: SignedBatch }) => {
      if (message === 'ready') {
        ready = true;
        settleReady(true);
        return;
      }
      const { id, results } = message;
      inFlight.get(id)?.resolve(results);
      inFlight.delete(id);
      if (inFlight.size === 0) thread?.unref();
    });
    thread.on('error', (error) => {
      if (thread) onLost(error);
      letGo();
    });
    thread.on('exit', (code) => {
      if (thread) onLost(new Error(`the devnet signing thread exited with code ${code}`));
      letGo();
    });
    // An idle signing thread must not keep the process alive, one signing must (listeners ref it).
    thread.unref();
  } catch (error) {
    onLost(error as Error);
    letGo();
  }

  const signInThread = batchWrites(
    (requests: DevnetInvoiceRequest[]) =>
      new Promise<SignedBatch>((resolve) => {
        if (!thread) return resolve(new Array(requests.length).fill(null));
        const id = nextId++;
        if (inFlight.size === 0) thread.ref();
        inFlight.set(id, { size: requests.length, resolve });
        thread.postMessage({ id, requests });
      }),
    { maxBatch: 16, maxInFlight: 2 },
  );

  return {
    threadReady,
    async sign(request) {
      const signed = thread && ready && (await signInThread(request));
      return signed || signDevnetInvoice(request, nodeKey);
    },
    async close() {
      const closing = thread;
      letGo();
      await closing?.terminate();
    },
  };
}
