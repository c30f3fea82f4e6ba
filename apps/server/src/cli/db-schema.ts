import { chmod, mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { createDatabase } from '../db/database.ts';
import { startEmbeddedPostgres } from '../db/embedded-postgres.ts';
import { migrateToLatest } from '../db/migrate.ts';
import { GENERATED_SCHEMA_FILE, generateSchemaSource } from '../db/schema-codegen.ts';
import { freePort } from '../ports.ts';

// Rewrites db/schema.generated.ts from a throwaway PostgreSQL migrated to the latest; the schema
// test fails while the committed file differs from it.
const dataDir = await mkdtemp(path.join(os.tmpdir(), 'rayo-schema-'));
try {
  // As root, PostgreSQL runs as the `postgres` user, which must reach the cluster directory inside.
  await chmod(dataDir, 0o755);
  const cluster = await startEmbeddedPostgres({ dataDir, port: await freePort(), persistent: false });
  const db = createDatabase(cluster.url, 1);
  try {
    await migrateToLatest(db);
    await writeFile(GENERATED_SCHEMA_FILE, await generateSchemaSource(db));
    console.log(`Wrote ${path.relative(process.cwd(), GENERATED_SCHEMA_FILE)}`);
  } finally {
    await db.destroy();
    await cluster.stop();
  }
} finally {
  await rm(dataDir, { recursive: true, force: true });
}
