import { secp256k1 } from '@noble/curves/secp256k1.js';
import { hex } from '@scure/base';
import { OutScript, p2wpkh, type Transaction } from '@scure/btc-signer';

/** SIGHASH_ALL: the signature covers every input and output, so nothing can be changed after. */
const SIGHASH_ALL = 1;

export type SpentOutput = { script: Uint8Array; amount: bigint };

export type SignatureProblem = {
  index: number;
  /** `key`: no witness, or its key is not the output's; `signature`: the signature does not verify. */
  problem: 'key' | 'signature';
};

/**
 * The first input whose witness does not spend its P2WPKH output (BIP 141: [signature, public
 * key], the key hashing to the output's program; BIP 143: an ECDSA signature with SIGHASH_ALL
 * over the segwit digest), or null when every input does.
 */
export function findBadSignature(tx: Transaction, spent: readonly SpentOutput[]): SignatureProblem | null {
  for (const [index, output] of spent.entries()) {
    const witness = tx.getInput(index).finalScriptWitness ?? [];
    const [signature, publicKey] = witness;
    if (witness.length !== 2 || !signature || !publicKey) return { index, problem: 'key' };
    let keyScript: Uint8Array;
    try {
      keyScript = p2wpkh(publicKey).script;
    } catch {
      return { index, problem: 'key' };
    }
    if (hex.encode(keyScript) !== hex.encode(output.script)) return { index, problem: 'key' };
    const hashType = signature[signature.length - 1];
    if (hashType !== SIGHASH_ALL) return { index, problem: 'signature' };
    const scriptCode = OutScript.encode({ type: 'pkh', hash: keyScript.subarray(2) });
    const digest = tx.preimageWitnessV0(index, scriptCode, hashType, output.amount);
    let valid: boolean;
    try {
      valid = secp256k1.verify(signature.subarray(0, -1), digest, publicKey, { prehash: false, format: 'der' });
    } catch {
      valid = false;
    }
    if (!valid) return { index, problem: 'signature' };
  }
  return null;
}
