import { base64 } from '@scure/base';
import type { HDKey } from '@scure/bip32';
import { Transaction } from '@scure/btc-signer';
import type { BitcoinNetwork } from './bitcoin-address.ts';
import {
  assembleBatch,
  type BuiltBatch,
  type KeyOrigin,
  MAX_FEE_RATE_SAT_PER_VB,
  type WalletUtxo,
} from './onchain-batch.ts';

/**
 * Bitcoin Core's default incremental relay fee, 1 sat/vB (policy/policy.h): a replacement pays
 * the replaced fee plus this much of its own size (BIP 125 rule 4).
 */
const INCREMENTAL_RELAY_SAT_PER_VB = 1n;
/** A signed transaction may weigh a little more than its estimate (a 72-byte signature, not 71). */
const SIZE_MARGIN_VB = 2n;

/**
 * The replacement of a batch's transaction at a higher fee (BIP 125, as Bitcoin Core relays it;
 * test/functional/feature_rbf.py): the same payments from the same coins, and more of the
 * wallet's confirmed `spare` coins when the change cannot pay the difference. It pays `feeRate`,
 * or the lowest whole rate Core takes in the old one's place if that is more: a fee rate above
 * the replaced one's, and a fee of at least the replaced fee plus 1 sat/vB of its own size.
 * Throws InsufficientFundsError when the wallet cannot pay it.
 */
export function buildReplacement(input: {
  account: HDKey;
  origin: KeyOrigin;
  network: BitcoinNetwork;
  /** The transaction replaced, as built (base64 PSBT); its first `recipients` outputs are payments. */
  psbt: string;
  recipients: number;
  inputs: readonly WalletUtxo[];
  spare: readonly WalletUtxo[];
  feeSats: bigint;
  vsize: number;
  feeRate: bigint;
  changeIndex: number;
}): BuiltBatch {
  const replaced = Transaction.fromPSBT(base64.decode(input.psbt));
  const outputs = Array.from({ length: input.recipients }, (_, index) => {
    const output = replaced.getOutput(index);
    return { script: output.script as Uint8Array, amount: output.amount as bigint };
  });
  const oldVsize = BigInt(input.vsize);
  const floor = input.feeSats / oldVsize + 1n;
  for (let rate = input.feeRate > floor ? input.feeRate : floor; rate <= MAX_FEE_RATE_SAT_PER_VB; rate += 1n) {
    const built = assembleBatch({
      account: input.account,
      origin: input.origin,
      network: input.network,
      utxos: input.spare,
      required: input.inputs,
      outputs,
      feeRate: rate,
      changeIndex: input.changeIndex,
    });
    const vsize = BigInt(built.vsize) + SIZE_MARGIN_VB;
    const higherRate = built.feeSats * oldVsize > input.feeSats * vsize;
    const paysRelay = built.feeSats >= input.feeSats + vsize * INCREMENTAL_RELAY_SAT_PER_VB;
    if (higherRate && paysRelay) return built;
  }
  throw new RangeError(`no fee rate up to ${MAX_FEE_RATE_SAT_PER_VB} sat/vB replaces this transaction`);
}
