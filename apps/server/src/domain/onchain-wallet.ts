import { sha256 } from '@noble/hashes/sha2.js';
import { bytesToHex } from '@noble/hashes/utils.js';
import { HDKey } from '@scure/bip32';
import { p2wpkh } from '@scure/btc-signer';
import type { BitcoinNetwork } from './bitcoin-address.ts';

/**
 * BIP84 receive addresses (protocols.md §7): P2WPKH at `change/index` below an account-level
 * extended public key. The key may carry any SLIP-132 prefix; the address network comes from
 * where Rayo runs, so a mainnet zpub on a regtest chain gives regtest addresses of the same keys.
 */

const VERSIONS = {
  xpub: { public: 0x0488b21e, private: 0x0488ade4 },
  zpub: { public: 0x04b24746, private: 0x04b2430c },
  tpub: { public: 0x043587cf, private: 0x04358394 },
  vpub: { public: 0x045f1cf6, private: 0x045f18bc },
} as const;

type Prefix = keyof typeof VERSIONS;

const ADDRESS_NETWORKS: Record<
  BitcoinNetwork,
  { bech32: string; pubKeyHash: number; scriptHash: number; wif: number }
> = {
  mainnet: { bech32: 'bc', pubKeyHash: 0x00, scriptHash: 0x05, wif: 0x80 },
  testnet: { bech32: 'tb', pubKeyHash: 0x6f, scriptHash: 0xc4, wif: 0xef },
  signet: { bech32: 'tb', pubKeyHash: 0x6f, scriptHash: 0xc4, wif: 0xef },
  regtest: { bech32: 'bcrt', pubKeyHash: 0x6f, scriptHash: 0xc4, wif: 0xef },
};

/** The network parameters @scure/btc-signer encodes and decodes addresses with. */
export function addressNetwork(network: BitcoinNetwork) {
  return ADDRESS_NETWORKS[network];
}

/** Mainnet keys start xpub/zpub, test-network keys tpub/vpub. */
const MAINNET_PREFIXES: readonly Prefix[] = ['xpub', 'zpub'];

export type ExtendedKeyCheck =
  | { valid: true; key: HDKey }
  | { valid: false; reason: 'invalid' | 'private' | 'wrong-network' | 'hardened-depth' };

/**
 * Reads an account-level extended public key. A private key (xprv, zprv…) is refused: Rayo must
 * never hold what spends the merchant's money. A test-network key on mainnet, or the reverse, is
 * refused too, since its owner's wallet would not look for the payments.
 */
export function parseExtendedPublicKey(text: string, network: BitcoinNetwork): ExtendedKeyCheck {
  const trimmed = text.trim();
  const prefix = trimmed.slice(0, 4);
  if (/^[xyztuv]prv$/.test(prefix)) return { valid: false, reason: 'private' };
  if (!(prefix in VERSIONS)) return { valid: false, reason: 'invalid' };
  const mainnetKey = MAINNET_PREFIXES.includes(prefix as Prefix);
  if (mainnetKey !== (network === 'mainnet') && network !== 'regtest') return { valid: false, reason: 'wrong-network' };
  try {
    const key = HDKey.fromExtendedKey(trimmed, VERSIONS[prefix as Prefix]);
    if (key.privateKey) return { valid: false, reason: 'private' };
    return { valid: true, key };
  } catch {
    return { valid: false, reason: 'invalid' };
  }
}

/** The receive address (change 0) at `index` below an account key, on `network`. */
export function deriveReceiveAddress(account: HDKey, index: number, network: BitcoinNetwork): string {
  return deriveWalletAddress(account, 0, index, network);
}

/** The address at `change/index` below an account key: change 0 receives, change 1 takes a payout batch's change. */
export function deriveWalletAddress(account: HDKey, change: 0 | 1, index: number, network: BitcoinNetwork): string {
  if (!Number.isInteger(index) || index < 0 || index >= 0x80000000) throw new RangeError('index out of range');
  const child = account.deriveChild(change).deriveChild(index);
  const address = p2wpkh(child.publicKey as Uint8Array, ADDRESS_NETWORKS[network]).address;
  if (!address) throw new Error('could not encode the address');
  return address;
}

/**
 * The platform wallet's account-level extended private key (xprv/zprv/tprv/vprv), which signs
 * on-chain payout batches. Undefined when it is not one.
 */
export function parseExtendedPrivateKey(text: string): HDKey | undefined {
  const trimmed = text.trim();
  const prefix = `${trimmed.slice(0, 1)}pub` as Prefix;
  if (trimmed.slice(1, 4) !== 'prv' || !(prefix in VERSIONS)) return undefined;
  try {
    const key = HDKey.fromExtendedKey(trimmed, VERSIONS[prefix]);
    return key.privateKey ? key : undefined;
  } catch {
    return undefined;
  }
}

/**
 * A short stable name for a wallet (its counter row's key) that does not reveal the key itself:
 * the first 16 hex digits of the SHA-256 of the account's public key and chain code.
 */
export function walletId(account: HDKey): string {
  const material = new Uint8Array([...(account.publicKey as Uint8Array), ...(account.chainCode as Uint8Array)]);
  return bytesToHex(sha256(material)).slice(0, 16);
}

/** How an extended key appears in logs and answers: its prefix and last characters only. */
export function maskExtendedKey(text: string): string {
  const trimmed = text.trim();
  return trimmed.length <= 12 ? '****' : `${trimmed.slice(0, 4)}…${trimmed.slice(-6)}`;
}

/** The BIP84 account 0 key of a seed, as the devnet platform wallet holds it (coin type 1: test networks). */
export function accountKeyFromSeed(seed: Uint8Array): HDKey {
  return HDKey.fromMasterSeed(seed, VERSIONS.tpub).derive("m/84'/1'/0'");
}

const SATS_PER_BTC = 100_000_000n;

/** A BIP21 payment URI: the amount in BTC, as decimal without trailing zeros. */
export function bip21Uri(address: string, amountSats: bigint): string {
  const whole = amountSats / SATS_PER_BTC;
  const fraction = (amountSats % SATS_PER_BTC).toString().padStart(8, '0').replace(/0+$/, '');
  return `bitcoin:${address}?amount=${whole}${fraction === '' ? '' : `.${fraction}`}`;
}
