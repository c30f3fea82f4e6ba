import { createHash, randomBytes } from 'node:crypto';

export type PreimageAndHash = { preimage: Buffer; paymentHash: Buffer };

export function newPreimage(): PreimageAndHash {
  const preimage = randomBytes(32);
  return { preimage, paymentHash: createHash('sha256').update(preimage).digest() };
}

const BECH32 = 'qpzry9x8gf2tvdw0s3jn54khce6mua7l';

/**
 * A string shaped like a regtest BOLT11 invoice (prefix, amount, separator, bech32 data). The fake
 * nodes look invoices up by this string; nothing here is signed or checksummed.
 */
export function fakePaymentRequest(amountMsat: bigint | null): string {
  const amount = amountMsat === null ? '' : `${amountMsat * 10n}p`;
  const data = Array.from(randomBytes(180), (byte) => BECH32[byte % 32]).join('');
  return `lnbcrt${amount}1p${data}`;
}

/** A compressed secp256k1 public key's shape, for `destination` / `payee`. */
export function fakeNodeId(): string {
  return `02${randomBytes(32).toString('hex')}`;
}
