import { AppError } from '@rayo/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../../../test/test-app.ts';
import { createDatabase, type Db } from '../../db/database.ts';
import { createDevnetChain, mineDevnetBlocks, sendDevnetPayment } from './devnet.ts';
import { confirmationsAt } from './types.ts';

const ADDRESS = 'bcrt1qcr8te4kr609gcawutmrza0j4xv80jy8zeqchgx';

let database: TestDatabase;
let db: Db;
let otherProcessDb: Db;

beforeAll(async () => {
  database = await createTestDatabase();
  db = createDatabase(database.url, 4);
  otherProcessDb = createDatabase(database.url, 4);
});
afterAll(async () => {
  await db?.destroy();
  await otherProcessDb?.destroy();
  await database?.drop();
});

describe('the devnet chain', () => {
  it('keeps a payment in the mempool until a block is mined, then counts confirmations', async () => {
    const chain = createDevnetChain(db);
    const seenElsewhere = createDevnetChain(otherProcessDb);
    expect(chain.network).toBe('regtest');
    const start = await chain.getTipHeight();
    const { txid } = await sendDevnetPayment(db, ADDRESS, 12_345n);
    expect(await seenElsewhere.listAddressOutputs(ADDRESS)).toEqual([
      { txid, vout: 0, valueSats: 12_345n, blockHeight: null },
    ]);
    expect(await mineDevnetBlocks(otherProcessDb, 1)).toBe(start + 1);
    const [output] = await chain.listAddressOutputs(ADDRESS);
    expect(output?.blockHeight).toBe(start + 1);
    await mineDevnetBlocks(db, 3);
    expect(confirmationsAt(await chain.getTipHeight(), output?.blockHeight ?? null)).toBe(4);
  });

  it('mines concurrently without two blocks at one height', async () => {
    const start = await createDevnetChain(db).getTipHeight();
    const tips = await Promise.all([mineDevnetBlocks(db, 2), mineDevnetBlocks(otherProcessDb, 2)]);
    expect(tips.sort()).toEqual([start + 2, start + 4]);
  });

  it('refuses addresses of other networks, non-positive amounts and silly block counts', async () => {
    await expect(sendDevnetPayment(db, 'bc1qcr8te4kr609gcawutmrza0j4xv80jy8z306fyu', 1n)).rejects.toBeInstanceOf(
      AppError,
    );
    await expect(sendDevnetPayment(db, ADDRESS, 0n)).rejects.toThrow('Send between 1 sat and 21 BTC');
    await expect(mineDevnetBlocks(db, 0)).rejects.toBeInstanceOf(AppError);
    await expect(mineDevnetBlocks(db, 101)).rejects.toBeInstanceOf(AppError);
  });
});
