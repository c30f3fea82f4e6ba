import { createHash, randomBytes } from 'node:crypto';
import { encodeBolt11 } from '../../domain/bolt11.ts';
import { describesByHash, type InvoiceRequest } from './types.ts';

/** The part of a devnet invoice's prefix after `ln`: regtest. */
export const DEVNET_CURRENCY = 'bcrt';
const MIN_FINAL_CLTV_EXPIRY = 80;

/** What the signer needs of an invoice request; where the record is stored is the node's business. */
export type DevnetInvoiceRequest = Omit<InvoiceRequest, 'storeWithCaller'>;

export type SignedDevnetInvoice = {
  paymentHash: string;
  preimage: string;
  paymentRequest: string;
  /** Unix seconds, as written in the invoice. */
  timestamp: number;
};

function sha256Hex(data: Uint8Array | string): string {
  return createHash('sha256').update(data).digest('hex');
}

/**
 * Draws a devnet invoice's preimage and payment secret and signs the BOLT11 invoice with the
 * node's key. Nothing is stored: the caller keeps the preimage with the invoice.
 */
export function signDevnetInvoice(request: DevnetInvoiceRequest, nodeKey: Uint8Array): SignedDevnetInvoice {
  // One draw for both secrets: each call into the generator costs more than its 32 bytes.
  const secrets = randomBytes(64);
  const preimage = secrets.subarray(0, 32);
  const paymentHash = sha256Hex(preimage);
  const timestamp = Math.floor(Date.now() / 1000);
  const { description } = request;
  const describe = describesByHash(request) ? { descriptionHash: sha256Hex(description) } : { description };
  const paymentRequest = encodeBolt11(
    {
      currency: DEVNET_CURRENCY,
      amountMsat: request.amountMsat,
      timestamp,
      paymentHash,
      paymentSecret: secrets.toString('hex', 32, 64),
      ...describe,
      expirySeconds: request.expirySeconds,
      minFinalCltvExpiry: MIN_FINAL_CLTV_EXPIRY,
    },
    nodeKey,
  );
  return { paymentHash, preimage: preimage.toString('hex'), paymentRequest, timestamp };
}
