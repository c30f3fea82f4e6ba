import { AppError, type Currency } from '@rayo/shared';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  bearer,
  createTestApp,
  createTestDatabase,
  createTestOrganization,
  createTestUser,
  signIn,
  type TestDatabase,
} from '../../../test/test-app.ts';
import { createFixedRateSource } from '../../adapters/rates/fixed.ts';
import { type Rate, type RateSource, RateSourceError } from '../../adapters/rates/types.ts';
import { loadConfig } from '../../config.ts';
import { createDatabase, type Db } from '../../db/database.ts';
import { findRate, listRates, upsertRates } from './rates.repo.ts';
import { getRateForInvoice, listCurrencies, refreshRates, type Schedule, startRateRefresh } from './rates.service.ts';

let database: TestDatabase;
let db: Db;

beforeAll(async () => {
  database = await createTestDatabase();
  db = createDatabase(database.url, 2);
});
afterAll(async () => {
  await db?.destroy();
  await database?.drop();
});
beforeEach(async () => {
  await db.deleteFrom('rates').execute();
});

const config = loadConfig({ RATE_MAX_AGE_SECONDS: '600' });

/** A rate source that prices from a table the test changes, and records what it was asked. */
function tableSource(prices: Record<string, bigint>) {
  const asked: string[][] = [];
  const source: RateSource & { asked: string[][] } = {
    name: 'table',
    asked,
    async fetchRates(currencies: readonly string[]): Promise<Rate[]> {
      asked.push([...currencies]);
      return currencies.flatMap((currency) => {
        const rateMinorPerBtc = prices[currency];
        return rateMinorPerBtc === undefined ? [] : [{ currency, rateMinorPerBtc }];
      });
    },
  };
  return source;
}

async function errorCodeOf(promise: Promise<unknown>): Promise<string | undefined> {
  const error = await promise.then(
    () => undefined,
    (reason: unknown) => reason,
  );
  return error instanceof AppError ? error.code : String(error);
}

describe('refreshRates', () => {
  it('stores the source’s rates, by default for the defaults and the fixed source’s own currencies', async () => {
    const before = Date.now();
    const stored = await refreshRates({ db, rateSource: createFixedRateSource('USD=95000,GTQ=730000,VES=8500000') });
    expect(stored.map((rate) => [rate.currency, rate.rateMinorPerBtc, rate.source])).toEqual([
      ['GTQ', 73_000_000n, 'fixed'],
      ['USD', 9_500_000n, 'fixed'],
      ['VES', 850_000_000n, 'fixed'],
    ]);
    expect(await listRates(db)).toEqual(stored);
    const usd = await findRate(db, 'USD');
    expect(usd?.fetchedAt.getTime()).toBeGreaterThanOrEqual(before - 1000);
    expect(usd?.fetchedAt.getTime()).toBeLessThanOrEqual(Date.now() + 1000);
  });

  it('asks for the cached currencies and the default list, never SAT, and replaces older rates', async () => {
    await upsertRates(db, [
      { currency: 'VND', rateMinorPerBtc: 1n, source: 'old', fetchedAt: new Date('2020-01-01T00:00:00Z') },
      { currency: 'USD', rateMinorPerBtc: 1n, source: 'old', fetchedAt: new Date('2020-01-01T00:00:00Z') },
    ]);
    const source = tableSource({ USD: 9_600_000n, VND: 2_500_000_000n, GTQ: 74_000_000n });
    const stored = await refreshRates({ db, rateSource: source });

    const asked = source.asked[0] ?? [];
    expect(asked).toContain('VND');
    for (const code of ['USD', 'EUR', 'GTQ', 'MXN', 'CLP', 'SVC', 'GBP', 'CAD', 'CHF', 'JPY'])
      expect(asked).toContain(code);
    expect(asked).not.toContain('SAT');
    expect(new Set(asked).size).toBe(asked.length);

    expect(stored.map((rate) => rate.currency).sort()).toEqual(['GTQ', 'USD', 'VND']);
    expect((await listRates(db)).map((rate) => [rate.currency, rate.rateMinorPerBtc, rate.source])).toEqual([
      ['GTQ', 74_000_000n, 'table'],
      ['USD', 9_600_000n, 'table'],
      ['VND', 2_500_000_000n, 'table'],
    ]);
  });

  it('asks only for the currencies given', async () => {
    const source = tableSource({ USD: 9_600_000n, EUR: 8_800_000n });
    const stored = await refreshRates({ db, rateSource: source }, ['EUR', 'SAT']);
    expect(source.asked).toEqual([['EUR']]);
    expect(stored.map((rate) => rate.currency)).toEqual(['EUR']);
  });

  it('lets a source failure through and keeps the cached rates', async () => {
    await refreshRates({ db, rateSource: tableSource({ USD: 9_600_000n }) });
    const failing: RateSource = {
      name: 'down',
      fetchRates: async () => {
        throw new RateSourceError('down: HTTP 503');
      },
    };
    await expect(refreshRates({ db, rateSource: failing })).rejects.toBeInstanceOf(RateSourceError);
    expect((await findRate(db, 'USD'))?.rateMinorPerBtc).toBe(9_600_000n);
  });
});

describe('getRateForInvoice', () => {
  it('gives a fresh cached rate', async () => {
    await refreshRates({ db, rateSource: tableSource({ GTQ: 73_000_000n }) });
    expect(await getRateForInvoice({ db, config }, 'GTQ')).toBe(73_000_000n);
  });

  it('refuses a rate older than RATE_MAX_AGE_SECONDS, and a missing one', async () => {
    const old = new Date(Date.now() - 601_000);
    await upsertRates(db, [{ currency: 'EUR', rateMinorPerBtc: 8_800_000n, source: 'fixed', fetchedAt: old }]);
    expect(await errorCodeOf(getRateForInvoice({ db, config }, 'EUR'))).toBe('RateUnavailable');
    expect(await errorCodeOf(getRateForInvoice({ db, config }, 'MXN'))).toBe('RateUnavailable');

    const fresher = { ...config, rates: { ...config.rates, maxAgeSeconds: 3600 } };
    expect(await getRateForInvoice({ db, config: fresher }, 'EUR')).toBe(8_800_000n);
  });

  it('prices SAT without any cached rate, and refuses unknown codes', async () => {
    expect(await getRateForInvoice({ db, config }, 'SAT')).toBe(100_000_000n);
    expect(await errorCodeOf(getRateForInvoice({ db, config }, 'XYZ'))).toBe('InvalidCurrency');
  });
});

describe('listCurrencies', () => {
  it('lists SAT first, then every cached fiat currency by code', async () => {
    expect(await listCurrencies(db)).toEqual([{ code: 'SAT', isFiat: false }]);
    await refreshRates({ db, rateSource: createFixedRateSource('USD=95000,EUR=88000,GTQ=730000,ARS=110000000') });
    expect(await listCurrencies(db)).toEqual([
      { code: 'SAT', isFiat: false },
      { code: 'ARS', isFiat: true },
      { code: 'EUR', isFiat: true },
      { code: 'GTQ', isFiat: true },
      { code: 'USD', isFiat: true },
    ]);
  });
});

describe('startRateRefresh', () => {
  const fast = { ...config, rates: { ...config.rates, refreshSeconds: 0.02 } };

  /** A schedule the test runs by hand: what is scheduled waits in `pending` until `runNext`. */
  function manualSchedule() {
    const pending: { run: () => void; ms: number }[] = [];
    const schedule: Schedule = (run, ms) => {
      const entry = { run, ms };
      pending.push(entry);
      return () => {
        if (pending.includes(entry)) pending.splice(pending.indexOf(entry), 1);
      };
    };
    return { schedule, pending, runNext: () => pending.shift()?.run() };
  }

  /** A source whose every fetch waits until the test lets it answer. */
  function heldSource() {
    const waiting: Array<() => void> = [];
    let calls = 0;
    const source: RateSource = {
      name: 'held',
      async fetchRates() {
        calls += 1;
        const call = calls;
        await new Promise<void>((resolve) => waiting.push(resolve));
        return [{ currency: 'USD', rateMinorPerBtc: BigInt(9_500_000 + call) }];
      },
    };
    return { source, waiting, calls: () => calls, answer: () => waiting.shift()?.() };
  }

  it('refreshes at once, then an interval after each refresh ends, never two at a time', async () => {
    const timers = manualSchedule();
    const held = heldSource();
    const warnings: string[] = [];
    const stop = startRateRefresh(
      { db, config: fast, rateSource: held.source },
      { warn: (_details, message) => warnings.push(message) },
      timers.schedule,
    );
    for (let refresh = 1; refresh <= 3; refresh += 1) {
      await expect.poll(() => held.waiting.length).toBe(1);
      expect(held.calls()).toBe(refresh);
      expect(timers.pending).toEqual([]);
      held.answer();
      await expect.poll(() => timers.pending.length).toBe(1);
      expect(timers.pending[0]?.ms).toBe(20);
      expect((await findRate(db, 'USD'))?.rateMinorPerBtc).toBe(BigInt(9_500_000 + refresh));
      timers.runNext();
    }
    // Stopped during the fourth refresh: stop waits for it, its rate is stored, nothing follows it.
    await expect.poll(() => held.waiting.length).toBe(1);
    const stopped = stop();
    held.answer();
    await stopped;
    expect(timers.pending).toEqual([]);
    expect(held.calls()).toBe(4);
    expect((await findRate(db, 'USD'))?.rateMinorPerBtc).toBe(9_500_004n);
    expect(warnings).toEqual([]);
  });

  it('stops between refreshes by cancelling the next one', async () => {
    const timers = manualSchedule();
    const held = heldSource();
    const stop = startRateRefresh({ db, config: fast, rateSource: held.source }, { warn: () => {} }, timers.schedule);
    await expect.poll(() => held.waiting.length).toBe(1);
    held.answer();
    await expect.poll(() => timers.pending.length).toBe(1);
    await stop();
    expect(timers.pending).toEqual([]);
    expect(held.calls()).toBe(1);
  });

  it('refreshes at once, without waiting an interval first', async () => {
    let calls = 0;
    const counted: RateSource = {
      name: 'counted',
      async fetchRates() {
        calls += 1;
        return [{ currency: 'USD', rateMinorPerBtc: 9_500_000n }];
      },
    };
    const hourly = { ...config, rates: { ...config.rates, refreshSeconds: 3600 } };
    const stop = startRateRefresh({ db, config: hourly, rateSource: counted }, { warn: () => {} });
    await expect.poll(() => calls, { interval: 5, timeout: 10_000 }).toBe(1);
    await stop();
  });

  it('logs failures and keeps refreshing', async () => {
    let calls = 0;
    const flaky: RateSource = {
      name: 'flaky',
      async fetchRates() {
        calls += 1;
        if (calls <= 2) throw new RateSourceError(`flaky: failure ${calls}`);
        return [{ currency: 'EUR', rateMinorPerBtc: 8_800_000n }];
      },
    };
    const warnings: Array<{ details: object; message: string }> = [];
    const stop = startRateRefresh(
      { db, config: fast, rateSource: flaky },
      { warn: (details, message) => warnings.push({ details, message }) },
    );
    await expect.poll(() => calls, { timeout: 5000 }).toBeGreaterThanOrEqual(3);
    await stop();
    expect(warnings.slice(0, 2)).toEqual([
      {
        details: { err: expect.any(RateSourceError), source: 'flaky' },
        message: 'exchange-rate refresh failed; the next refresh tries again',
      },
      {
        details: { err: expect.any(RateSourceError), source: 'flaky' },
        message: 'exchange-rate refresh failed; the next refresh tries again',
      },
    ]);
    expect((await findRate(db, 'EUR'))?.rateMinorPerBtc).toBe(8_800_000n);
  });

  it('warns when the source quotes none of the currencies', async () => {
    const warnings: string[] = [];
    const stop = startRateRefresh(
      { db, config: fast, rateSource: tableSource({}) },
      { warn: (_details, message) => warnings.push(message) },
    );
    await expect.poll(() => warnings.length).toBeGreaterThanOrEqual(1);
    await stop();
    expect(warnings[0]).toBe('the rate source quoted no currency; prices grow old until it does');
  });
});

describe('GET /api/currencies', () => {
  it('lists the currencies to any signed-in user, and to nobody else', async () => {
    const t = await createTestApp();
    try {
      await refreshRates({ db: t.db, rateSource: createFixedRateSource('USD=95000,GTQ=730000') }, ['USD', 'GTQ']);
      const organization = await createTestOrganization(t.db);
      const manager = await createTestUser(t.db, { role: 'manager', organizationId: organization.id });
      const { accessToken } = await signIn(t.app, manager.email, manager.password);

      const response = await t.app.inject({ method: 'GET', url: '/api/currencies', headers: bearer(accessToken) });
      expect(response.statusCode).toBe(200);
      const currencies = response.json<Currency[]>();
      expect(currencies).toEqual(await listCurrencies(t.db));
      expect(currencies[0]).toEqual({ code: 'SAT', isFiat: false });
      expect(currencies).toContainEqual({ code: 'GTQ', isFiat: true });
      expect(currencies).toContainEqual({ code: 'USD', isFiat: true });

      expect((await t.app.inject({ method: 'GET', url: '/api/currencies' })).statusCode).toBe(401);
    } finally {
      await t.close();
    }
  });
});
