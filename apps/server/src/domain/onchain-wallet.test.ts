import { HDKey } from '@scure/bip32';
import { describe, expect, it } from 'vitest';
import { checkBitcoinAddress } from './bitcoin-address.ts';
import {
  accountKeyFromSeed,
  bip21Uri,
  deriveReceiveAddress,
  maskExtendedKey,
  parseExtendedPublicKey,
  walletId,
} from './onchain-wallet.ts';

// BIP84's published vector: account 0 of "abandon … about".
const BIP84_ZPUB =
  'zpub6rFR7y4Q2AijBEqTUquhVz398htDFrtymD9xYYfG1m4wAcvPhXNfE3EfH1r1ADqtfSdVCToUG868RvUUkgDKf31mGDtKsAYz2oz2AGutZYs';

function account(text: string, network: Parameters<typeof parseExtendedPublicKey>[1] = 'mainnet'): HDKey {
  const parsed = parseExtendedPublicKey(text, network);
  if (!parsed.valid) throw new Error(`not valid: ${parsed.reason}`);
  return parsed.key;
}

describe('BIP84 receive addresses', () => {
  it("derives BIP84's test vector addresses", () => {
    const key = account(BIP84_ZPUB);
    expect(deriveReceiveAddress(key, 0, 'mainnet')).toBe('bc1qcr8te4kr609gcawutmrza0j4xv80jy8z306fyu');
    expect(deriveReceiveAddress(key, 1, 'mainnet')).toBe('bc1qnjg0jd8228aq7egyzacy8cys3knf9xvrerkf9g');
  });

  it('encodes the same key for testnet and regtest', () => {
    const key = account(BIP84_ZPUB, 'regtest');
    expect(deriveReceiveAddress(key, 0, 'testnet')).toBe('tb1qcr8te4kr609gcawutmrza0j4xv80jy8zmfp6l0');
    expect(deriveReceiveAddress(key, 0, 'regtest')).toBe('bcrt1qcr8te4kr609gcawutmrza0j4xv80jy8zeqchgx');
  });

  it('refuses private keys, garbage and keys of the other network', () => {
    const xprv = HDKey.fromMasterSeed(new Uint8Array(32).fill(7)).privateExtendedKey;
    expect(parseExtendedPublicKey(xprv, 'mainnet')).toEqual({ valid: false, reason: 'private' });
    expect(parseExtendedPublicKey('zpub123', 'mainnet')).toEqual({ valid: false, reason: 'invalid' });
    expect(parseExtendedPublicKey(`${BIP84_ZPUB.slice(0, -1)}t`, 'mainnet')).toEqual({
      valid: false,
      reason: 'invalid',
    });
    expect(parseExtendedPublicKey('hello', 'mainnet')).toEqual({ valid: false, reason: 'invalid' });
    expect(parseExtendedPublicKey(BIP84_ZPUB, 'testnet')).toEqual({ valid: false, reason: 'wrong-network' });
  });

  it('derives from a seed a test-network key whose addresses are valid regtest P2WPKH', () => {
    const key = accountKeyFromSeed(new Uint8Array(32).fill(1));
    expect(key.publicExtendedKey.startsWith('tpub')).toBe(true);
    const again = account(key.publicExtendedKey, 'regtest');
    const address = deriveReceiveAddress(again, 5, 'regtest');
    expect(address).toBe(deriveReceiveAddress(key, 5, 'regtest'));
    expect(checkBitcoinAddress(address, 'regtest')).toEqual({ valid: true, type: 'p2wpkh', network: 'regtest' });
  });

  it('names a wallet without revealing its key, and masks the key for logs', () => {
    const id = walletId(account(BIP84_ZPUB));
    expect(id).toMatch(/^[0-9a-f]{16}$/);
    expect(BIP84_ZPUB).not.toContain(id);
    expect(maskExtendedKey(BIP84_ZPUB)).toBe('zpub…GutZYs');
  });
});

describe('BIP21 URIs', () => {
  it('writes the amount in BTC without trailing zeros', () => {
    const address = 'bcrt1qcr8te4kr609gcawutmrza0j4xv80jy8zeqchgx';
    expect(bip21Uri(address, 12_345n)).toBe(`bitcoin:${address}?amount=0.00012345`);
    expect(bip21Uri(address, 150_000_000n)).toBe(`bitcoin:${address}?amount=1.5`);
    expect(bip21Uri(address, 200_000_000n)).toBe(`bitcoin:${address}?amount=2`);
  });
});
