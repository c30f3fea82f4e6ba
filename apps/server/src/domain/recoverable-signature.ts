import { createRequire } from 'node:module';
import { signRecoverable as signRecoverableInWasm } from 'tiny-secp256k1';

/**
 * secp256k1 ECDSA signatures with the id that recovers their public key, as BOLT 11 writes them:
 * 64 bytes r‖s (RFC 6979 nonce, low S) and a recovery id of 0–3.
 */
export type RecoverableSignature = { signature: Uint8Array; recoveryId: number };
export type RecoverableSigner = (hash: Uint8Array, privateKey: Uint8Array) => RecoverableSignature;

/** libsecp256k1 compiled to WebAssembly: runs everywhere Node does. */
export const signInWebAssembly: RecoverableSigner = (hash, privateKey) => {
  const { signature, recoveryId } = signRecoverableInWasm(hash, privateKey);
  return { signature, recoveryId };
};

/**
 * libsecp256k1 compiled for this machine, from the builds the `secp256k1` package ships
 * (linux-x64, darwin-arm64, win32-x64): about 2.5 times faster than WebAssembly
 * (docs/decisions/0039-invoice-issuing.md). Undefined where none loads. Its `bindings` entry is required because the
 * package's main entry would fall back to a JavaScript signer of its own instead of failing.
 */
export const signNatively: RecoverableSigner | undefined = (() => {
  try {
    const native = createRequire(import.meta.url)('secp256k1/bindings') as typeof import('secp256k1');
    return (hash: Uint8Array, privateKey: Uint8Array) => {
      const { signature, recid } = native.ecdsaSign(hash, privateKey);
      return { signature, recoveryId: recid };
    };
  } catch {
    return undefined;
  }
})();

export const signRecoverable: RecoverableSigner = signNatively ?? signInWebAssembly;
