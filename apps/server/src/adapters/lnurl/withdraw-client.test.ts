import { once } from 'node:events';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { AppError } from '@rayo/shared';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { encodeLnurl } from '../../domain/lnurl.ts';
import {
  type LnurlLog,
  MAX_ANSWER_BYTES,
  type RedeemLnurlWithdrawInput,
  redeemLnurlWithdraw,
} from './withdraw-client.ts';

type Reply = { status?: number; contentType?: string; body: string; location?: string };
/** A reply, 'hang' for none, or a function that writes the response itself (slowly, endlessly). */
type Route = (url: URL) => Reply | 'hang' | ((response: http.ServerResponse) => void);

/**
 * A Bolt Card LNURL-withdraw service on 127.0.0.1 speaking LUD-03: the card URL answers the
 * withdrawRequest, the callback checks k1 and takes the invoice once. Tests override single routes
 * to misbehave.
 */
function startCardService() {
  const requests: URL[] = [];
  const paid: string[] = [];
  let overrides: Record<string, Route> = {};
  let base = '';
  const json = (value: unknown, status = 200): Reply => ({ status, body: JSON.stringify(value) });
  const standard: Record<string, Route> = {
    '/ln': () =>
      json({
        tag: 'withdrawRequest',
        callback: `${base}/ln/callback?session=s%201`,
        k1: 'card-k1',
        defaultDescription: 'Bolt Card',
        minWithdrawable: 1_000,
        maxWithdrawable: 50_000_000,
      }),
    '/ln/callback': (url) => {
      if (url.searchParams.get('k1') !== 'card-k1') return json({ status: 'ERROR', reason: 'Unknown k1' });
      const pr = url.searchParams.get('pr');
      if (!pr) return json({ status: 'ERROR', reason: 'Missing invoice' });
      paid.push(pr);
      return json({ status: 'OK' });
    },
  };
  const server = http.createServer((request, response) => {
    const url = new URL(request.url ?? '/', base);
    requests.push(url);
    const route = overrides[url.pathname] ?? standard[url.pathname];
    const reply = route ? route(url) : json({ status: 'ERROR', reason: 'Not found' }, 404);
    if (reply === 'hang') return;
    if (typeof reply === 'function') return reply(response);
    response.writeHead(reply.status ?? 200, {
      'content-type': reply.contentType ?? 'application/json',
      'access-control-allow-origin': '*',
      ...(reply.location ? { location: reply.location } : {}),
    });
    response.end(reply.body);
  });
  return {
    requests,
    paid,
    json,
    get base() {
      return base;
    },
    get port() {
      return (server.address() as AddressInfo).port;
    },
    override(routes: Record<string, Route>) {
      overrides = routes;
    },
    reset() {
      overrides = {};
      requests.length = 0;
      paid.length = 0;
    },
    async start() {
      server.listen(0, '127.0.0.1');
      await once(server, 'listening');
      base = `http://127.0.0.1:${this.port}`;
    },
    async stop() {
      server.closeAllConnections();
      server.close();
      await once(server, 'close');
    },
  };
}

const INVOICE = 'lnbcrt25u1pjtestinvoice';

/** Collects what the client logs, to show that the details stay on the server. */
function collectingLog(): LnurlLog & { entries: object[] } {
  const entries: object[] = [];
  return { entries, debug: (details) => entries.push(details) };
}

async function refusal(input: Partial<RedeemLnurlWithdrawInput> & { lnurl: string }): Promise<string> {
  try {
    await redeemLnurlWithdraw({
      paymentRequest: INVOICE,
      amountMsat: 2_500_000n,
      allowInsecureLoopback: true,
      allowPrivateAddresses: true,
      log: collectingLog(),
      ...input,
    });
  } catch (error) {
    expect(error).toBeInstanceOf(AppError);
    expect((error as AppError).code).toBe('InvalidLnurlWithdraw');
    return (error as AppError).message;
  }
  return expect.fail('the withdrawal was accepted');
}

function redeem(input: Partial<RedeemLnurlWithdrawInput> & { lnurl: string }) {
  return redeemLnurlWithdraw({
    paymentRequest: INVOICE,
    amountMsat: 2_500_000n,
    allowInsecureLoopback: true,
    allowPrivateAddresses: true,
    log: collectingLog(),
    ...input,
  });
}

describe('redeemLnurlWithdraw against a LUD-03 service', () => {
  const card = startCardService();
  const cardLink = () => `lnurlw://${card.base.slice('http://'.length)}/ln`;

  beforeAll(() => card.start());
  afterAll(() => card.stop());
  beforeEach(() => card.reset());

  it('reads the card link and sends our invoice to the callback, keeping its own query', async () => {
    await redeem({ lnurl: cardLink() });
    expect(card.paid).toEqual([INVOICE]);
    expect(card.requests.map((url) => url.pathname)).toEqual(['/ln', '/ln/callback']);
    const callback = card.requests[1];
    expect(callback?.searchParams.get('session')).toBe('s 1');
    expect(callback?.search).toBe(`?session=s%201&k1=card-k1&pr=${INVOICE}`);
  });

  it('takes the same link as bech32 LNURL and behind lightning:', async () => {
    await redeem({ lnurl: `lightning:${encodeLnurl(`${card.base}/ln`)}`, amountMsat: 1_000n });
    expect(card.paid).toEqual([INVOICE]);
  });

  it('accepts an amount equal to the minimum or the maximum', async () => {
    await redeem({ lnurl: cardLink(), paymentRequest: 'a', amountMsat: 1_000n });
    await redeem({ lnurl: cardLink(), paymentRequest: 'b', amountMsat: 50_000_000n });
    expect(card.paid).toEqual(['a', 'b']);
  });

  it('refuses plain HTTP unless loopback is allowed, without calling the service', async () => {
    expect(await refusal({ lnurl: `${card.base}/ln`, allowInsecureLoopback: false })).toMatch(/HTTPS/);
    expect(await refusal({ lnurl: encodeLnurl(`${card.base}/ln`), allowInsecureLoopback: false })).toMatch(/HTTPS/);
    expect(card.requests).toEqual([]);
  });

  it('refuses what is not an LNURL', async () => {
    expect(await refusal({ lnurl: 'hello' })).toMatch(/not an LNURL-withdraw link/);
  });

  it('reads an ERROR answer whatever its HTTP status, and keeps its reason out of the message', async () => {
    const log = collectingLog();
    card.override({ '/ln': () => card.json({ status: 'ERROR', reason: 'Card disabled by its owner' }, 403) });
    expect(await refusal({ lnurl: cardLink(), log })).toBe("The card's service refused the card read");
    expect(JSON.stringify(log.entries)).toContain('Card disabled by its owner');
  });

  it('refuses an answer that is not JSON, without echoing it or its status', async () => {
    card.override({ '/ln': () => ({ status: 502, contentType: 'text/html', body: '<h1>Internal admin</h1>' }) });
    expect(await refusal({ lnurl: cardLink() })).toBe("The card's service gave an invalid answer to the card read");
  });

  it('does not follow a redirect', async () => {
    card.override({ '/ln': () => ({ status: 302, body: '', location: 'http://example.com/ln' }) });
    expect(await refusal({ lnurl: cardLink() })).toBe("The card's service could not be reached for the card read");
    expect(card.requests).toHaveLength(1);
  });

  it('refuses a link whose tag is not withdrawRequest, without echoing the tag', async () => {
    card.override({
      '/ln': () => card.json({ tag: '<script>alert(1)</script>', callback: `${card.base}/pay`, k1: 'x' }),
    });
    expect(await refusal({ lnurl: cardLink() })).toBe('This link is not for withdrawing');
  });

  it('refuses amounts outside the card limits, before the callback', async () => {
    expect(await refusal({ lnurl: cardLink(), amountMsat: 50_000_001n })).toBe(
      'This sale is above what the card allows',
    );
    expect(await refusal({ lnurl: cardLink(), amountMsat: 999n })).toBe('This sale is below what the card requires');
    expect(card.requests.map((url) => url.pathname)).toEqual(['/ln', '/ln']);
  });

  it('refuses malformed withdraw requests', async () => {
    const offer = {
      tag: 'withdrawRequest',
      callback: `${card.base}/ln/callback`,
      k1: 'card-k1',
      minWithdrawable: 1_000,
      maxWithdrawable: 5_000_000,
    };
    const cases: [Record<string, unknown>, RegExp][] = [
      [{ ...offer, k1: '' }, /no k1/],
      [{ ...offer, callback: undefined }, /no callback/],
      [{ ...offer, callback: 'not a url' }, /not a URL/],
      [{ ...offer, callback: 'http://example.com/cb' }, /not HTTPS/],
      [{ ...offer, maxWithdrawable: '5000000' }, /invalid maxWithdrawable/],
      [{ ...offer, maxWithdrawable: 2 ** 60 }, /invalid maxWithdrawable/],
      [{ ...offer, minWithdrawable: -1 }, /invalid minWithdrawable/],
      [{ ...offer, pinLimit: 2_000_000 }, /PIN/],
    ];
    for (const [answer, message] of cases) {
      card.override({ '/ln': () => card.json(answer) });
      expect(await refusal({ lnurl: cardLink() })).toMatch(message);
    }
    expect(card.paid).toEqual([]);
  });

  it('keeps the reason of a refused callback out of the message, and refuses an answer that is not OK', async () => {
    card.override({ '/ln/callback': () => card.json({ status: 'ERROR', reason: 'Insufficient balance' }) });
    expect(await refusal({ lnurl: cardLink() })).toBe("The card's service refused the payment request");
    card.override({ '/ln/callback': () => card.json({ pr: 'something else' }) });
    expect(await refusal({ lnurl: cardLink() })).toBe("The card's service did not confirm the payment request");
  });

  it('gives up on a service that does not answer in time', async () => {
    card.override({ '/ln': () => 'hang' });
    expect(await refusal({ lnurl: cardLink(), timeoutMs: 300 })).toBe(
      "The card's service did not answer the card read in time",
    );
  });

  it('gives the whole exchange one deadline, not one per request', async () => {
    const late = (reply: Reply) => (response: http.ServerResponse) => {
      setTimeout(() => response.writeHead(200, { 'content-type': 'application/json' }).end(reply.body), 350);
    };
    const standardOffer = card.json({
      tag: 'withdrawRequest',
      callback: `${card.base}/ln/callback`,
      k1: 'card-k1',
      minWithdrawable: 1_000,
      maxWithdrawable: 50_000_000,
    });
    card.override({ '/ln': () => late(standardOffer), '/ln/callback': () => late(card.json({ status: 'OK' })) });
    expect(await refusal({ lnurl: cardLink(), timeoutMs: 600 })).toBe(
      "The card's service did not answer the payment request in time",
    );
  });

  it('cuts off an answer that trickles past the deadline', async () => {
    card.override({
      '/ln': () => (response) => {
        response.writeHead(200, { 'content-type': 'application/json' });
        response.write('{"tag":"withdrawRequest",');
        const drip = setInterval(() => response.write(' '), 50);
        response.on('close', () => clearInterval(drip));
      },
    });
    expect(await refusal({ lnurl: cardLink(), timeoutMs: 500 })).toBe(
      "The card's service did not answer the card read in time",
    );
  });

  it('cuts off an oversized answer as it arrives, not at its end', async () => {
    const padding = 'x'.repeat(MAX_ANSWER_BYTES);
    card.override({ '/ln': () => card.json({ tag: 'withdrawRequest', padding }) });
    expect(await refusal({ lnurl: cardLink() })).toBe("The card's service gave an invalid answer to the card read");

    // An answer that never ends is refused once past the cap, long before the deadline.
    card.override({
      '/ln': () => (response) => {
        response.writeHead(200, { 'content-type': 'application/json' });
        const chunk = ' '.repeat(16 * 1024);
        const pour = () => {
          while (!response.destroyed && response.write(chunk));
          if (!response.destroyed) response.once('drain', pour);
        };
        pour();
      },
    });
    const started = Date.now();
    expect(await refusal({ lnurl: cardLink(), timeoutMs: 20_000 })).toBe(
      "The card's service gave an invalid answer to the card read",
    );
    expect(Date.now() - started).toBeLessThan(5_000);
  });

  it('says when the service cannot be reached', async () => {
    const closed = http.createServer();
    closed.listen(0, '127.0.0.1');
    await once(closed, 'listening');
    const port = (closed.address() as AddressInfo).port;
    closed.close();
    await once(closed, 'close');
    expect(await refusal({ lnurl: `lnurlw://127.0.0.1:${port}/ln` })).toBe(
      "The card's service could not be reached for the card read",
    );
  });
});

describe('redeemLnurlWithdraw reaches public addresses only', () => {
  const card = startCardService();
  const other = startCardService();

  beforeAll(async () => {
    await card.start();
    await other.start();
  });
  afterAll(async () => {
    await card.stop();
    await other.stop();
  });
  beforeEach(() => {
    card.reset();
    other.reset();
  });

  const unreachable = "The card's service could not be reached for the card read";

  it('refuses a loopback address unless private hosts are allowed', async () => {
    const log = collectingLog();
    const lnurl = `lnurlw://127.0.0.1:${card.port}/ln`;
    expect(await refusal({ lnurl, allowPrivateAddresses: false, log })).toBe(unreachable);
    expect(card.requests).toEqual([]);
    expect(JSON.stringify(log.entries)).toContain('not a public address');

    await redeem({ lnurl, allowPrivateAddresses: true });
    expect(card.paid).toEqual([INVOICE]);
  });

  it('refuses a name that resolves to loopback, checked after resolution', async () => {
    const log = collectingLog();
    expect(await refusal({ lnurl: `lnurlw://localhost:${card.port}/ln`, allowPrivateAddresses: false, log })).toBe(
      unreachable,
    );
    expect(card.requests).toEqual([]);
    expect(JSON.stringify(log.entries)).toMatch(/ENONPUBLIC|resolves to/);
  });

  it.each([
    ['the cloud metadata service', 'https://169.254.169.254/latest/meta-data/'],
    ['the metadata service over IPv6', 'https://[fd00:ec2::254]/latest/meta-data/'],
    ['a private network', 'https://10.0.0.1/ln'],
    ['carrier-grade NAT', 'https://100.64.0.1/ln'],
    ['IPv6 link-local', 'https://[fe80::1]/ln'],
    ['the unspecified address', 'https://0.0.0.0/ln'],
    ['IPv4-mapped loopback', 'https://[::ffff:127.0.0.1]/ln'],
    ['loopback in hex', 'https://0x7f.1/ln'],
    ['loopback as one number', 'https://2130706433/ln'],
  ])('refuses %s without connecting (%s)', async (_, lnurl) => {
    const log = collectingLog();
    expect(await refusal({ lnurl, allowPrivateAddresses: false, log })).toBe(unreachable);
    expect(JSON.stringify(log.entries)).toContain('not a public address');
  });

  it('refuses a callback on a private address', async () => {
    card.override({
      '/ln': () =>
        card.json({
          tag: 'withdrawRequest',
          callback: `${other.base}/ln/callback`,
          k1: 'card-k1',
          minWithdrawable: 1_000,
          maxWithdrawable: 50_000_000,
        }),
    });
    expect(await refusal({ lnurl: `${card.base}/ln`, allowPrivateAddresses: false, trustedOrigin: card.base })).toBe(
      "The card's service could not be reached for the payment request",
    );
    expect(other.requests).toEqual([]);
  });

  it('reaches the trusted origin only, and follows no redirect from it to loopback', async () => {
    await redeem({ lnurl: `${card.base}/ln`, allowPrivateAddresses: false, trustedOrigin: card.base });
    expect(card.paid).toEqual([INVOICE]);

    card.override({ '/ln': () => ({ status: 307, body: '', location: `${other.base}/ln` }) });
    expect(await refusal({ lnurl: `${card.base}/ln`, allowPrivateAddresses: false, trustedOrigin: card.base })).toBe(
      unreachable,
    );
    expect(other.requests).toEqual([]);
  });
});
