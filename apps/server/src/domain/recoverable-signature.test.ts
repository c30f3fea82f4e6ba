import { secp256k1 } from '@noble/curves/secp256k1.js';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { signInWebAssembly, signNatively, signRecoverable } from './recoverable-signature.ts';

const privateKeyArbitrary = fc
  .uint8Array({ minLength: 32, maxLength: 32 })
  .filter((key) => secp256k1.utils.isValidSecretKey(key));
const hashArbitrary = fc.uint8Array({ minLength: 32, maxLength: 32 });

describe('recoverable signatures', () => {
  it.runIf(process.platform === 'linux' && process.arch === 'x64')(
    'use the libsecp256k1 built for this machine where the package ships one',
    () => {
      expect(signNatively).toBeDefined();
      expect(signRecoverable).toBe(signNatively);
    },
  );

  it.runIf(signNatively)('are the same, byte for byte, from the native build and from WebAssembly', () => {
    const native = signNatively as NonNullable<typeof signNatively>;
    fc.assert(
      fc.property(privateKeyArbitrary, hashArbitrary, (privateKey, hash) => {
        expect(native(hash, privateKey)).toEqual(signInWebAssembly(hash, privateKey));
      }),
      { numRuns: 2000 },
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
