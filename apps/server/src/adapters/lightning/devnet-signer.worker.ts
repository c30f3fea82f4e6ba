import { parentPort, workerData } from 'node:worker_threads';
import { type DevnetInvoiceRequest, type SignedDevnetInvoice, signDevnetInvoice } from './devnet-invoice.ts';

/** The devnet node's signing thread (devnet-signer.ts): signs each batch it is sent, in order. */
const nodeKey = (workerData as { nodeKey: Uint8Array }).nodeKey;

parentPort?.on('message', ({ id, requests }: { id: number; requests: DevnetInvoiceRequest[] }) => {
  // A request that fails here is answered null and signed again by the caller, which then throws
  // the error itself: errors do not cross threads with their class.
  const results: (SignedDevnetInvoice | null)[] = requests.map((request) => {
    try {
      return signDevnetInvoice(request, nodeKey);
    } catch {
      return null;
    }
  });
  parentPort?.postMessage({ id, results });
});
parentPort?.postMessage('ready');
