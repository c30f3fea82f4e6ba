import { once } from 'node:events';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { AppError } from '@rayo/shared';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { encodeLnurl } from '../../domain/lnurl.ts';
import { type RedeemLnurlWithdrawInput, redeemLnurlWithdraw } from './withdraw-client.ts';

type Reply = { status?: number; contentType?: string; body: string; location?: string };
type Route = (url: URL) => Reply | 'hang';

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
      base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    },
    async stop() {
      server.closeAllConnections();
      server.close();
      await once(server, 'close');
    },
  };
}

const INVOICE = 'lnbcrt25u1pjtestinvoice';

async function refusal(input: Partial<RedeemLnurlWithdrawInput> & { lnurl: string }): Promise<string> {
  try {
    await redeemLnurlWithdraw({
      paymentRequest: INVOICE,
      amountMsat: 2_500_000n,
      allowInsecureLoopback: true,
      ...input,
    });
  } catch (error) {
    expect(error).toBeInstanceOf(AppError);
    expect((error as AppError).code).toBe('InvalidLnurlWithdraw');
    return (error as AppError).message;
  }
  return expect.fail('the withdrawal was accepted');
}

describe('redeemLnurlWithdraw against a LUD-03 service', () => {
  const card = startCardService();
  const cardLink = () => `lnurlw://${card.base.slice('http://'.length)}/ln`;

  beforeAll(() => card.start());
  afterAll(() => card.stop());
  beforeEach(() => card.reset());

  it('reads the card link and sends our invoice to the callback, keeping its own query', async () => {
    await redeemLnurlWithdraw({
      lnurl: cardLink(),
      paymentRequest: INVOICE,
      amountMsat: 2_500_000n,
      allowInsecureLoopback: true,
    });
    expect(card.paid).toEqual([INVOICE]);
    expect(card.requests.map((url) => url.pathname)).toEqual(['/ln', '/ln/callback']);
    const callback = card.requests[1];
    expect(callback?.searchParams.get('session')).toBe('s 1');
    expect(callback?.search).toBe(`?session=s%201&k1=card-k1&pr=${INVOICE}`);
  });

  it('takes the same link as bech32 LNURL and behind lightning:', async () => {
    await redeemLnurlWithdraw({
      lnurl: `lightning:${encodeLnurl(`${card.base}/ln`)}`,
      paymentRequest: INVOICE,
      amountMsat: 1_000n,
      allowInsecureLoopback: true,
    });
    expect(card.paid).toEqual([INVOICE]);
  });

  it('accepts an amount equal to the minimum or the maximum', async () => {
    await redeemLnurlWithdraw({
      lnurl: cardLink(),
      paymentRequest: 'a',
      amountMsat: 1_000n,
      allowInsecureLoopback: true,
    });
    await redeemLnurlWithdraw({
      lnurl: cardLink(),
      paymentRequest: 'b',
      amountMsat: 50_000_000n,
      allowInsecureLoopback: true,
    });
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

  it('reads an ERROR answer whatever its HTTP status', async () => {
    card.override({ '/ln': () => card.json({ status: 'ERROR', reason: 'Card disabled by its owner' }, 403) });
    expect(await refusal({ lnurl: cardLink() })).toBe("The card's service refused: Card disabled by its owner");
  });

  it('refuses an answer that is not JSON', async () => {
    card.override({ '/ln': () => ({ status: 502, contentType: 'text/html', body: '<h1>Bad gateway</h1>' }) });
    expect(await refusal({ lnurl: cardLink() })).toMatch(/other than JSON \(HTTP 502\)/);
  });

  it('does not follow a redirect', async () => {
    card.override({ '/ln': () => ({ status: 302, body: '', location: 'http://example.com/ln' }) });
    expect(await refusal({ lnurl: cardLink() })).toMatch(/HTTP 302/);
    expect(card.requests).toHaveLength(1);
  });

  it('refuses a link whose tag is not withdrawRequest', async () => {
    card.override({
      '/ln': () => card.json({ tag: 'payRequest', callback: `${card.base}/pay`, minSendable: 1, maxSendable: 1 }),
    });
    expect(await refusal({ lnurl: cardLink() })).toBe('This link is not for withdrawing (its tag is "payRequest")');
  });

  it('refuses amounts outside the card limits, before the callback', async () => {
    expect(await refusal({ lnurl: cardLink(), amountMsat: 50_000_001n })).toBe(
      'The card allows at most 50000 sat; this sale is 50000.001 sat',
    );
    expect(await refusal({ lnurl: cardLink(), amountMsat: 999n })).toBe(
      'The card requires at least 1 sat; this sale is 0.999 sat',
    );
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
      [{ ...offer, minWithdrawable: -1 }, /invalid minWithdrawable/],
      [{ ...offer, pinLimit: 2_000_000 }, /PIN/],
    ];
    for (const [answer, message] of cases) {
      card.override({ '/ln': () => card.json(answer) });
      expect(await refusal({ lnurl: cardLink() })).toMatch(message);
    }
    expect(card.paid).toEqual([]);
  });

  it('passes on the reason of a refused callback, and refuses an answer that is not OK', async () => {
    card.override({ '/ln/callback': () => card.json({ status: 'ERROR', reason: 'Insufficient balance' }) });
    expect(await refusal({ lnurl: cardLink() })).toBe("The card's service refused: Insufficient balance");
    card.override({ '/ln/callback': () => card.json({ pr: 'something else' }) });
    expect(await refusal({ lnurl: cardLink() })).toBe("The card's service did not confirm the payment request");
  });

  it('gives up on a service that does not answer in time', async () => {
    card.override({ '/ln': () => 'hang' });
    expect(await refusal({ lnurl: cardLink(), timeoutMs: 300 })).toBe(
      "The card's service did not answer the card read within 0.3 s",
    );
    card.override({ '/ln/callback': () => 'hang' });
    expect(await refusal({ lnurl: cardLink(), timeoutMs: 1_000 })).toBe(
      "The card's service did not answer the payment request within 1 s",
    );
  });

  it('says when the service cannot be reached', async () => {
    const closed = http.createServer();
    closed.listen(0, '127.0.0.1');
    await once(closed, 'listening');
    const port = (closed.address() as AddressInfo).port;
    closed.close();
    await once(closed, 'close');
    expect(await refusal({ lnurl: `lnurlw://127.0.0.1:${port}/ln` })).toBe(
      `The card's service at 127.0.0.1:${port} could not be reached for the card read`,
    );
  });
});
