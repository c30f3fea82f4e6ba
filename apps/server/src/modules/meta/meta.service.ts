import { AppError } from '@rayo/shared';
import type { FastifyBaseLogger } from 'fastify';
import { type Db, pingDatabase } from '../../db/database.ts';

/**
 * Ready means the process is not shutting down and the database answers; a load balancer takes
 * the process out of rotation otherwise.
 */
export async function checkReadiness(
  deps: { db: Db; lifecycle?: { draining: boolean } },
  log: FastifyBaseLogger,
): Promise<void> {
  if (deps.lifecycle?.draining) throw new AppError('ServiceUnavailable', 'Rayo is shutting down');
  try {
    await pingDatabase(deps.db);
  } catch (error) {
    log.warn({ err: error }, 'database not reachable; /api/ready answers 503 until it is');
    throw new AppError('ServiceUnavailable', 'The database is not reachable');
  }
}
