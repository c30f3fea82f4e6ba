import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../../test/test-app.ts';
import { createDatabase, type Db } from './database.ts';
import { migrateToLatest } from './migrate.ts';
import { migrations } from './migrations/index.ts';

describe('migrateToLatest', () => {
  let database: TestDatabase;
  let db: Db;

  beforeAll(async () => {
    database = await createTestDatabase({ migrated: false });
    db = createDatabase(database.url, 2);
  });
  afterAll(async () => {
    await db?.destroy();
    await database?.drop();
  });

  it('applies every migration in order to an empty database, then nothing on a second run', async () => {
    expect(await migrateToLatest(db)).toEqual(Object.keys(migrations));
    expect(await migrateToLatest(db)).toEqual([]);
  });

  it('fills the countries table with the 249 ISO 3166-1 countries', async () => {
    const { rows } = await sql<{ count: string }>`select count(*) as count from countries`.execute(db);
    expect(Number(rows[0]?.count)).toBe(249);
    const guatemala = await db.selectFrom('countries').select(['name', 'code']).where('code', '=', 'GT').execute();
    expect(guatemala).toEqual([{ name: 'Guatemala', code: 'GT' }]);
  });

  it('lets concurrent boots migrate the same database safely', async () => {
    const other = createDatabase(database.url, 2);
    try {
      expect(await Promise.all([migrateToLatest(db), migrateToLatest(other)])).toEqual([[], []]);
    } finally {
      await other.destroy();
    }
  });
});
