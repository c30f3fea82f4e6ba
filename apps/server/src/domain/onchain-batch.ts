import { base64, hex } from '@scure/base';
import type { HDKey } from '@scure/bip32';
import { p2wpkh, selectUTXO, Transaction } from '@scure/btc-signer';
import type { BitcoinNetwork } from './bitcoin-address.ts';
import { addressNetwork } from './onchain-wallet.ts';
import { findBadSignature, type SpentOutput } from './p2wpkh-signature.ts';

/**
 * The on-chain payout batch (docs/decisions/0037-on-chain-payouts.md): every organization due gets
 * one output of one transaction spending the platform wallet's P2WPKH outputs.
 */

/** No output below this is made: 546 sats is the dust limit of the largest standard output (P2PKH). */
export const ONCHAIN_DUST_SATS = 546n;
/** Fee rates above this are taken for a broken estimate, and nothing is built with them. */
export const MAX_FEE_RATE_SAT_PER_VB = 1_000n;
/**
 * Every input's nSequence: below 0xfffffffe, so the batch signals that a fee bump may replace it
 * (BIP 125), and not a relative lock time (BIP 68 does not apply from 0x80000000 up).
 */
export const RBF_SEQUENCE = 0xfffffffd;

export type DueOrganization = { organizationId: string; destination: string; owedMsat: bigint };
export type Recipient = { organizationId: string; destination: string; sats: bigint };

/**
 * Whole sats per organization, rounded down: the wallet never pays more than it owes, and the
 * part below one sat stays with the platform. An organization whose whole sats are below the
 * minimum (never below dust) is left out; its shares wait for the next run.
 */
export function planRecipients(due: readonly DueOrganization[], minSats: bigint): Recipient[] {
  const floor = minSats > ONCHAIN_DUST_SATS ? minSats : ONCHAIN_DUST_SATS;
  return due
    .map((organization) => ({
      organizationId: organization.organizationId,
      destination: organization.destination,
      sats: organization.owedMsat / 1000n,
    }))
    .filter((recipient) => recipient.sats >= floor);
}

// The most a batch's bytes can weigh, in vB: the transaction's overhead, a P2WPKH input with its
// witness (BIP 141: 41 bytes plus a 108-byte witness at a quarter), and an output of the largest
// standard kind a recipient may use (P2TR or P2WSH, 43 vB; P2WPKH change is 31).
const TX_OVERHEAD_VB = 11n;
const P2WPKH_INPUT_VB = 68n;
const LARGEST_OUTPUT_VB = 43n;

/**
 * Which recipients the wallet can pay this run, taken in the order given (docs/decisions/0037-on-chain-payouts.md:
 * oldest debt first). One is taken when the coins cover everyone taken so far, it, and the most
 * fee such a transaction can cost at `feeRate` (every useful coin an input, every output and the
 * change of the largest kind). One that does not fit waits and the next is tried, so a debt the
 * wallet cannot cover does not hold back smaller ones behind it. Coins worth less than the fee of
 * spending them count for nothing.
 */
export function chooseRecipients(
  ordered: readonly Recipient[],
  coins: readonly { valueSats: bigint }[],
  feeRate: bigint,
): { paid: Recipient[]; waiting: Recipient[] } {
  const inputCost = P2WPKH_INPUT_VB * feeRate;
  const useful = coins.filter((coin) => coin.valueSats > inputCost);
  const held = useful.reduce((sum, coin) => sum + coin.valueSats, 0n);
  const inputsFee = (TX_OVERHEAD_VB + P2WPKH_INPUT_VB * BigInt(useful.length)) * feeRate;
  const paid: Recipient[] = [];
  const waiting: Recipient[] = [];
  let total = 0n;
  for (const recipient of ordered) {
    const outputsFee = LARGEST_OUTPUT_VB * BigInt(paid.length + 2) * feeRate;
    if (total + recipient.sats + inputsFee + outputsFee <= held) {
      paid.push(recipient);
      total += recipient.sats;
    } else {
      waiting.push(recipient);
    }
  }
  return { paid, waiting };
}

/** A backend's estimate (sat/vB, maybe fractional) as the whole sat/vB we pay: rounded up, at least 1. */
export function feeRateFromEstimate(estimate: number): bigint {
  if (!Number.isFinite(estimate) || estimate <= 0) throw new RangeError(`not a fee rate: ${estimate}`);
  const rate = BigInt(Math.ceil(estimate));
  if (rate > MAX_FEE_RATE_SAT_PER_VB) throw new RangeError(`fee rate ${rate} sat/vB is above the ceiling`);
  return rate;
}

/** Each payout's part of the batch's network fee: equal parts, the first ones taking the remainder. */
export function splitFee(feeSats: bigint, count: number): bigint[] {
  if (count < 1) return [];
  const each = feeSats / BigInt(count);
  const left = Number(feeSats % BigInt(count));
  return Array.from({ length: count }, (_, index) => each + (index < left ? 1n : 0n));
}

/** An unspent output of the platform wallet, and where its key sits below the account key. */
export type WalletUtxo = {
  txid: string;
  vout: number;
  valueSats: bigint;
  address: string;
  change: 0 | 1;
  index: number;
};

/** The account key's origin, as a PSBT names it for the signing wallet (BIP 174 bip32 derivation). */
export type KeyOrigin = { fingerprint: number; path: number[] };

export type BuiltBatch = {
  txid: string;
  /** Base64 BIP 174, unsigned. */
  psbt: string;
  feeSats: bigint;
  vsize: number;
  inputs: WalletUtxo[];
  /** The change output's address, or null when the change was below dust and went to the fee. */
  changeAddress: string | null;
  changeSats: bigint;
};

export class InsufficientFundsError extends Error {}

/** Where a wallet key sits for the signing wallet: the account's origin, then `change/index`. */
function keyOrigin(origin: KeyOrigin, change: 0 | 1, index: number): KeyOrigin {
  return { fingerprint: origin.fingerprint, path: [...origin.path, change, index] };
}

/** A payment a batch makes: to an address, or to an output script as an earlier transaction has it. */
export type BatchOutput = { address: string; amount: bigint } | { script: Uint8Array; amount: bigint };

/**
 * Picks wallet outputs for `outputs` plus the fee at `feeRate`, always spending `required` (a fee
 * bump's coins), with change (when above dust) to the account's change address `1/changeIndex`.
 * Outputs stay in the order given, change last, so output i pays recipient i. Every input signals
 * replaceability, and the PSBT names the keys of the inputs and of the change (BIP 174 bip32
 * derivations), so the operator's wallet signs the one and recognises the other as its own.
 */
export function assembleBatch(input: {
  account: HDKey;
  origin: KeyOrigin;
  utxos: readonly WalletUtxo[];
  required?: readonly WalletUtxo[];
  outputs: readonly BatchOutput[];
  feeRate: bigint;
  changeIndex: number;
  network: BitcoinNetwork;
}): BuiltBatch {
  const network = addressNetwork(input.network);
  const toInput = (utxo: WalletUtxo) => {
    const publicKey = input.account.deriveChild(utxo.change).deriveChild(utxo.index).publicKey as Uint8Array;
    return {
      txid: hex.decode(utxo.txid),
      index: utxo.vout,
      sequence: RBF_SEQUENCE,
      witnessUtxo: { script: p2wpkh(publicKey, network).script, amount: utxo.valueSats },
      bip32Derivation: [[publicKey, keyOrigin(input.origin, utxo.change, utxo.index)]] as [Uint8Array, KeyOrigin][],
    };
  };
  const required = input.required ?? [];
  const changeKey = input.account.deriveChild(1).deriveChild(input.changeIndex).publicKey as Uint8Array;
  const changeAddress = p2wpkh(changeKey, network).address as string;
  const selected = selectUTXO(input.utxos.map(toInput), [...input.outputs], 'default', {
    feePerByte: input.feeRate,
    changeAddress,
    network,
    ...(required.length > 0 && { requiredInputs: required.map(toInput) }),
    // Change below the dust limit (selectUTXO's default: 182 bytes at 3 sat/B, i.e. 546 sats)
    // is left to the fee rather than made into an output nobody could spend.
    createTx: true,
    bip69: false,
  });
  if (!selected?.tx || selected.fee === undefined) {
    throw new InsufficientFundsError('The platform wallet cannot pay these outputs and their fee');
  }
  const tx = selected.tx;
  const used = new Set<string>();
  for (let index = 0; index < tx.inputsLength; index += 1) {
    const spent = tx.getInput(index);
    used.add(`${hex.encode(spent.txid as Uint8Array)}:${spent.index}`);
  }
  const last = tx.outputsLength - 1;
  const changeSats = selected.change ? (tx.getOutput(last).amount ?? 0n) : 0n;
  if (selected.change) {
    tx.updateOutput(last, { bip32Derivation: [[changeKey, keyOrigin(input.origin, 1, input.changeIndex)]] });
  }
  return {
    txid: tx.id,
    psbt: base64.encode(tx.toPSBT()),
    feeSats: selected.fee,
    vsize: Math.ceil(selected.weight / 4),
    inputs: [...required, ...input.utxos].filter((utxo) => used.has(`${utxo.txid}:${utxo.vout}`)),
    changeAddress: selected.change ? changeAddress : null,
    changeSats,
  };
}

/** A batch paying `recipients` (output i pays recipient i) from the wallet's `utxos`; see `assembleBatch`. */
export function buildBatch(input: {
  account: HDKey;
  origin: KeyOrigin;
  utxos: readonly WalletUtxo[];
  recipients: readonly Recipient[];
  feeRate: bigint;
  changeIndex: number;
  network: BitcoinNetwork;
}): BuiltBatch {
  return assembleBatch({
    ...input,
    outputs: input.recipients.map((recipient) => ({ address: recipient.destination, amount: recipient.sats })),
  });
}

/**
 * The PSBT with each input's whole previous transaction (BIP 174 non_witness_utxo), which
 * hardware wallets ask for before signing a segwit v0 input, since a witness UTXO alone lets a
 * host lie about the amount across two signings. `previous` maps txid to raw hex; each must hash
 * to its input's txid and agree with its witness UTXO, or this throws.
 */
export function withPreviousTransactions(psbt: string, previous: ReadonlyMap<string, string>): string {
  const tx = Transaction.fromPSBT(base64.decode(psbt));
  for (let index = 0; index < tx.inputsLength; index += 1) {
    const txid = hex.encode(tx.getInput(index).txid as Uint8Array);
    const raw = previous.get(txid);
    if (raw === undefined) throw new Error(`no previous transaction for input ${index} (${txid})`);
    tx.updateInput(index, { nonWitnessUtxo: hex.decode(raw) });
  }
  return base64.encode(tx.toPSBT());
}

/** Signs every input with the account's private keys and answers the raw transaction (hex). */
export function signBatch(psbt: string, account: HDKey, inputs: readonly WalletUtxo[]): string {
  const tx = Transaction.fromPSBT(base64.decode(psbt));
  for (let index = 0; index < tx.inputsLength; index += 1) {
    const spent = tx.getInput(index);
    const utxo = inputs.find(
      (candidate) => candidate.txid === hex.encode(spent.txid as Uint8Array) && candidate.vout === spent.index,
    );
    if (!utxo) throw new Error(`input ${index} is not one of the batch's wallet outputs`);
    const key = account.deriveChild(utxo.change).deriveChild(utxo.index).privateKey;
    if (!key) throw new Error('the account key cannot sign');
    tx.signIdx(key, index);
  }
  tx.finalize();
  return hex.encode(tx.extract());
}

export class SignedBatchError extends Error {}

/**
 * What an operator hands back for a batch (`psbt`, as built): its signed PSBT (base64) or the
 * signed raw transaction (hex). It must be the very transaction built, the txid proving it
 * (segwit: signing does not change it), and every input must carry a valid signature. Wallets
 * (Electrum, Sparrow, Bitcoin Core's `walletprocesspsbt`, hardware wallets) usually hand back a
 * PSBT already finalized (BIP 174 Input Finalizer: final_scriptwitness set, partial signatures
 * cleared); inputs still holding only partial signatures are finalized here. Answers the raw
 * transaction to broadcast.
 */
export function acceptSignedBatch(psbt: string, submitted: string): string {
  const built = Transaction.fromPSBT(base64.decode(psbt));
  const spent: SpentOutput[] = Array.from({ length: built.inputsLength }, (_, index) => {
    const utxo = built.getInput(index).witnessUtxo;
    if (!utxo) throw new Error(`the batch's input ${index} has no witness UTXO`);
    return { script: utxo.script, amount: utxo.amount };
  });
  const text = submitted.trim();
  if (/^[0-9a-fA-F]+$/.test(text)) {
    let tx: Transaction;
    try {
      tx = Transaction.fromRaw(hex.decode(text.toLowerCase()));
    } catch {
      throw new SignedBatchError('This is neither a PSBT (base64) nor a raw transaction (hex)');
    }
    checkSigned(tx, built.id, spent);
    return text.toLowerCase();
  }
  let tx: Transaction;
  try {
    tx = Transaction.fromPSBT(base64.decode(text));
  } catch {
    throw new SignedBatchError('This is neither a PSBT (base64) nor a raw transaction (hex)');
  }
  if (tx.id !== built.id) throw new SignedBatchError('This is not the transaction of this batch');
  for (let index = 0; index < tx.inputsLength; index += 1) {
    const input = tx.getInput(index);
    if (input.finalScriptWitness !== undefined) continue;
    // A wallet may leave out the UTXO data it was given; the batch's own is the one signed for.
    if (input.witnessUtxo === undefined) tx.updateInput(index, { witnessUtxo: spent[index] }, true);
    try {
      tx.finalizeIdx(index);
    } catch {
      throw new SignedBatchError('The transaction is not signed yet');
    }
  }
  checkSigned(tx, built.id, spent);
  return hex.encode(tx.extract());
}

function checkSigned(tx: Transaction, txid: string, spent: SpentOutput[]): void {
  if (tx.id !== txid) throw new SignedBatchError('This is not the transaction of this batch');
  const bad = findBadSignature(tx, spent);
  if (bad === null) return;
  throw new SignedBatchError(
    bad.problem === 'key'
      ? 'The transaction is not signed yet'
      : `The signature of input ${bad.index + 1} does not match this transaction`,
  );
}
