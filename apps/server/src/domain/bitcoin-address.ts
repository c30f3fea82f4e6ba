import { sha256 } from '@noble/hashes/sha2.js';
import { bech32, bech32m, createBase58check } from '@scure/base';

/** Bitcoin payout addresses (protocols.md §1 and §7): which network and type an address is for. */

export type BitcoinNetwork = 'mainnet' | 'testnet' | 'signet' | 'regtest';

export type BitcoinAddressType = 'p2pkh' | 'p2sh' | 'p2wpkh' | 'p2wsh' | 'p2tr' | 'witness';

export type AddressCheck =
  | { valid: true; type: BitcoinAddressType; network: BitcoinNetwork }
  /** Well formed, but for another network: a payout there would never arrive. */
  | { valid: false; reason: 'wrong-network'; network: BitcoinNetwork }
  | { valid: false; reason: 'invalid' };

type Params = { hrp: string; pubKeyHash: number; scriptHash: number };

const PARAMS: Record<BitcoinNetwork, Params> = {
  mainnet: { hrp: 'bc', pubKeyHash: 0x00, scriptHash: 0x05 },
  testnet: { hrp: 'tb', pubKeyHash: 0x6f, scriptHash: 0xc4 },
  // Signet shares testnet's encodings.
  signet: { hrp: 'tb', pubKeyHash: 0x6f, scriptHash: 0xc4 },
  regtest: { hrp: 'bcrt', pubKeyHash: 0x6f, scriptHash: 0xc4 },
};

const base58check = createBase58check(sha256);

/** BIP173/BIP350: the witness version and program, or undefined for anything malformed. */
function decodeSegwit(address: string): { hrp: string; version: number; program: Uint8Array } | undefined {
  if (!/^[a-z0-9]+$/i.test(address)) return undefined;
  const lower = address.toLowerCase();
  if (address !== lower && address !== address.toUpperCase()) return undefined;
  const separator = lower.lastIndexOf('1');
  if (separator < 1) return undefined;
  const hrp = lower.slice(0, separator);
  // Version 0 uses bech32, later versions bech32m (BIP350): each checksum fits one only.
  for (const [coder, versionFits] of [
    [bech32, (v: number) => v === 0],
    [bech32m, (v: number) => v >= 1],
  ] as const) {
    const decoded = coder.decodeUnsafe(lower as `${string}1${string}`, 90);
    if (!decoded) continue;
    const [version, ...data] = decoded.words;
    if (version === undefined || version > 16 || !versionFits(version)) return undefined;
    const program = coder.fromWordsUnsafe(data);
    if (!program || program.length < 2 || program.length > 40) return undefined;
    if (version === 0 && program.length !== 20 && program.length !== 32) return undefined;
    return { hrp, version, program };
  }
  return undefined;
}

function segwitType(version: number, length: number): BitcoinAddressType {
  if (version === 0) return length === 20 ? 'p2wpkh' : 'p2wsh';
  if (version === 1 && length === 32) return 'p2tr';
  return 'witness';
}

function decodeBase58(address: string): { version: number } | undefined {
  try {
    const bytes = base58check.decode(address);
    if (bytes.length !== 21) return undefined;
    return { version: bytes[0] as number };
  } catch {
    return undefined;
  }
}

/** Checks an address against the network payouts are made on. */
export function checkBitcoinAddress(address: string, network: BitcoinNetwork): AddressCheck {
  const expected = PARAMS[network];
  const segwit = decodeSegwit(address);
  if (segwit) {
    if (segwit.hrp === expected.hrp) {
      return { valid: true, type: segwitType(segwit.version, segwit.program.length), network };
    }
    const other = (Object.keys(PARAMS) as BitcoinNetwork[]).find((name) => PARAMS[name].hrp === segwit.hrp);
    return other ? { valid: false, reason: 'wrong-network', network: other } : { valid: false, reason: 'invalid' };
  }
  const legacy = decodeBase58(address);
  if (!legacy) return { valid: false, reason: 'invalid' };
  if (legacy.version === expected.pubKeyHash) return { valid: true, type: 'p2pkh', network };
  if (legacy.version === expected.scriptHash) return { valid: true, type: 'p2sh', network };
  const other = (Object.keys(PARAMS) as BitcoinNetwork[]).find(
    (name) => PARAMS[name].pubKeyHash === legacy.version || PARAMS[name].scriptHash === legacy.version,
  );
  return other ? { valid: false, reason: 'wrong-network', network: other } : { valid: false, reason: 'invalid' };
}
