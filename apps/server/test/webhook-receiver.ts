import { createHmac, timingSafeEqual } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { sql } from 'kysely';
import type { Db } from '../src/db/database.ts';

/**
 * A merchant's webhook receiver on loopback. It checks each signature with its own code (the
 * documented scheme, written here from docs/api.md, not our signer) and records what arrived.
 */
type Received = { deliveryId: string; event: string; body: string; parsed: Record<string, unknown>; valid: boolean };

export async function startReceiver(secretFor: () => string) {
  const received: Received[] = [];
  let answer = 200;
  const server = http.createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      const header = String(request.headers['rayo-signature'] ?? '');
      const match = /^t=(\d+),v1=([0-9a-f]{64})$/.exec(header);
      let valid = false;
      if (match) {
        const expected = createHmac('sha256', secretFor()).update(`${match[1]}.${body}`).digest();
        const fresh = Math.abs(Date.now() / 1000 - Number(match[1])) < 300;
        valid = fresh && timingSafeEqual(expected, Buffer.from(match[2] as string, 'hex'));
      }
      if (answer === 200) {
        received.push({
          deliveryId: String(request.headers['rayo-delivery']),
          event: String(request.headers['rayo-event']),
          body,
          parsed: JSON.parse(body),
          valid: valid && request.headers['content-type'] === 'application/json',
        });
      }
      response.writeHead(answer).end();
    });
  });
  let port = 0;
  const listen = () =>
    new Promise<void>((resolve) => {
      server.listen(port, '127.0.0.1', () => {
        port = (server.address() as AddressInfo).port;
        resolve();
      });
    });
  await listen();
  return {
    received,
    url: () => `http://127.0.0.1:${port}/hooks`,
    answerWith: (status: number) => {
      answer = status;
    },
    /** Down: connections are refused until `start`. */
    stop: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
    start: listen,
  };
}

/** Makes the queued job keyed `key` due now, as if its wait (a retry's backoff, a pass's interval) had passed. */
export async function makeJobDue(db: Db, key: string): Promise<void> {
  await sql`update graphile_worker._private_jobs set run_at = now() where key = ${key}`.execute(db);
}
