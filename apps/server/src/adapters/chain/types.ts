import type { BitcoinNetwork } from '../../domain/bitcoin-address.ts';

/** One output of a transaction paying an address, as the chain reports it now. */
export type AddressOutput = {
  txid: string;
  vout: number;
  valueSats: bigint;
  /** Null while the transaction waits in the mempool. */
  blockHeight: number | null;
};

/** Raised when the chain source cannot be reached or answers something unexpected. */
export class ChainBackendError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'ChainBackendError';
  }
}

/**
 * What the checkout watcher reads from a Bitcoin chain (DESIGN §5): the tip and the outputs
 * paying an address. Confirmations of an output are `tip − blockHeight + 1`.
 */
export interface ChainBackend {
  /** `devnet` or `esplora`. */
  readonly name: string;
  /** The network its addresses belong to; devnet speaks regtest (`bcrt1…`). */
  readonly network: BitcoinNetwork;
  getTipHeight(): Promise<number>;
  /** Every output paying `address`, confirmed or in the mempool. */
  listAddressOutputs(address: string): Promise<AddressOutput[]>;
  /** The outputs paying `address` that nothing has spent yet, mempool spends included. */
  listAddressUtxos(address: string): Promise<AddressOutput[]>;
  /**
   * The fee rate (sat/vB, maybe fractional) expected to confirm within `targetBlocks`; null when
   * the chain source has no estimate (Esplora answers `{}` while its node cannot estimate).
   */
  estimateFeeRate(targetBlocks: number): Promise<number | null>;
  /** Hands a signed transaction (hex) to the network; answers its txid. */
  broadcastTransaction(rawHex: string): Promise<string>;
  /**
   * Where the chain has the transaction: null when it does not have it (never seen, or dropped
   * from the mempool), else its block (null in the mempool). "Not known" and "in the mempool" must
   * never be confused: a payout batch is recorded as sent on the second.
   */
  getTransactionStatus(txid: string): Promise<{ blockHeight: number | null } | null>;
  /** The transaction itself (raw hex), null when the chain does not have it. */
  getRawTransaction(txid: string): Promise<string | null>;
}

/** Confirmations of an output at the given tip: 0 in the mempool. */
export function confirmationsAt(tipHeight: number, blockHeight: number | null): number {
  return blockHeight === null ? 0 : Math.max(0, tipHeight - blockHeight + 1);
}
