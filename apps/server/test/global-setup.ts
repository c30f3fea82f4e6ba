import { chmod, mkdtemp, rm } from 'node:fs/promises';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import type { TestProject } from 'vitest/node';
import { createDatabase } from '../src/db/database.ts';
import { type EmbeddedCluster, startEmbeddedPostgres } from '../src/db/embedded-postgres.ts';
import { migrateToLatest } from '../src/db/migrate.ts';
import { freePort } from '../src/ports.ts';

const TEMPLATE_DATABASE = 'rayo_template';

declare module 'vitest' {
  interface ProvidedContext {
    /** Connection URL of the test cluster's `postgres` database, for creating and dropping test databases. */
    adminDatabaseUrl: string;
    /** The migrated database every test database is cloned from. */
    templateDatabase: string;
  }
}

/** One PostgreSQL cluster for the whole run, with a migrated template that each test file clones. */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'rayo-test-'));
  let cluster: EmbeddedCluster | undefined;
  const teardown = async () => {
    await cluster?.stop();
    await rm(dataDir, { recursive: true, force: true });
  };
  try {
    // As root, PostgreSQL runs as the `postgres` user, which must reach the cluster directory inside.
    await chmod(dataDir, 0o755);
    cluster = await startEmbeddedPostgres({
      dataDir,
      port: await freePort(),
      database: TEMPLATE_DATABASE,
      persistent: false,
    });
    // The embedded-postgres package stops its clusters from an async-exit-hook on 'beforeExit',
    // which calls process.exit(0): that replaced the failing exit code Vitest sets when a test
    // fails, so a failed run passed. The teardown below stops the cluster instead. Its 'exit'
    // hook goes too: without the first, it would run with no callback and throw.
    const exitHook = createRequire(import.meta.url)('async-exit-hook') as { unhookEvent: (event: string) => void };
    exitHook.unhookEvent('beforeExit');
    exitHook.unhookEvent('exit');
    const adminUrl = new URL(cluster.url);
    adminUrl.pathname = '/postgres';
    await tuneForTests(adminUrl.toString());

    const template = createDatabase(cluster.url, 1);
    try {
      await migrateToLatest(template);
    } finally {
      await template.destroy();
    }
    project.provide('adminDatabaseUrl', adminUrl.toString());
    project.provide('templateDatabase', TEMPLATE_DATABASE);
  } catch (error) {
    await teardown();
    throw error;
  }
  return teardown;
}

/** The cluster is thrown away after the run, so durability only costs time. */
async function tuneForTests(adminUrl: string): Promise<void> {
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  try {
    await client.query('alter system set fsync = off');
    await client.query('alter system set synchronous_commit = off');
    await client.query('alter system set full_page_writes = off');
    await client.query('select pg_reload_conf()');
  } finally {
    await client.end();
  }
}
