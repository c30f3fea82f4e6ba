import { createHash } from 'node:crypto';
import { type InvoiceLookup, LightningBackendError, type PaymentResult, type Settlement } from './types.ts';

/** lnd's REST JSON: int64s arrive as strings, bytes as base64, and hashes in payments as hex. */
export type Json = Record<string, unknown>;

/** One message of a streaming call: `{"result": …}` or `{"error": {code, message}}`. */
export function streamResult(message: unknown, what: string): Json {
  const envelope = (typeof message === 'object' && message !== null ? message : {}) as Json;
  if (envelope.error !== undefined && envelope.error !== null) {
    throw new LightningBackendError(`lnd ${what} reported an error: ${errorMessage(JSON.stringify(envelope.error))}`);
  }
  if (typeof envelope.result !== 'object' || envelope.result === null) {
    throw new LightningBackendError(`lnd ${what} sent a message without a result`);
  }
  return envelope.result as Json;
}

export function toSettlement(invoice: Json): Settlement {
  return {
    paymentHash: hashFromBase64(invoice.r_hash, 'r_hash'),
    settleIndex: int64(invoice.settle_index, 'settle_index'),
    amountPaidMsat: int64(invoice.amt_paid_msat, 'amt_paid_msat'),
    settledAt: new Date(Number(int64(invoice.settle_date, 'settle_date')) * 1000),
  };
}

/**
 * lnd cancels an open invoice once it expires, so CANCELED past the expiry reads as expired and
 * CANCELED before it as cancelled. ACCEPTED (a held HTLC) is not money received yet: still open.
 */
export function toLookup(invoice: Json, now: number): InvoiceLookup {
  const paymentHash = hashFromBase64(invoice.r_hash, 'r_hash');
  const expiresAtMs = Number(int64(invoice.creation_date, 'creation_date') + int64(invoice.expiry, 'expiry')) * 1000;
  switch (invoice.state) {
    case 'SETTLED':
      return { paymentHash, state: 'settled', settlement: toSettlement(invoice) };
    case 'OPEN':
      return { paymentHash, state: expiresAtMs <= now ? 'expired' : 'open', settlement: null };
    case 'ACCEPTED':
      return { paymentHash, state: 'open', settlement: null };
    case 'CANCELED':
      return { paymentHash, state: expiresAtMs <= now ? 'expired' : 'cancelled', settlement: null };
    default:
      throw new LightningBackendError(`lnd answered an unknown invoice state: ${String(invoice.state)}`);
  }
}

/** Router payments carry the hash and preimage as hex strings (lnrpc.Payment), unlike invoices. */
export function toPaymentResult(payment: Json): PaymentResult {
  const paymentHash = checkHash(text(payment.payment_hash, 'payment_hash'));
  const preimage = text(payment.payment_preimage, 'payment_preimage').toLowerCase();
  if (
    !/^[0-9a-f]{64}$/.test(preimage) ||
    createHash('sha256').update(Buffer.from(preimage, 'hex')).digest('hex') !== paymentHash
  ) {
    throw new LightningBackendError('lnd reported a payment whose preimage does not match its hash');
  }
  return { paymentHash, preimage, feeMsat: int64(payment.fee_msat, 'fee_msat') };
}

/** The `message` of lnd's `{code, message, details}` (or `{"error": …}` for streams), else the raw text. */
export function errorMessage(answer: string): string {
  try {
    const parsed = JSON.parse(answer) as Json;
    const status = (typeof parsed.error === 'object' && parsed.error !== null ? parsed.error : parsed) as Json;
    if (typeof status.message === 'string') return status.message;
  } catch {
    // Not JSON: a proxy's HTML page or plain text, shown shortened below.
  }
  return answer.slice(0, 200) || '(empty body)';
}

/** int64/uint64 fields arrive as JSON strings. */
export function int64(value: unknown, field: string): bigint {
  if (typeof value === 'string' && /^-?\d+$/.test(value)) return BigInt(value);
  if (typeof value === 'number' && Number.isSafeInteger(value)) return BigInt(value);
  throw new LightningBackendError(`lnd answered an invalid ${field}`);
}

export function text(value: unknown, field: string): string {
  if (typeof value === 'string' && value !== '') return value;
  throw new LightningBackendError(`lnd answered without ${field}`);
}

export function hashFromBase64(value: unknown, field: string): string {
  const bytes = Buffer.from(text(value, field), 'base64');
  if (bytes.length !== 32) throw new LightningBackendError(`lnd answered an invalid ${field}`);
  return bytes.toString('hex');
}

export function checkHash(hash: string): string {
  if (!/^[0-9a-fA-F]{64}$/.test(hash)) throw new LightningBackendError('A payment hash must be 64 hex characters');
  return hash.toLowerCase();
}
