import { randomBytes } from 'node:crypto';
import { AppError } from '@rayo/shared';
import { hex } from '@scure/base';
import { Address, OutScript, RawTx, Transaction } from '@scure/btc-signer';
import type { Db } from '../../db/database.ts';
import { checkBitcoinAddress } from '../../domain/bitcoin-address.ts';
import { addressNetwork } from '../../domain/onchain-wallet.ts';
import { findBadSignature } from '../../domain/p2wpkh-signature.ts';
import {
  acceptDevnetTransaction,
  appendDevnetBlocks,
  type DevnetPrevout,
  findDevnetRawTransaction,
  findDevnetTransaction,
  insertDevnetFunding,
  listDevnetAddressOutputs,
  listDevnetAddressUtxos,
  readDevnetTipHeight,
} from './devnet.repo.ts';
import { type ChainBackend, ChainBackendError } from './types.ts';

/** The most blocks one call mines, and the most one devnet send pays (21 BTC). */
export const MAX_DEVNET_BLOCKS = 100;
const MAX_DEVNET_SEND_SATS = 2_100_000_000n;
/** Devnet blocks have room for everything, so any target gets the relay minimum's double. */
const DEVNET_FEE_RATE = 2;

/**
 * A regtest-like chain kept in PostgreSQL: blocks appear only when someone mines them (the devnet
 * wallet page, `npm run devnet:mine`), so tests and demos step through confirmations at will. It
 * answers as the Esplora chain does against a real explorer: a transaction it has never seen is
 * null, never "in the mempool"; a broadcast is checked as Bitcoin Core checks it.
 */
export function createDevnetChain(db: Db): ChainBackend {
  return {
    name: 'devnet',
    network: 'regtest',
    getTipHeight: () => readDevnetTipHeight(db),
    listAddressOutputs: (address) => listDevnetAddressOutputs(db, address),
    listAddressUtxos: (address) => listDevnetAddressUtxos(db, address),
    estimateFeeRate: async () => DEVNET_FEE_RATE,
    async broadcastTransaction(rawHex) {
      const { spend, tx } = decodeDevnetTransaction(rawHex);
      const refused = await acceptDevnetTransaction(db, spend, (prevouts) => checkSignatures(tx, prevouts));
      if (refused !== null) throw new ChainBackendError(`The devnet chain refused the transaction: ${refused}`);
      return spend.txid;
    },
    getTransactionStatus: async (txid) => (await findDevnetTransaction(db, txid)) ?? null,
    getRawTransaction: async (txid) => (await findDevnetRawTransaction(db, txid)) ?? null,
  };
}

/** A signed transaction's spends and its outputs to regtest addresses (others, e.g. OP_RETURN, vanish). */
function decodeDevnetTransaction(rawHex: string) {
  let tx: Transaction;
  try {
    tx = Transaction.fromRaw(hex.decode(rawHex.toLowerCase()));
  } catch (error) {
    throw new ChainBackendError('The devnet chain refused the transaction: TX decode failed', { cause: error });
  }
  const encoder = Address(addressNetwork('regtest'));
  const outputs = [];
  for (let vout = 0; vout < tx.outputsLength; vout += 1) {
    const output = tx.getOutput(vout);
    if (!output.script || output.amount === undefined) continue;
    try {
      outputs.push({ vout, address: encoder.encode(OutScript.decode(output.script)), valueSats: output.amount });
    } catch {
      // Not an address: nothing on the devnet chain can receive it.
    }
  }
  const inputs = Array.from({ length: tx.inputsLength }, (_, index) => {
    const input = tx.getInput(index);
    return { txid: hex.encode(input.txid as Uint8Array), vout: input.index as number };
  });
  // BIP 141 weight from the bytes as they came: the stripped size counts four times, witnesses once.
  const weight = tx.toBytes(true, false).length * 3 + rawHex.length / 2;
  return { tx, spend: { txid: tx.id, rawHex: rawHex.toLowerCase(), vsize: Math.ceil(weight / 4), inputs, outputs } };
}

/** Core's words for a witness that does not spend its output (src/script/script_error.cpp). */
function checkSignatures(tx: Transaction, prevouts: DevnetPrevout[]): string | null {
  const decoder = Address(addressNetwork('regtest'));
  const bad = findBadSignature(
    tx,
    prevouts.map((prevout) => ({
      script: OutScript.encode(decoder.decode(prevout.address)),
      amount: prevout.valueSats,
    })),
  );
  if (bad === null) return null;
  return bad.problem === 'key'
    ? 'mandatory-script-verify-flag-failed (Witness program hash mismatch)'
    : 'mandatory-script-verify-flag-failed (Signature must be zero for failed CHECK(MULTI)SIG operation)';
}

/** Mines `count` blocks; the first confirms everything in the mempool. Returns the new tip. */
export async function mineDevnetBlocks(db: Db, count: number): Promise<number> {
  if (!Number.isInteger(count) || count < 1 || count > MAX_DEVNET_BLOCKS) {
    throw new AppError('InvalidInput', `Mine between 1 and ${MAX_DEVNET_BLOCKS} blocks`);
  }
  return appendDevnetBlocks(
    db,
    Array.from({ length: count }, () => randomBytes(32).toString('hex')),
  );
}

/**
 * The devnet wallet pays `sats` to a regtest address: a coinbase-shaped transaction (its input's
 * script holds random bytes, so each has its own txid) that waits in the mempool.
 */
export async function sendDevnetPayment(db: Db, address: string, sats: bigint): Promise<{ txid: string }> {
  const check = checkBitcoinAddress(address, 'regtest');
  if (!check.valid) throw new AppError('InvalidInput', 'Enter a devnet (bcrt1…) Bitcoin address');
  if (sats < 1n || sats > MAX_DEVNET_SEND_SATS) {
    throw new AppError('InvalidAmount', 'Send between 1 sat and 21 BTC');
  }
  const raw = RawTx.encode({
    version: 2,
    segwitFlag: false,
    inputs: [{ txid: new Uint8Array(32), index: 0xffffffff, finalScriptSig: randomBytes(16), sequence: 0xffffffff }],
    outputs: [{ amount: sats, script: OutScript.encode(Address(addressNetwork('regtest')).decode(address)) }],
    witnesses: [],
    lockTime: 0,
  });
  const txid = Transaction.fromRaw(raw).id;
  await insertDevnetFunding(db, { txid, rawHex: hex.encode(raw), vsize: raw.length, address, valueSats: sats });
  return { txid };
}
