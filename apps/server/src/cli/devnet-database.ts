import type { Config } from '../config.ts';
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
