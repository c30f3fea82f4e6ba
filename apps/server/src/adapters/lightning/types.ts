import type { PaymentStatus } from '../../domain/payout-state.ts';

/** A settlement the Lightning backend reports, in the order of its settle index. */
export type Settlement = {
  paymentHash: string;
  /** Strictly increasing per backend: lnd `settle_index`, CLN `pay_index`, devnet's own counter. */
  settleIndex: bigint;
  amountPaidMsat: bigint;
  settledAt: Date;
};

export type CreatedInvoice = {
  paymentHash: string;
  paymentRequest: string;
  expiresAt: Date;
  /**
   * Only from a node that keeps its invoices in Rayo's own database (devnet), when asked with
   * `storeWithCaller`: its record of the invoice, not stored yet. The caller stores it in the
   * statement that records Rayo's invoice, so that issuing an invoice is one write, not two.
   */
  nodeRecord?: NodeInvoiceRecord;
};

/** The devnet node's record of an invoice it signed: what paying it later needs. */
export type NodeInvoiceRecord = {
  paymentHash: string;
  preimage: string;
  paymentRequest: string;
  amountMsat: bigint;
  expiresAt: Date;
};

export type InvoiceLookup = {
  paymentHash: string;
  state: 'open' | 'settled' | 'expired' | 'cancelled';
  settlement: Settlement | null;
};

export type DecodedInvoice = {
  paymentHash: string;
  amountMsat: bigint | null;
  description: string | null;
  expiresAt: Date;
  payee: string;
};

export type PaymentResult = { paymentHash: string; preimage: string; feeMsat: bigint };

/** What the node knows of its own payment of a hash: `unknown` when it never started one. */
export type PaymentLookup = PaymentStatus;

/** `lookupInvoices` of a node that looks invoices up by one hash only. */
export async function lookupInvoicesOneByOne(
  backend: Pick<LightningBackend, 'lookupInvoice'>,
  paymentHashes: readonly string[],
): Promise<InvoiceLookup[]> {
  const lookups: InvoiceLookup[] = [];
  for (const paymentHash of paymentHashes) lookups.push(await backend.lookupInvoice(paymentHash));
  return lookups;
}

/** What an invoice is asked for with (`LightningBackend.createInvoice`). */
export type InvoiceRequest = {
  amountMsat: bigint;
  description: string;
  expirySeconds: number;
  hashDescription?: boolean;
  storeWithCaller?: boolean;
};

/**
 * A BOLT11 field holds at most 1023 five-bit words, so a description (`d`) at most 639 bytes of
 * UTF-8: lnd's `zpay32` ("data length too big to fit within 10 bits") and Core Lightning's `invoice`
 * ("Descriptions greater than … bytes not yet supported") refuse a longer one.
 */
export const MAX_DESCRIPTION_BYTES = 639;

/**
 * Whether an invoice commits to its description by SHA-256 alone (BOLT11 `h`): when asked
 * (LNURL-pay metadata), and when the text is too long for a `d` field, counted in UTF-8 bytes.
 */
export function describesByHash(request: Pick<InvoiceRequest, 'description' | 'hashDescription'>): boolean {
  return request.hashDescription === true || Buffer.byteLength(request.description, 'utf8') > MAX_DESCRIPTION_BYTES;
}

/** Raised by adapters when the node cannot be reached or answers with an error. */
export class LightningBackendError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'LightningBackendError';
  }
}

/**
 * The one interface every Lightning node sits behind (DESIGN §5). All amounts are msat.
 */
export interface LightningBackend {
  /** A stable name used as the key of the stored settle cursor, e.g. `devnet`, `lnd`, `cln`. */
  readonly name: string;
  /** `lnbcrt` for devnet/regtest, `lnbc` for mainnet, … */
  readonly network: 'devnet' | 'regtest' | 'testnet' | 'signet' | 'mainnet';

  /**
   * With `hashDescription`, the invoice carries only the SHA-256 of `description`'s UTF-8 bytes
   * (BOLT11 `h`), as LNURL-pay needs for its metadata string (LUD-06); otherwise the text itself.
   */
  createInvoice(input: InvoiceRequest): Promise<CreatedInvoice>;

  lookupInvoice(paymentHash: string): Promise<InvoiceLookup>;

  /** `lookupInvoice` for many, in their order; a node that can answer them in one request does. */
  lookupInvoices(paymentHashes: readonly string[]): Promise<InvoiceLookup[]>;

  /**
   * Delivers every settlement with a settle index greater than `afterIndex`, first those that
   * happened while nobody listened, then new ones as they happen, until `signal` aborts.
   * Reconnects by itself after a dropped connection, resuming from the last index it delivered.
   * `onSettlement` is awaited before the next settlement is delivered.
   */
  subscribeSettlements(
    afterIndex: bigint,
    onSettlement: (settlement: Settlement) => Promise<void>,
    signal: AbortSignal,
  ): Promise<void>;

  /**
   * `description` is the text an invoice with only a description hash (BOLT11 `h`) commits to,
   * e.g. the LNURL metadata of a Lightning address: Core Lightning's `pay` requires it for such an
   * invoice and checks it against the hash. Backends that do not need it ignore it.
   */
  payInvoice(
    paymentRequest: string,
    options: { maxFeeMsat: bigint; timeoutSeconds: number; description?: string },
  ): Promise<PaymentResult>;

  /**
   * Asks the node about a payment it was (perhaps) told to make, so that a payout whose outcome
   * was lost (a crash, a cut stream) is never paid a second time. A succeeded payment's preimage
   * is checked against the hash.
   */
  lookupPayment(paymentHash: string): Promise<PaymentLookup>;

  decodeInvoice(paymentRequest: string): Promise<DecodedInvoice>;

  /** Lets go of what the backend runs in this process (devnet: its signing thread), at shutdown. */
  close?(): Promise<void>;
}
