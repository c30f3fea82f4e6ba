import { AppError, type LnurlError } from '@rayo/shared';
import type { FastifyReply } from 'fastify';

/**
 * LNURL answers are read by wallets on other origins, always with HTTP 200 and the outcome in the
 * body (LUD-01): a refusal is `{status: 'ERROR', reason}`, not Rayo's own error shape.
 */
export async function lnurlAnswer<T>(reply: FastifyReply, run: () => Promise<T>): Promise<T | LnurlError> {
  reply.header('access-control-allow-origin', '*');
  try {
    return await run();
  } catch (error) {
    if (error instanceof AppError) return { status: 'ERROR', reason: error.message };
    throw error;
  }
}
