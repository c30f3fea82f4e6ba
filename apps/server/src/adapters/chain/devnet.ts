import { randomBytes } from 'node:crypto';
import { AppError } from '@rayo/shared';
import type { Db } from '../../db/database.ts';
import { checkBitcoinAddress } from '../../domain/bitcoin-address.ts';
import {
  appendDevnetBlocks,
  insertDevnetOutput,
  listDevnetAddressOutputs,
  readDevnetTipHeight,
} from './devnet.repo.ts';
import type { ChainBackend } from './types.ts';

/** The most blocks one call mines, and the most one devnet send pays (21 BTC). */
export const MAX_DEVNET_BLOCKS = 100;
const MAX_DEVNET_SEND_SATS = 2_100_000_000n;

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
  };
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
