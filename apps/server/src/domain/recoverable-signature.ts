import { secp256k1 } from '@noble/curves/secp256k1.js';

/**
 * secp256k1 ECDSA signatures with the id that recovers their public key, as BOLT 11 writes them:
 * 64 bytes r‖s (RFC 6979 nonce, low S) and a recovery id of 0–3.
 */
export type RecoverableSignature = { signature: Uint8Array; recoveryId: number };

/**
 * Signs with noble's pure JavaScript. Only the devnet node signs invoices (lnd or Core Lightning
 * sign in production), so no native or WebAssembly build ships for it (docs/decisions/0065-secp256k1-pure-javascript.md).
 */
export function signRecoverable(hash: Uint8Array, privateKey: Uint8Array): RecoverableSignature {
  // noble's "recovered" format puts the recovery id first: [id, r‖s].
  const recovered = secp256k1.sign(hash, privateKey, { prehash: false, format: 'recovered' });
  return { signature: recovered.subarray(1), recoveryId: recovered[0] as number };
}
