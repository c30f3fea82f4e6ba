import { setTimeout as sleep } from 'node:timers/promises';
import type { ErrorResponse } from '@rayo/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openRawConnection, type RawAnswer } from '../../test/raw-http.ts';
import { createTestApp, type TestApp } from '../../test/test-app.ts';

/**
 * A body the server will refuse is refused as soon as that is known, not once it has all arrived:
 * a client sending megabytes slowly must not hold the server reading them.
 */

const BODY_LIMIT = 1024 * 1024;
const CHUNK = 64 * 1024;

let t: TestApp;

beforeAll(async () => {
  t = await createTestApp();
  await t.app.listen({ host: '127.0.0.1', port: 0 });
});
afterAll(() => t?.close());

type Sent = { answer: RawAnswer | undefined; sentBytes: number; totalBytes: number };

/**
 * Sends `head`, then `chunks` of the body one at a time with a pause after each, as chunked
 * transfer coding when `chunked`; stops sending once the server has answered or closed.
 */
async function sendSlowly(head: string, chunks: Buffer[], chunked: boolean): Promise<Sent> {
  const connection = openRawConnection(t.app);
  let answered = false;
  const answer = connection.answer.then((value) => {
    answered = true;
    return value;
  });
  connection.write(head);
  let sentBytes = 0;
  const totalBytes = chunks.reduce((sum, chunk) => sum + chunk.length, 0);
  for (const chunk of chunks) {
    if (answered) break;
    connection.write(
      chunked ? Buffer.concat([Buffer.from(`${chunk.length.toString(16)}\r\n`), chunk, Buffer.from('\r\n')]) : chunk,
    );
    sentBytes += chunk.length;
    await sleep(5);
  }
  if (!answered && chunked) connection.write('0\r\n\r\n');
  const result = { answer: await answer, sentBytes, totalBytes };
  await connection.closed;
  return result;
}

function pieces(total: number, byte: string): Buffer[] {
  return Array.from({ length: Math.ceil(total / CHUNK) }, (_, i) =>
    Buffer.alloc(Math.min(CHUNK, total - i * CHUNK), byte),
  );
}

function headOf(headers: string): string {
  return `POST /api/auth/signup HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n${headers}\r\n`;
}

function expectRefused(sent: Sent, status: number, message: RegExp) {
  expect(sent.answer?.status, sent.answer?.body).toBe(status);
  const body = JSON.parse(sent.answer?.body ?? '') as ErrorResponse;
  expect(body.code).toBe('InvalidInput');
  expect(body.message).toMatch(message);
  expect(sent.answer?.headers.connection).toBe('close');
  // Answered before the client had sent it all, and the connection closed after.
  expect(sent.sentBytes).toBeLessThan(sent.totalBytes);
}

describe('a body past the limit', () => {
  it('is refused from its Content-Length, before any of it is read', async () => {
    const total = 8 * BODY_LIMIT;
    const sent = await sendSlowly(headOf(`Content-Length: ${total}\r\n`), pieces(total, '['), false);
    expectRefused(sent, 413, /body is too large/i);
  });

  it('is refused once a chunked body passes the limit, while the rest is still on its way', async () => {
    const sent = await sendSlowly(headOf('Transfer-Encoding: chunked\r\n'), pieces(8 * BODY_LIMIT, ' '), true);
    expectRefused(sent, 413, /body is too large/i);
  });
});

describe('a JSON body within the limit', () => {
  it('is refused at the first level past the depth limit, not once the megabyte has arrived', async () => {
    const total = BODY_LIMIT - 1;
    const sent = await sendSlowly(headOf(`Content-Length: ${total}\r\n`), pieces(total, '['), false);
    expectRefused(sent, 400, /nests deeper than 32 levels/);
  });

  it('is refused past the number of objects and arrays, chunked or not', async () => {
    // Each nest at the most levels a body may hold, inside the one outer array.
    const unit = Buffer.from(`${'['.repeat(31)}0${']'.repeat(31)},`);
    const body = Buffer.concat([
      Buffer.from('['),
      ...Array<Buffer>(Math.floor((BODY_LIMIT - 2) / unit.length)).fill(unit),
    ]);
    const chunks = Array.from({ length: Math.ceil(body.length / CHUNK) }, (_, i) =>
      body.subarray(i * CHUNK, (i + 1) * CHUNK),
    );
    expectRefused(await sendSlowly(headOf('Transfer-Encoding: chunked\r\n'), chunks, true), 400, /more than 10000/);
    const sized = await sendSlowly(headOf(`Content-Length: ${body.length}\r\n`), chunks, false);
    expectRefused(sized, 400, /more than 10000/);
  });

  it('is still read in full and parsed when its shape is fine', async () => {
    const body = Buffer.from(JSON.stringify({ email: 'a@example.com', padding: ' '.repeat(200_000) }));
    const chunks = Array.from({ length: Math.ceil(body.length / CHUNK) }, (_, i) =>
      body.subarray(i * CHUNK, (i + 1) * CHUNK),
    );
    const sent = await sendSlowly(headOf(`Content-Length: ${body.length}\r\nConnection: close\r\n`), chunks, false);
    expect(sent.sentBytes).toBe(sent.totalBytes);
    // Parsed, and then refused by the route's own schema, not by its shape.
    expect(sent.answer?.status, sent.answer?.body).toBe(400);
    expect(JSON.parse(sent.answer?.body ?? '').message).not.toMatch(/nests|objects and arrays|too large/);
  });
});
