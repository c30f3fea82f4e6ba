import { type Config, loadConfig } from '../config.ts';
import type { Db } from '../db/database.ts';
import { runningClusterUrl } from '../db/embedded-postgres.ts';
import { type OpenDatabase, openDatabase } from '../db/open-database.ts';

/**
 * A running server's embedded PostgreSQL holds the data directory, so a second one cannot start on
 * it: join the running one first (on the port it really took), and start it only when nothing
 * answers.
 */
export async function openDevnetDatabase(config: Config): Promise<OpenDatabase> {
  if (config.databaseUrl) return openDatabase(config, () => {});
  const url = await runningClusterUrl(config.dataDir);
  if (url) {
    try {
      return await openDatabase({ ...config, databaseUrl: url }, () => {});
    } catch {
      // Nothing listens there: the server is not running, so start the cluster ourselves.
    }
  }
  return openDatabase(config, () => {});
}

/**
 * The frame of a devnet command: reads the configuration, refuses when `refusal` names a reason
 * (exit 2), joins or starts the database (exit 1 when it cannot), runs `work`, and reports a
 * failure as `<failure>: <reason>` (exit 1).
 */
export async function runDevnetCommand(command: {
  refusal: (config: Config) => string | undefined;
  failure: string;
  work: (db: Db) => Promise<void>;
}): Promise<never> {
  let config: Config;
  try {
    config = loadConfig();
  } catch (error) {
    console.error(error instanceof Error ? error.message : error);
    process.exit(2);
  }
  const refusal = command.refusal(config);
  if (refusal) {
    console.error(refusal);
    process.exit(2);
  }
  const database = await openDevnetDatabase(config).catch((error: unknown) => {
    console.error(`Cannot open the database: ${error instanceof Error ? error.message : error}`);
    process.exit(1);
  });
  let exitCode = 0;
  try {
    await command.work(database.db);
  } catch (error) {
    console.error(`${command.failure}: ${error instanceof Error ? error.message : error}`);
    exitCode = 1;
  } finally {
    await database.close();
  }
  // The embedded PostgreSQL package exits with 0 on beforeExit, which would hide a failure.
  process.exit(exitCode);
}
