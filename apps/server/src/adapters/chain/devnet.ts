import { randomBytes } from 'node:crypto';
import { AppError } from '@rayo/shared';
import { hex } from '@scure/base';
import { Address, OutScript, Transaction } from '@scure/btc-signer';
import type { Db } from '../../db/database.ts';
import { checkBitcoinAddress } from '../../domain/bitcoin-address.ts';
import { addressNetwork } from '../../domain/onchain-wallet.ts';
import {
  acceptDevnetTransaction,
  appendDevnetBlocks,
  findDevnetTransaction,
  insertDevnetOutput,
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
 * wallet page, `npm run devnet:mine`), so tests and demos step through confirmations at will.
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
      const spend = decodeDevnetTransaction(rawHex);
      const refused = await acceptDevnetTransaction(db, spend);
      if (refused !== null) throw new ChainBackendError(`The devnet chain refused the transaction: ${refused}`);
      return spend.txid;
    },
    getTransactionStatus: async (txid) => (await findDevnetTransaction(db, txid)) ?? null,
  };
}

/** A signed transaction's spends and its outputs to regtest addresses (others, e.g. OP_RETURN, vanish). */
function decodeDevnetTransaction(rawHex: string) {
  let tx: Transaction;
  try {
    tx = Transaction.fromRaw(hex.decode(rawHex));
  } catch (error) {
    throw new ChainBackendError('The devnet chain refused the transaction: TX decode failed', { cause: error });
  }
  if (!tx.isFinal) throw new ChainBackendError('The devnet chain refused the transaction: it is not signed');
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
  return { txid: tx.id, inputs, outputs };
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

/** The devnet wallet pays `sats` to a regtest address; the transaction waits in the mempool. */
export async function sendDevnetPayment(db: Db, address: string, sats: bigint): Promise<{ txid: string }> {
  const check = checkBitcoinAddress(address, 'regtest');
  if (!check.valid) throw new AppError('InvalidInput', 'Enter a devnet (bcrt1…) Bitcoin address');
  if (sats < 1n || sats > MAX_DEVNET_SEND_SATS) {
    throw new AppError('InvalidAmount', 'Send between 1 sat and 21 BTC');
  }
  const txid = randomBytes(32).toString('hex');
  await insertDevnetOutput(db, { txid, vout: 0, address, valueSats: sats });
  return { txid };
}
