import { AppError } from '@rayo/shared';
import type { FastifyBaseLogger } from 'fastify';
import { type Db, pingDatabase } from '../../db/database.ts';

/** Ready means the database answers; a load balancer takes the process out of rotation otherwise. */
export async function checkReadiness(db: Db, log: FastifyBaseLogger): Promise<void> {
  try {
    await pingDatabase(db);
  } catch (error) {
    log.warn({ err: error }, 'database not reachable');
    throw new AppError('ServiceUnavailable', 'The database is not reachable');
  }
}
