import { secp256k1 } from '@noble/curves/secp256k1.js';
import { sha256 } from '@noble/hashes/sha2.js';
import { bytesToHex, concatBytes, hexToBytes, utf8ToBytes } from '@noble/hashes/utils.js';
import { AppError } from '@rayo/shared';
import { bech32 } from '@scure/base';
import { signRecoverable } from './recoverable-signature.ts';

/** BOLT 11 invoices (protocols.md §1): encode and sign, decode and verify. */

export type Bolt11Fields = {
  /** `bc`, `tb`, `tbs` or `bcrt`: the part of the prefix after `ln`. */
  currency: string;
  /** Null for an invoice where the payer chooses the amount. */
  amountMsat: bigint | null;
  /** Unix seconds. */
  timestamp: number;
  paymentHash: string;
  paymentSecret: string;
  /** Exactly one of `description` and `descriptionHash` (hex SHA-256). */
  description?: string;
  descriptionHash?: string;
  expirySeconds: number;
  minFinalCltvExpiry: number;
  /** Writes the payee's public key in an `n` field, which spares the payer a key recovery. */
  includePayee?: boolean;
};

export type Bolt11Invoice = {
  /** The invoice in lowercase, without a `lightning:` prefix. */
  paymentRequest: string;
  currency: string;
  amountMsat: bigint | null;
  timestamp: number;
  paymentHash: string;
  paymentSecret: string | null;
  description: string | null;
  descriptionHash: string | null;
  expirySeconds: number;
  minFinalCltvExpiry: number;
  expiresAt: Date;
  /** The compressed public key (hex) that signed the invoice. */
  payee: string;
};

const TAG = { p: 1, x: 6, '9': 5, d: 13, s: 16, n: 19, h: 23, c: 24 } as const;
const SIGNATURE_WORDS = 104;
const TIMESTAMP_WORDS = 7;
const MAX_FIELD_WORDS = 1023;
const DEFAULT_EXPIRY_SECONDS = 3600;
const DEFAULT_MIN_FINAL_CLTV_EXPIRY = 18;
/** var_onion_optin (bit 8) and payment_secret (bit 14), both compulsory, as current nodes write them. */
const FEATURE_BITS = (1n << 8n) | (1n << 14n);

const MSAT_PER_BTC = 100_000_000_000n;
/** Multipliers from the largest unit down, so the first that divides the amount gives the shortest text. */
const MULTIPLIERS: readonly { suffix: string; msatPerUnit: bigint }[] = [
  { suffix: '', msatPerUnit: MSAT_PER_BTC },
  { suffix: 'm', msatPerUnit: MSAT_PER_BTC / 1_000n },
  { suffix: 'u', msatPerUnit: MSAT_PER_BTC / 1_000_000n },
  { suffix: 'n', msatPerUnit: MSAT_PER_BTC / 1_000_000_000n },
];

function invalid(reason: string): AppError {
  return new AppError('InvalidInput', `Invalid Lightning invoice: ${reason}`);
}

/** 8→5 or 5→8 bit regrouping; `pad` keeps a last partial group (zero-filled), otherwise it is dropped. */
function regroup(values: readonly number[] | Uint8Array, from: number, to: number, pad: boolean): number[] {
  const out: number[] = [];
  const mask = (1 << to) - 1;
  let accumulator = 0;
  let bits = 0;
  for (const value of values) {
    accumulator = ((accumulator << from) | value) & 0xffffff;
    bits += from;
    while (bits >= to) {
      bits -= to;
      out.push((accumulator >> bits) & mask);
    }
  }
  if (pad && bits > 0) out.push((accumulator << (to - bits)) & mask);
  return out;
}

function wordsToBytes(words: readonly number[]): Uint8Array {
  return Uint8Array.from(regroup(words, 5, 8, false));
}

function bytesToWords(bytes: Uint8Array): number[] {
  return regroup(bytes, 8, 5, true);
}

function wordsToBigInt(words: readonly number[]): bigint {
  let value = 0n;
  for (const word of words) value = (value << 5n) | BigInt(word);
  return value;
}

/** Big-endian words of a non-negative integer, minimal length (one word for zero). */
function bigIntToWords(value: bigint): number[] {
  const words: number[] = [];
  let rest = value;
  do {
    words.unshift(Number(rest & 31n));
    rest >>= 5n;
  } while (rest > 0n);
  return words;
}

function field(tag: number, data: readonly number[]): number[] {
  if (data.length > MAX_FIELD_WORDS) throw invalid(`a field of ${data.length} words exceeds ${MAX_FIELD_WORDS}`);
  return [tag, data.length >> 5, data.length & 31, ...data];
}

function hash32(hex: string, name: string): Uint8Array {
  if (!/^[0-9a-f]{64}$/i.test(hex)) throw invalid(`${name} must be 32 bytes of hex`);
  return hexToBytes(hex.toLowerCase());
}

function encodeAmount(amountMsat: bigint): string {
  if (amountMsat <= 0n) throw invalid('the amount must be positive');
  for (const { suffix, msatPerUnit } of MULTIPLIERS) {
    if (amountMsat % msatPerUnit === 0n) return `${amountMsat / msatPerUnit}${suffix}`;
  }
  // One msat is ten pico-bitcoin, which keeps the last digit a 0 as BOLT 11 requires for `p`.
  return `${amountMsat * 10n}p`;
}

function decodeAmount(text: string): bigint {
  const match = /^([1-9]\d*)([munp]?)$/.exec(text);
  if (!match) throw invalid(`"${text}" is not an amount`);
  const [, digits = '', multiplier = ''] = match;
  const value = BigInt(digits);
  if (multiplier === 'p') {
    if (value % 10n !== 0n) throw invalid('a pico-bitcoin amount must end in 0');
    return value / 10n;
  }
  const unit = MULTIPLIERS.find((entry) => entry.suffix === multiplier);
  return value * (unit?.msatPerUnit ?? MSAT_PER_BTC);
}

function signingHash(prefix: string, dataWords: readonly number[]): Uint8Array {
  // Signed bytes are the 5-bit data regrouped into bytes with zero padding; @scure/base's
  // fromWords refuses that padding, hence our own regrouping.
  return sha256(concatBytes(utf8ToBytes(prefix), Uint8Array.from(regroup(dataWords, 5, 8, true))));
}

/** Encodes and signs an invoice with a secp256k1 private key. */
export function encodeBolt11(fields: Bolt11Fields, privateKey: Uint8Array): string {
  if ((fields.description === undefined) === (fields.descriptionHash === undefined)) {
    throw invalid('give exactly one of description and description hash');
  }
  if (!/^[a-z]+$/.test(fields.currency)) throw invalid(`"${fields.currency}" is not a currency prefix`);
  if (!Number.isSafeInteger(fields.timestamp) || fields.timestamp < 0 || fields.timestamp >= 2 ** 35) {
    throw invalid('the timestamp must fit in 35 bits');
  }
  for (const [name, value] of [
    ['expiry', fields.expirySeconds],
    ['min_final_cltv_expiry', fields.minFinalCltvExpiry],
  ] as const) {
    if (!Number.isSafeInteger(value) || value < 0) throw invalid(`${name} must be a non-negative integer`);
  }
  const prefix = `ln${fields.currency}${fields.amountMsat === null ? '' : encodeAmount(fields.amountMsat)}`;
  const timestampWords = bigIntToWords(BigInt(fields.timestamp));
  const words = [
    ...new Array<number>(TIMESTAMP_WORDS - timestampWords.length).fill(0),
    ...timestampWords,
    ...field(TAG.p, bytesToWords(hash32(fields.paymentHash, 'payment hash'))),
    ...field(TAG.s, bytesToWords(hash32(fields.paymentSecret, 'payment secret'))),
    ...(fields.description === undefined
      ? field(TAG.h, bytesToWords(hash32(fields.descriptionHash ?? '', 'description hash')))
      : field(TAG.d, bytesToWords(utf8ToBytes(fields.description)))),
    ...field(TAG.x, bigIntToWords(BigInt(fields.expirySeconds))),
    ...field(TAG.c, bigIntToWords(BigInt(fields.minFinalCltvExpiry))),
    ...field(TAG['9'], bigIntToWords(FEATURE_BITS)),
    ...(fields.includePayee ? field(TAG.n, bytesToWords(secp256k1.getPublicKey(privateKey, true))) : []),
  ];
  // BOLT 11 puts the recovery id after r‖s.
  const { signature: rs, recoveryId } = signRecoverable(signingHash(prefix, words), privateKey);
  const signature = concatBytes(rs, Uint8Array.of(recoveryId));
  return bech32.encode(prefix, [...words, ...bytesToWords(signature)], false);
}

function splitPrefix(prefix: string): { currency: string; amountMsat: bigint | null } {
  const match = /^ln([a-z]+?)(\d[0-9a-z]*)?$/.exec(prefix);
  if (!match?.[1]) throw invalid(`"${prefix}" is not a Lightning invoice prefix`);
  return { currency: match[1], amountMsat: match[2] === undefined ? null : decodeAmount(match[2]) };
}

function toSafeNumber(words: readonly number[], name: string): number {
  const value = wordsToBigInt(words);
  if (value > BigInt(Number.MAX_SAFE_INTEGER)) throw invalid(`${name} is too large`);
  return Number(value);
}

function recoverPayee(signature: Uint8Array, hash: Uint8Array, statedPayee: Uint8Array | null): Uint8Array {
  const recoveryId = signature[64] ?? -1;
  if (recoveryId < 0 || recoveryId > 3) throw invalid('the signature has no valid recovery id');
  try {
    const parsed = secp256k1.Signature.fromBytes(signature.subarray(0, 64), 'compact');
    if (parsed.hasHighS()) throw invalid('the signature is not in low-S form');
    if (statedPayee) {
      if (!secp256k1.verify(signature.subarray(0, 64), hash, statedPayee, { prehash: false })) {
        throw invalid('the signature does not match the payee in the invoice');
      }
      return statedPayee;
    }
    return parsed.addRecoveryBit(recoveryId).recoverPublicKey(hash).toBytes(true);
  } catch (error) {
    if (error instanceof AppError) throw error;
    throw invalid('the signature is not valid');
  }
}

/**
 * Decodes an invoice (any case, with or without `lightning:`) and verifies its signature: against
 * the `n` field when present, otherwise by recovering the payee's key. Throws InvalidInput.
 */
export function decodeBolt11(input: string): Bolt11Invoice {
  const text = input.trim().replace(/^lightning:/i, '');
  if (text !== text.toLowerCase() && text !== text.toUpperCase()) throw invalid('mixed upper and lower case');
  const paymentRequest = text.toLowerCase();
  let decoded: { prefix: string; words: number[] };
  try {
    decoded = bech32.decode(paymentRequest as `${string}1${string}`, false);
  } catch {
    // The library's message repeats the whole string; say what matters instead.
    throw invalid('it is not valid bech32 (mistyped, cut short or not an invoice)');
  }
  const { prefix, words } = decoded;
  const { currency, amountMsat } = splitPrefix(prefix);
  if (words.length < TIMESTAMP_WORDS + SIGNATURE_WORDS) throw invalid('too short');

  const dataWords = words.slice(0, -SIGNATURE_WORDS);
  const signature = Uint8Array.from(regroup(words.slice(-SIGNATURE_WORDS), 5, 8, false));
  const timestamp = Number(wordsToBigInt(dataWords.slice(0, TIMESTAMP_WORDS)));

  const result = {
    paymentHash: null as string | null,
    paymentSecret: null as string | null,
    description: null as string | null,
    descriptionHash: null as string | null,
    payee: null as Uint8Array | null,
    expirySeconds: DEFAULT_EXPIRY_SECONDS,
    minFinalCltvExpiry: DEFAULT_MIN_FINAL_CLTV_EXPIRY,
  };
  let position = TIMESTAMP_WORDS;
  while (position < dataWords.length) {
    const [tag = 0, high = 0, low = 0] = dataWords.slice(position, position + 3);
    const length = high * 32 + low;
    const data = dataWords.slice(position + 3, position + 3 + length);
    if (position + 3 > dataWords.length || data.length !== length) throw invalid('a field runs past the signature');
    position += 3 + length;
    // Readers use the first field of each kind and skip hash and key fields of the wrong length.
    if (tag === TAG.p && length === 52) result.paymentHash ??= bytesToHex(wordsToBytes(data));
    else if (tag === TAG.s && length === 52) result.paymentSecret ??= bytesToHex(wordsToBytes(data));
    else if (tag === TAG.h && length === 52) result.descriptionHash ??= bytesToHex(wordsToBytes(data));
    else if (tag === TAG.n && length === 53) result.payee ??= wordsToBytes(data);
    else if (tag === TAG.d && result.description === null) {
      try {
        result.description = new TextDecoder('utf-8', { fatal: true }).decode(wordsToBytes(data));
      } catch {
        throw invalid('the description is not UTF-8');
      }
    } else if (tag === TAG.x) result.expirySeconds = toSafeNumber(data, 'the expiry');
    else if (tag === TAG.c) result.minFinalCltvExpiry = toSafeNumber(data, 'min_final_cltv_expiry');
  }
  if (result.paymentHash === null) throw invalid('it has no payment hash');
  if (result.description === null && result.descriptionHash === null) throw invalid('it has no description');

  const payee = recoverPayee(signature, signingHash(prefix, dataWords), result.payee);
  return {
    paymentRequest,
    currency,
    amountMsat,
    timestamp,
    paymentHash: result.paymentHash,
    paymentSecret: result.paymentSecret,
    description: result.description,
    descriptionHash: result.descriptionHash,
    expirySeconds: result.expirySeconds,
    minFinalCltvExpiry: result.minFinalCltvExpiry,
    expiresAt: new Date((timestamp + result.expirySeconds) * 1000),
    payee: bytesToHex(payee),
  };
}

/** BOLT11's currency prefix of each network a node runs on; devnet signs as regtest. */
const CURRENCY_OF_NETWORK = { mainnet: 'bc', testnet: 'tb', signet: 'tbs', regtest: 'bcrt', devnet: 'bcrt' } as const;

export function bolt11CurrencyOf(network: keyof typeof CURRENCY_OF_NETWORK): string {
  return CURRENCY_OF_NETWORK[network];
}
