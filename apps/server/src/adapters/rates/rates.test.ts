import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { loadConfig } from '../../config.ts';
import { createCoinbaseRateSource } from './coinbase.ts';
import { createFixedRateSource } from './fixed.ts';
import { createRateSource } from './index.ts';
import { createKrakenRateSource } from './kraken.ts';
import { RateSourceError } from './types.ts';
import { createYadioRateSource } from './yadio.ts';

type Handler = (request: IncomingMessage, response: ServerResponse) => void;
type Provider = { url: string; requests: string[] };

const closers: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const close of closers.splice(0)) await close();
});

/** A local provider on 127.0.0.1 that records each request's path and query. */
async function serve(handler: Handler): Promise<Provider> {
  const requests: string[] = [];
  const server = createServer((request, response) => {
    requests.push(request.url ?? '');
    handler(request, response);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  closers.push(
    () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  );
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, requests };
}

function json(status: number, body: unknown): Handler {
  return (_request, response) => {
    response.writeHead(status, { 'content-type': 'application/json' });
    response.end(typeof body === 'string' ? body : JSON.stringify(body));
  };
}

async function failureOf(promise: Promise<unknown>): Promise<RateSourceError> {
  const error = await promise.then(
    () => undefined,
    (reason: unknown) => reason,
  );
  expect(error).toBeInstanceOf(RateSourceError);
  return error as RateSourceError;
}

const coinbaseRates = {
  data: {
    currency: 'BTC',
    rates: { USD: '95123.45', EUR: '88000.5', GTQ: '730000.123', JPY: '14500000.5', KWD: '29000.0004', ZZZ: '1' },
  },
};

describe('Coinbase', () => {
  it('reads the string rates of BTC and returns only the requested currencies it quotes', async () => {
    const provider = await serve(json(200, coinbaseRates));
    const source = createCoinbaseRateSource({ baseUrl: provider.url });
    const rates = await source.fetchRates(['USD', 'GTQ', 'JPY', 'KWD', 'VES', 'SAT', 'ZZZ', 'USD']);
    expect(rates).toEqual([
      { currency: 'USD', rateMinorPerBtc: 9_512_345n },
      { currency: 'GTQ', rateMinorPerBtc: 73_000_012n },
      { currency: 'JPY', rateMinorPerBtc: 14_500_001n },
      { currency: 'KWD', rateMinorPerBtc: 29_000_000n },
    ]);
    expect(provider.requests).toEqual(['/v2/exchange-rates?currency=BTC']);
    expect(source.name).toBe('coinbase');
  });

  it('keeps a base URL’s path and asks nothing when no fiat currency is wanted', async () => {
    const provider = await serve(json(200, coinbaseRates));
    const source = createCoinbaseRateSource({ baseUrl: `${provider.url}/proxy/` });
    expect(await source.fetchRates(['EUR'])).toEqual([{ currency: 'EUR', rateMinorPerBtc: 8_800_050n }]);
    expect(await source.fetchRates(['SAT'])).toEqual([]);
    expect(provider.requests).toEqual(['/proxy/v2/exchange-rates?currency=BTC']);
  });

  it('fails on HTTP errors, with the status and the provider’s message', async () => {
    const provider = await serve(json(503, { errors: [{ id: 'service_unavailable', message: 'try later' }] }));
    const error = await failureOf(createCoinbaseRateSource({ baseUrl: provider.url }).fetchRates(['USD']));
    expect(error.message).toMatch(/HTTP 503.*try later/);
  });

  it('fails on answers that are not JSON or not rates of BTC', async () => {
    for (const body of ['<html>maintenance</html>', { data: { currency: 'USD', rates: { BTC: '0.00001' } } }, {}, []]) {
      const provider = await serve(json(200, body));
      await failureOf(createCoinbaseRateSource({ baseUrl: provider.url }).fetchRates(['USD']));
    }
  });

  it('fails on a requested price that is not positive or not a number', async () => {
    for (const price of ['0', '-1', 'n/a', true, {}]) {
      const provider = await serve(json(200, { data: { currency: 'BTC', rates: { USD: price } } }));
      const error = await failureOf(createCoinbaseRateSource({ baseUrl: provider.url }).fetchRates(['USD']));
      expect(error.message).toMatch(/USD/);
    }
  });

  it('gives up after the timeout', async () => {
    const provider = await serve(() => {
      // Never answers.
    });
    const started = Date.now();
    const error = await failureOf(
      createCoinbaseRateSource({ baseUrl: provider.url, timeoutMs: 200 }).fetchRates(['USD']),
    );
    expect(error.message).toMatch(/deadline/);
    expect(Date.now() - started).toBeLessThan(5000);
  });

  it('times out a body that stalls after the headers too', async () => {
    const provider = await serve((_request, response) => {
      response.writeHead(200, { 'content-type': 'application/json' });
      response.write('{"data":');
    });
    await failureOf(createCoinbaseRateSource({ baseUrl: provider.url, timeoutMs: 200 }).fetchRates(['USD']));
  });

  it('fails when nothing listens', async () => {
    const provider = await serve(json(200, coinbaseRates));
    for (const close of closers.splice(0)) await close();
    const error = await failureOf(createCoinbaseRateSource({ baseUrl: provider.url }).fetchRates(['USD']));
    expect(error.message).toMatch(/ECONNREFUSED|fetch failed/);
  });
});

/** Kraken's ticker for the pairs it lists, under its own pair names, and its error for the others. */
function kraken(pairs: Record<string, { key: string; last: string }>): Handler {
  return (request, response) => {
    const pair = new URL(request.url ?? '', 'http://kraken').searchParams.get('pair') ?? '';
    const listed = pairs[pair];
    const body = listed
      ? {
          error: [],
          result: {
            [listed.key]: {
              a: ['95001.00000', '1', '1.000'],
              b: ['95000.90000', '2', '2.000'],
              c: [listed.last, '0.00100000'],
              v: ['1000.1', '2000.2'],
              p: ['94000.1', '93000.2'],
              t: [10000, 20000],
              l: ['93000.0', '92000.0'],
              h: ['96000.0', '97000.0'],
              o: '94500.0',
            },
          },
        }
      : { error: ['EQuery:Unknown asset pair'] };
    json(200, body)(request, response);
  };
}

describe('Kraken', () => {
  it('asks per pair, reads the last trade of the one result key, and skips pairs Kraken does not list', async () => {
    const provider = await serve(
      kraken({
        XBTUSD: { key: 'XXBTZUSD', last: '95123.45600' },
        XBTCHF: { key: 'XBTCHF', last: '84000.00000' },
      }),
    );
    const source = createKrakenRateSource({ baseUrl: provider.url });
    expect(await source.fetchRates(['USD', 'GTQ', 'CHF', 'SAT'])).toEqual([
      { currency: 'USD', rateMinorPerBtc: 9_512_346n },
      { currency: 'CHF', rateMinorPerBtc: 8_400_000n },
    ]);
    expect(provider.requests).toEqual([
      '/0/public/Ticker?pair=XBTUSD',
      '/0/public/Ticker?pair=XBTGTQ',
      '/0/public/Ticker?pair=XBTCHF',
    ]);

    // An unlisted pair is not asked for again.
    await source.fetchRates(['USD', 'GTQ']);
    expect(provider.requests.slice(3)).toEqual(['/0/public/Ticker?pair=XBTUSD']);
    expect(source.name).toBe('kraken');
  });

  it('fails on other errors Kraken reports', async () => {
    const provider = await serve(json(200, { error: ['EGeneral:Too many requests'] }));
    const error = await failureOf(createKrakenRateSource({ baseUrl: provider.url }).fetchRates(['USD']));
    expect(error.message).toMatch(/Too many requests/);
  });

  it('fails on tickers without a last trade price, and on HTTP errors', async () => {
    for (const body of [
      { error: [], result: {} },
      { error: [], result: { XXBTZUSD: { a: ['1', '1', '1'] } } },
      { result: {} },
    ]) {
      const provider = await serve(json(200, body));
      await failureOf(createKrakenRateSource({ baseUrl: provider.url }).fetchRates(['USD']));
    }
    const provider = await serve(json(520, 'origin error'));
    const error = await failureOf(createKrakenRateSource({ baseUrl: provider.url }).fetchRates(['USD']));
    expect(error.message).toMatch(/HTTP 520/);
  });
});

describe('Yadio', () => {
  it('reads the number rates of BTC for the requested currencies it quotes', async () => {
    const provider = await serve(
      json(200, { BTC: { USD: 95123.45, GTQ: 730000.126, ARS: 110000000, VES: 8.5e6 }, base: 'BTC', timestamp: 1 }),
    );
    const source = createYadioRateSource({ baseUrl: provider.url });
    expect(await source.fetchRates(['GTQ', 'ARS', 'USD', 'MXN', 'VES'])).toEqual([
      { currency: 'GTQ', rateMinorPerBtc: 73_000_013n },
      { currency: 'ARS', rateMinorPerBtc: 11_000_000_000n },
      { currency: 'USD', rateMinorPerBtc: 9_512_345n },
      { currency: 'VES', rateMinorPerBtc: 850_000_000n },
    ]);
    expect(provider.requests).toEqual(['/exrates/BTC']);
    expect(source.name).toBe('yadio');
  });

  it('fails on answers without BTC rates and on unusable prices', async () => {
    for (const body of [{ error: 'not found' }, { BTC: 95000 }, { BTC: { USD: 0 } }, { BTC: { USD: 'abc' } }]) {
      const provider = await serve(json(200, body));
      await failureOf(createYadioRateSource({ baseUrl: provider.url }).fetchRates(['USD']));
    }
  });

  it('gives up after the timeout', async () => {
    const provider = await serve(() => {
      // Never answers.
    });
    await failureOf(createYadioRateSource({ baseUrl: provider.url, timeoutMs: 200 }).fetchRates(['USD']));
  });
});

describe('fixed rates', () => {
  it('prices the configured currencies from major-unit prices', async () => {
    const source = createFixedRateSource(' USD=95000.5 , gtq=730000,JPY=14500000,BHD=35000.125');
    expect(source.name).toBe('fixed');
    expect(source.currencies).toEqual(['USD', 'GTQ', 'JPY', 'BHD']);
    expect(await source.fetchRates(['GTQ', 'EUR', 'USD', 'BHD', 'JPY', 'SAT'])).toEqual([
      { currency: 'GTQ', rateMinorPerBtc: 73_000_000n },
      { currency: 'USD', rateMinorPerBtc: 9_500_050n },
      { currency: 'BHD', rateMinorPerBtc: 35_000_125n },
      { currency: 'JPY', rateMinorPerBtc: 14_500_000n },
    ]);
  });

  it('refuses a spec it cannot read, saying what is wrong', () => {
    const bad: Array<[string, RegExp]> = [
      ['', /"" is not CODE=price/],
      ['USD', /"USD" is not CODE=price/],
      ['USD=95000,', /"" is not CODE=price/],
      ['USD=1=2', /not CODE=price/],
      ['XYZ=1', /"XYZ" is not an ISO 4217/],
      ['SAT=1', /"SAT" is not an ISO 4217/],
      ['USD=95000,USD=96000', /USD is given twice/],
      ['USD=0', /not positive/],
      ['USD=-5', /not a number/],
      ['USD=abc', /not a number/],
    ];
    for (const [spec, reason] of bad) {
      expect(() => createFixedRateSource(spec), spec).toThrow(reason);
      expect(() => createFixedRateSource(spec), spec).toThrow(/Invalid FIXED_RATES/);
    }
  });
});

describe('createRateSource', () => {
  it('builds the configured source, at RATE_SOURCE_URL when set', async () => {
    expect(createRateSource(loadConfig({})).name).toBe('fixed');
    expect(await createRateSource(loadConfig({ FIXED_RATES: 'EUR=88000' })).fetchRates(['EUR'])).toEqual([
      { currency: 'EUR', rateMinorPerBtc: 8_800_000n },
    ]);
    expect(() => createRateSource(loadConfig({ FIXED_RATES: 'EUR=x' }))).toThrow(/Invalid FIXED_RATES/);

    const coinbase = await serve(json(200, coinbaseRates));
    const fromCoinbase = createRateSource(loadConfig({ RATE_SOURCE: 'coinbase', RATE_SOURCE_URL: coinbase.url }));
    expect(await fromCoinbase.fetchRates(['EUR'])).toEqual([{ currency: 'EUR', rateMinorPerBtc: 8_800_050n }]);

    const krakenProvider = await serve(kraken({ XBTEUR: { key: 'XXBTZEUR', last: '88000.1' } }));
    const fromKraken = createRateSource(loadConfig({ RATE_SOURCE: 'kraken', RATE_SOURCE_URL: krakenProvider.url }));
    expect(await fromKraken.fetchRates(['EUR'])).toEqual([{ currency: 'EUR', rateMinorPerBtc: 8_800_010n }]);

    const yadio = await serve(json(200, { BTC: { EUR: 88000.1 }, base: 'BTC', timestamp: 1 }));
    const fromYadio = createRateSource(loadConfig({ RATE_SOURCE: 'yadio', RATE_SOURCE_URL: yadio.url }));
    expect(await fromYadio.fetchRates(['EUR'])).toEqual([{ currency: 'EUR', rateMinorPerBtc: 8_800_010n }]);
  });
});
