import { randomBytes } from 'node:crypto';
import { address, crypto, type Network, payments, script, Transaction } from 'bitcoinjs-lib';
import * as ecc from 'tiny-secp256k1';

/**
 * The chain behind the Esplora stand-in: real Bitcoin transactions, decoded and checked with
 * bitcoinjs-lib and tiny-secp256k1 (code independent of the @scure/btc-signer that builds Rayo's),
 * a mempool, and blocks mined on demand. Its node refuses what Bitcoin Core's `sendrawtransaction`
 * refuses for the transactions Rayo makes (P2WPKH spends), with Core's codes and reasons.
 */

/** One transaction the chain knows, mined or in the mempool. */
export type ChainTx = {
  txid: string;
  tx: Transaction;
  hex: string;
  /** Sats the inputs hold beyond the outputs; 0 for a funding (coinbase) transaction. */
  fee: number;
  vsize: number;
  blockHeight: number | null;
  blockHash: string | null;
  blockTime: number | null;
  /** Order of arrival, for newest-first histories. */
  seq: number;
};

export type Output = { script: Uint8Array; value: bigint; address: string | undefined };

/** A refusal as Core words it in the JSON-RPC error of `sendrawtransaction`. */
export class NodeRefusal extends Error {
  readonly code: number;
  constructor(code: number, message: string) {
    super(message);
    this.code = code;
  }
}

// Bitcoin Core's defaults: 1 sat/vB minimum relay and incremental relay fee (policy/policy.h).
const MIN_RELAY_SAT_PER_VB = 1;
const INCREMENTAL_RELAY_SAT_PER_VB = 1;

function txidOf(hash: Uint8Array): string {
  return Buffer.from(hash).reverse().toString('hex');
}

function outpoint(txid: string, vout: number): string {
  return `${txid}:${vout}`;
}

export class EsploraChain {
  private readonly txs = new Map<string, ChainTx>();
  /** Which transaction spends each outpoint (mined or mempool). */
  private readonly spentBy = new Map<string, string>();
  private readonly blocks: string[] = [];
  private seq = 0;

  readonly network: Network;

  constructor(network: Network, startHeight: number) {
    this.network = network;
    for (let height = 0; height <= startHeight; height += 1) this.blocks.push(randomBytes(32).toString('hex'));
  }

  tipHeight(): number {
    return this.blocks.length - 1;
  }

  tipHash(): string {
    return this.blocks[this.blocks.length - 1] as string;
  }

  get(txid: string): ChainTx | undefined {
    return this.txs.get(txid);
  }

  all(): ChainTx[] {
    return [...this.txs.values()];
  }

  mempool(): ChainTx[] {
    return this.all().filter((entry) => entry.blockHeight === null);
  }

  outputs(entry: ChainTx): Output[] {
    return entry.tx.outs.map((out) => ({ script: out.script, value: out.value, address: this.addressOf(out.script) }));
  }

  addressOf(outputScript: Uint8Array): string | undefined {
    try {
      return address.fromOutputScript(outputScript, this.network);
    } catch {
      return undefined;
    }
  }

  spender(txid: string, vout: number): string | undefined {
    return this.spentBy.get(outpoint(txid, vout));
  }

  /** Someone's wallet pays `sats` to `to`: a coinbase-shaped transaction, in the mempool or mined at once. */
  fund(to: string, sats: bigint, confirmed: boolean): string {
    const tx = new Transaction();
    tx.version = 2;
    // The input's script holds random bytes, so every funding transaction has its own txid.
    tx.addInput(new Uint8Array(32), 0xffffffff, 0xffffffff, randomBytes(16));
    tx.addOutput(address.toOutputScript(to, this.network), sats);
    const entry = this.entry(tx, 0);
    this.txs.set(entry.txid, entry);
    if (confirmed) this.mineBlock([entry]);
    return entry.txid;
  }

  /** Mines `count` blocks; the first takes the whole mempool. Returns the new tip height. */
  mine(count: number): number {
    for (let n = 0; n < count; n += 1) this.mineBlock(n === 0 ? this.mempool() : []);
    return this.tipHeight();
  }

  private mineBlock(included: ChainTx[]): void {
    const hash = randomBytes(32).toString('hex');
    this.blocks.push(hash);
    for (const entry of included) {
      entry.blockHeight = this.tipHeight();
      entry.blockHash = hash;
      entry.blockTime = Math.floor(Date.now() / 1000);
    }
  }

  /**
   * `sendrawtransaction`: answers the txid, or throws a NodeRefusal. A transaction the mempool has
   * already is accepted again (src/node/transaction.cpp BroadcastTransaction); one mined is not.
   */
  accept(hex: string): string {
    let tx: Transaction;
    try {
      tx = Transaction.fromHex(hex);
    } catch {
      // src/rpc/mempool.cpp sendrawtransaction: DecodeHexTx fails.
      throw new NodeRefusal(-22, 'TX decode failed. Make sure the tx has at least one input.');
    }
    const txid = tx.getId();
    const known = this.txs.get(txid);
    if (known?.blockHeight === null) return txid;
    // src/node/transaction.cpp: an output of the transaction is in the UTXO set already.
    if (known) throw new NodeRefusal(-27, 'Transaction outputs already in utxo set');
    if (tx.isCoinbase()) throw new NodeRefusal(-26, 'coinbase');
    let inputSats = 0n;
    const conflicts = new Set<string>();
    for (const [index, input] of tx.ins.entries()) {
      const parent = this.txs.get(txidOf(input.hash));
      const prevout = parent?.tx.outs[input.index];
      if (!parent || !prevout) throw new NodeRefusal(-25, 'bad-txns-inputs-missingorspent');
      const spender = this.spentBy.get(outpoint(parent.txid, input.index));
      if (spender !== undefined) {
        if (this.txs.get(spender)?.blockHeight !== null) throw new NodeRefusal(-25, 'bad-txns-inputs-missingorspent');
        conflicts.add(spender);
      }
      this.checkSignature(tx, index, prevout.script, prevout.value);
      inputSats += prevout.value;
    }
    const outputSats = tx.outs.reduce((sum, out) => sum + out.value, 0n);
    // src/consensus/tx_verify.cpp CheckTxInputs.
    if (outputSats > inputSats) throw new NodeRefusal(-26, 'bad-txns-in-belowout');
    const fee = Number(inputSats - outputSats);
    const vsize = tx.virtualSize();
    // src/validation.cpp PreChecks: "min relay fee not met, <fee> < <minimum>".
    if (fee < vsize * MIN_RELAY_SAT_PER_VB) {
      throw new NodeRefusal(-26, `min relay fee not met, ${fee} < ${vsize * MIN_RELAY_SAT_PER_VB}`);
    }
    if (conflicts.size > 0) this.checkReplacement(tx, txid, fee, vsize, conflicts);
    for (const conflict of conflicts) this.evict(conflict);
    this.txs.set(txid, this.entry(tx, fee));
    for (const input of tx.ins) this.spentBy.set(outpoint(txidOf(input.hash), input.index), txid);
    return txid;
  }

  /**
   * BIP 125 as Core applies it with full RBF (v28 default, test/functional/feature_rbf.py): the
   * replacement adds no unconfirmed input, pays a higher fee rate and at least the replaced fees
   * plus the incremental relay fee on its own size.
   */
  private checkReplacement(tx: Transaction, txid: string, fee: number, vsize: number, conflicts: Set<string>) {
    const replaced = [...conflicts].map((id) => this.txs.get(id) as ChainTx);
    const spentBefore = new Set(replaced.flatMap((entry) => entry.tx.ins.map((input) => txidOf(input.hash))));
    for (const input of tx.ins) {
      const parent = this.txs.get(txidOf(input.hash)) as ChainTx;
      if (parent.blockHeight === null && !spentBefore.has(parent.txid)) {
        throw new NodeRefusal(-26, `replacement-adds-unconfirmed, replacement ${txid} adds unconfirmed input`);
      }
    }
    const replacedFee = replaced.reduce((sum, entry) => sum + entry.fee, 0);
    for (const entry of replaced) {
      if (fee * entry.vsize <= entry.fee * vsize) {
        throw new NodeRefusal(-26, `insufficient fee, rejecting replacement ${txid}; new feerate too low`);
      }
    }
    if (fee < replacedFee + vsize * INCREMENTAL_RELAY_SAT_PER_VB) {
      throw new NodeRefusal(
        -26,
        `insufficient fee, rejecting replacement ${txid}, not enough additional fees to relay`,
      );
    }
  }

  /** Drops a mempool transaction and whatever spends its outputs. */
  private evict(txid: string): void {
    const entry = this.txs.get(txid);
    if (!entry || entry.blockHeight !== null) return;
    this.txs.delete(txid);
    for (const input of entry.tx.ins) this.spentBy.delete(outpoint(txidOf(input.hash), input.index));
    for (let vout = 0; vout < entry.tx.outs.length; vout += 1) {
      const child = this.spentBy.get(outpoint(txid, vout));
      if (child) this.evict(child);
    }
  }

  /**
   * A P2WPKH input must carry [signature, public key] whose key hashes to the program and whose
   * signature covers the BIP 143 digest; anything else fails the script check (src/validation.cpp
   * CheckInputScripts: "mandatory-script-verify-flag-failed (…)").
   */
  private checkSignature(tx: Transaction, index: number, prevoutScript: Uint8Array, value: bigint): void {
    const program = payments.p2wpkh({ output: prevoutScript, network: this.network }).hash;
    if (!program) throw new NodeRefusal(-26, 'the stand-in spends P2WPKH outputs only');
    const [signature, publicKey] = tx.ins[index]?.witness ?? [];
    if (!signature || !publicKey || Buffer.compare(crypto.hash160(publicKey), program) !== 0) {
      throw new NodeRefusal(-26, 'mandatory-script-verify-flag-failed (Witness program hash mismatch)');
    }
    const decoded = script.signature.decode(signature);
    const scriptCode = payments.p2pkh({ hash: program }).output as Uint8Array;
    const digest = tx.hashForWitnessV0(index, scriptCode, value, decoded.hashType);
    if (!ecc.verify(digest, publicKey, decoded.signature)) {
      throw new NodeRefusal(
        -26,
        'mandatory-script-verify-flag-failed (Signature must be zero for failed CHECK(MULTI)SIG operation)',
      );
    }
  }

  private entry(tx: Transaction, fee: number): ChainTx {
    this.seq += 1;
    return {
      txid: tx.getId(),
      tx,
      hex: tx.toHex(),
      fee,
      vsize: tx.virtualSize(),
      blockHeight: null,
      blockHash: null,
      blockTime: null,
      seq: this.seq,
    };
  }
}
