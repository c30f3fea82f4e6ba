import { describe, expect, it } from 'vitest';
import { checkBitcoinAddress } from './bitcoin-address.ts';

describe('checkBitcoinAddress', () => {
  it('accepts the valid addresses of BIP350 on their own network', () => {
    const vectors = [
      ['BC1QW508D6QEJXTDG4Y5R3ZARVARY0C5XW7KV8F3T4', 'mainnet', 'p2wpkh'],
      ['tb1qrp33g0q5c5txsp9arysrx4k6zdkfs4nce4xj0gdcccefvpysxf3q0sl5k7', 'testnet', 'p2wsh'],
      ['bc1pw508d6qejxtdg4y5r3zarvary0c5xw7kw508d6qejxtdg4y5r3zarvary0c5xw7kt5nd6y', 'mainnet', 'witness'],
      ['BC1SW50QGDZ25J', 'mainnet', 'witness'],
      ['bc1zw508d6qejxtdg4y5r3zarvaryvaxxpcs', 'mainnet', 'witness'],
      ['tb1qqqqqp399et2xygdj5xreqhjjvcmzhxw4aywxecjdzew6hylgvsesrxh6hy', 'testnet', 'p2wsh'],
      ['tb1pqqqqp399et2xygdj5xreqhjjvcmzhxw4aywxecjdzew6hylgvsesf3hn0c', 'testnet', 'p2tr'],
      ['bc1p0xlxvlhemja6c4dqv22uapctqupfhlxm9h8z3k2e72q4k9hcz7vqzk5jj0', 'mainnet', 'p2tr'],
    ] as const;
    for (const [address, network, type] of vectors) {
      expect(checkBitcoinAddress(address, network), address).toEqual({ valid: true, type, network });
    }
  });

  it('accepts the BIP84 test vector on mainnet, testnet, signet and regtest', () => {
    expect(checkBitcoinAddress('bc1qcr8te4kr609gcawutmrza0j4xv80jy8z306fyu', 'mainnet').valid).toBe(true);
    expect(checkBitcoinAddress('tb1qcr8te4kr609gcawutmrza0j4xv80jy8zmfp6l0', 'testnet').valid).toBe(true);
    expect(checkBitcoinAddress('tb1qcr8te4kr609gcawutmrza0j4xv80jy8zmfp6l0', 'signet').valid).toBe(true);
    expect(checkBitcoinAddress('bcrt1qcr8te4kr609gcawutmrza0j4xv80jy8zeqchgx', 'regtest').valid).toBe(true);
  });

  it('refuses the invalid addresses of BIP350', () => {
    const invalid = [
      'tc1p0xlxvlhemja6c4dqv22uapctqupfhlxm9h8z3k2e72q4k9hcz7vq5zuyut', // unknown human-readable part
      'bc1p0xlxvlhemja6c4dqv22uapctqupfhlxm9h8z3k2e72q4k9hcz7vqh2y7hd', // v1 with a bech32 checksum
      'tb1z0xlxvlhemja6c4dqv22uapctqupfhlxm9h8z3k2e72q4k9hcz7vqglt7rf', // v2 with a bech32 checksum
      'BC1S0XLXVLHEMJA6C4DQV22UAPCTQUPFHLXM9H8Z3K2E72Q4K9HCZ7VQ54WELL', // v16 with a bech32 checksum
      'bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kemeawh', // v0 with a bech32m checksum
      'tb1q0xlxvlhemja6c4dqv22uapctqupfhlxm9h8z3k2e72q4k9hcz7vq24jc47', // v0 with a bech32m checksum
      'bc1p38j9r5y49hruaue7wxjce0updqjuyyx0kh56v8s25huc6995vvpql3jow4', // a character outside bech32
      'BC130XLXVLHEMJA6C4DQV22UAPCTQUPFHLXM9H8Z3K2E72Q4K9HCZ7VQ7ZWS8R', // witness version 17
      'bc1pw5dgrnzv', // 1-byte program
      'bc1p0xlxvlhemja6c4dqv22uapctqupfhlxm9h8z3k2e72q4k9hcz7v8n0nx0muaewav253zgeav', // 41-byte program
      'BC1QR508D6QEJXTDG4Y5R3ZARVARYV98GJ9P', // v0 with a 16-byte program
      'tb1p0xlxvlhemja6c4dqv22uapctqupfhlxm9h8z3k2e72q4k9hcz7vq47Zagq', // mixed case
      'bc1p0xlxvlhemja6c4dqv22uapctqupfhlxm9h8z3k2e72q4k9hcz7v07qwwzcrf', // more than 4 bits of padding
      'tb1p0xlxvlhemja6c4dqv22uapctqupfhlxm9h8z3k2e72q4k9hcz7vpggkg4j', // non-zero padding
      'bc1gmk9yu', // empty data
      '',
      'not an address',
    ];
    for (const address of invalid) {
      for (const network of ['mainnet', 'testnet'] as const) {
        expect(checkBitcoinAddress(address, network), `${address} on ${network}`).toEqual({
          valid: false,
          reason: 'invalid',
        });
      }
    }
  });

  it('accepts base58check P2PKH and P2SH addresses and refuses a wrong checksum', () => {
    expect(checkBitcoinAddress('1BvBMSEYstWetqTFn5Au4m4GFg7xJaNVN2', 'mainnet')).toEqual({
      valid: true,
      type: 'p2pkh',
      network: 'mainnet',
    });
    expect(checkBitcoinAddress('3J98t1WpEZ73CNmQviecrnyiWrnqRhWNLy', 'mainnet')).toEqual({
      valid: true,
      type: 'p2sh',
      network: 'mainnet',
    });
    expect(checkBitcoinAddress('mipcBbFg9gMiCh81Kj8tqqdgoZub1ZJRfn', 'testnet').valid).toBe(true);
    expect(checkBitcoinAddress('2MzQwSSnBHWHqSAqtTVQ6v47XtaisrJa1Vc', 'regtest').valid).toBe(true);
    expect(checkBitcoinAddress('1BvBMSEYstWetqTFn5Au4m4GFg7xJaNVN3', 'mainnet')).toEqual({
      valid: false,
      reason: 'invalid',
    });
  });

  it("names the network of another network's address", () => {
    expect(checkBitcoinAddress('bc1qcr8te4kr609gcawutmrza0j4xv80jy8z306fyu', 'regtest')).toEqual({
      valid: false,
      reason: 'wrong-network',
      network: 'mainnet',
    });
    expect(checkBitcoinAddress('bcrt1qcr8te4kr609gcawutmrza0j4xv80jy8zeqchgx', 'mainnet')).toEqual({
      valid: false,
      reason: 'wrong-network',
      network: 'regtest',
    });
    expect(checkBitcoinAddress('tb1qcr8te4kr609gcawutmrza0j4xv80jy8zmfp6l0', 'mainnet')).toMatchObject({
      reason: 'wrong-network',
    });
    expect(checkBitcoinAddress('1BvBMSEYstWetqTFn5Au4m4GFg7xJaNVN2', 'testnet')).toEqual({
      valid: false,
      reason: 'wrong-network',
      network: 'mainnet',
    });
    expect(checkBitcoinAddress('mipcBbFg9gMiCh81Kj8tqqdgoZub1ZJRfn', 'mainnet')).toMatchObject({
      reason: 'wrong-network',
    });
  });
});
