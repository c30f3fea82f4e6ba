import { sql } from 'kysely';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../test/test-app.ts';
import { waitFor } from '../../test/wait-for.ts';
import { pingDatabase } from './database.ts';

describe('a PostgreSQL connection the server drops', () => {
  let t: TestApp;
  const logged: string[] = [];

  beforeAll(async () => {
    t = await createTestApp(
      { LOG_LEVEL: 'warn' },
      { jobs: false, logDestination: { write: (line) => void logged.push(line) } },
    );
  });
  afterAll(() => t?.close());

  it('is a warning in the log, naming the pool, and the pool goes on with a new one', async () => {
    const { rows } = await sql<{ pid: number }>`select pg_backend_pid() as pid`.execute(t.db);
    // The connection is idle in the pool again; the server ends it, as a restart would.
    const admin = new pg.Client({ connectionString: t.config.databaseUrl });
    await admin.connect();
    try {
      await admin.query('select pg_terminate_backend($1)', [rows[0]?.pid]);
    } finally {
      await admin.end();
    }
    const warning = await waitFor(() =>
      logged.map((line) => JSON.parse(line)).find((entry) => entry.msg?.startsWith('PostgreSQL connection lost')),
    );
    expect(warning).toMatchObject({
      level: 40,
      pool: 'primary',
      msg: 'PostgreSQL connection lost; the pool opens a new one at its next use',
    });
    expect(warning.err.message).toMatch(/terminat/);
    await pingDatabase(t.db);
  });
});
