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
  /** Every delivery id that arrived, answered or not, in order. */
  const arrivals: string[] = [];
  let answer = 200;
  let hold: ((deliveryId: string) => void) | undefined;
  const server = http.createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const deliveryId = String(request.headers['rayo-delivery']);
      arrivals.push(deliveryId);
      if (hold) {
        // Left unanswered: the sender is still waiting when the test acts.
        hold(deliveryId);
        hold = undefined;
        return;
      }
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
          deliveryId,
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
    arrivals,
    url: () => `http://127.0.0.1:${port}/hooks`,
    /** The delivery id of the next arrival, which is left without an answer. */
    holdNext: () =>
      new Promise<string>((resolve) => {
        hold = resolve;
      }),
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

/** Makes the queued job keyed `key` due now, as if its wait (a retry's backoff) had passed. */
export async function makeJobDue(db: Db, key: string): Promise<void> {
  await sql`update graphile_worker._private_jobs set run_at = now() where key = ${key}`.execute(db);
}

/** Makes the periodic pass `task`'s next run due now, as if its interval had passed since the last. */
export async function makePeriodicPassDue(db: Db, task: string): Promise<void> {
  await sql`update periodic_pass_runs set started_at = '-infinity' where task = ${task}`.execute(db);
  await makeJobDue(db, task);
}

/** The server process whose job runner holds the job keyed `key` (jobs/job-queue.repo.ts registers them). */
export async function findJobHolder(db: Db, key: string): Promise<{ host: string; pid: number } | undefined> {
  const { rows } = await sql<{ host: string; pid: number }>`
    select r.host, r.pid from graphile_worker._private_jobs j join job_runners r on r.pool_id = j.locked_by
    where j.key = ${key}`.execute(db);
  return rows[0];
}
