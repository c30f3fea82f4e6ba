import { secp256k1 } from '@noble/curves/secp256k1.js';
import fc from 'fast-check';
import { signRecoverable as signWithLibsecp256k1 } from 'tiny-secp256k1';
import { describe, expect, it } from 'vitest';
import { signRecoverable } from './recoverable-signature.ts';

const privateKeyArbitrary = fc
  .uint8Array({ minLength: 32, maxLength: 32 })
  .filter((key) => secp256k1.utils.isValidSecretKey(key));
const hashArbitrary = fc.uint8Array({ minLength: 32, maxLength: 32 });

describe('recoverable signatures', () => {
  it('are those libsecp256k1 makes, byte for byte, with the same recovery id', () => {
    fc.assert(
      fc.property(privateKeyArbitrary, hashArbitrary, (privateKey, hash) => {
        const reference = signWithLibsecp256k1(hash, privateKey);
        expect(signRecoverable(hash, privateKey)).toEqual({
          signature: reference.signature,
          recoveryId: reference.recoveryId,
        });
      }),
      { numRuns: 300 },
    );
  });

  it('recover the signing key, with a low S', () => {
    fc.assert(
      fc.property(privateKeyArbitrary, hashArbitrary, (privateKey, hash) => {
        const { signature, recoveryId } = signRecoverable(hash, privateKey);
        const recovered = secp256k1.Signature.fromBytes(signature, 'compact')
          .addRecoveryBit(recoveryId)
          .recoverPublicKey(hash)
          .toBytes(true);
        expect(recovered).toEqual(secp256k1.getPublicKey(privateKey, true));
        expect(secp256k1.verify(signature, hash, secp256k1.getPublicKey(privateKey), { prehash: false })).toBe(true);
      }),
      { numRuns: 300 },
    );
  });
});
