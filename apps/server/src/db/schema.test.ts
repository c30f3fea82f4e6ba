import { PAYOUT_STATES } from '@rayo/shared';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../../test/test-app.ts';
import { createDatabase, type Db } from './database.ts';
import { generateSchemaSource, readGeneratedSchema } from './schema-codegen.ts';

describe('db/schema.generated.ts', () => {
  let database: TestDatabase;
  let db: Db;

  beforeAll(async () => {
    database = await createTestDatabase();
    db = createDatabase(database.url, 1);
  });
  afterAll(async () => {
    await db?.destroy();
    await database?.drop();
  });

  it('is what kysely-codegen writes for the migrated database (else run `npm run db:schema`)', async () => {
    expect(await generateSchemaSource(db)).toBe(await readGeneratedSchema());
  });

  it("narrows payouts.state to the shared PAYOUT_STATES, which the column's check allows exactly", async () => {
    const { rows } = await sql<{ definition: string }>`
      select pg_get_constraintdef(c.oid) as definition from pg_constraint c
      where c.conrelid = 'payouts'::regclass and c.contype = 'c' and pg_get_constraintdef(c.oid) like '%state%'`.execute(
      db,
    );
    const allowed = [...(rows[0]?.definition ?? '').matchAll(/'([a-z_]+)'::text/g)].map((match) => match[1]);
    expect(rows).toHaveLength(1);
    expect(allowed.toSorted()).toEqual([...PAYOUT_STATES].sort());
    expect(await readGeneratedSchema()).toMatch(/^ {2}state: Generated<PayoutState>;$/m);
  });

  it('differs once a migration changes a table', async () => {
    await sql`alter table countries add column drift_probe text`.execute(db);
    const generated = await generateSchemaSource(db);
    expect(generated).toContain('drift_probe: string | null;');
    expect(generated).not.toBe(await readGeneratedSchema());
  });

  it('refuses a type override for a column that is gone', async () => {
    await sql`alter table users rename column role to kind`.execute(db);
    await expect(generateSchemaSource(db)).rejects.toThrow('Type overrides for columns the database lacks: users.role');
  });
});
