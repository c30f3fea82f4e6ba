import { AppError, type Currency, currencyExponent, SATS, satRateMinorPerBtc } from '@rayo/shared';
import type { RateSource } from '../../adapters/rates/types.ts';
import type { Config } from '../../config.ts';
import type { Db } from '../../db/database.ts';
import { findRate, listRates, type StoredRate, upsertRates } from './rates.repo.ts';

/** The currencies merchants in Rayo's markets price in, asked for even before any BPT uses them. */
const DEFAULT_CURRENCIES = [
  'USD',
  'EUR',
  'GTQ',
  'MXN',
  'ARS',
  'BRL',
  'COP',
  'CRC',
  'HNL',
  'NIO',
  'PAB',
  'PEN',
  'CLP',
  'UYU',
  'DOP',
  'SVC',
  'GBP',
  'CAD',
  'CHF',
  'JPY',
];

/** A source that lists its currencies up front (the fixed one) has all of them refreshed. */
type RefreshableSource = RateSource & { readonly currencies?: readonly string[] };

type RefreshDeps = { db: Db; rateSource: RefreshableSource };

/** Warnings go to the process log; the pino logger fits. */
type RefreshLog = { warn: (details: object, message: string) => void };

/**
 * Fetches prices and caches them. Without a list, every currency already cached is refreshed
 * along with the defaults and the source's own. Source failures propagate as RateSourceError.
 */
export async function refreshRates(deps: RefreshDeps, currencies?: readonly string[]): Promise<StoredRate[]> {
  const wanted =
    currencies ??
    [
      ...(await listRates(deps.db)).map((rate) => rate.currency),
      ...DEFAULT_CURRENCIES,
      ...(deps.rateSource.currencies ?? []),
    ].sort();
  const requested = new Set(wanted.filter((code) => code !== SATS));
  const fetched = await deps.rateSource.fetchRates([...requested]);
  const fetchedAt = new Date();
  const stored = fetched
    .filter((rate) => requested.has(rate.currency))
    .map((rate) => ({ ...rate, source: deps.rateSource.name, fetchedAt }));
  await upsertRates(deps.db, stored);
  return stored;
}

/**
 * The rate an invoice in `currency` is priced at: the cached one while it is fresh, since an
 * old price would charge the wrong amount. SAT needs no rate.
 */
export async function getRateForInvoice(
  deps: { db: Db; config: Pick<Config, 'rates'> },
  currency: string,
): Promise<bigint> {
  if (currency === SATS) return satRateMinorPerBtc;
  currencyExponent(currency); // rejects unknown codes
  return freshRateForInvoice(currency, await findRate(deps.db, currency), deps.config);
}

/**
 * The same check on a rate the caller read itself (with other things, in one statement): the
 * rate an invoice in `currency` is priced at, refused when missing or too old.
 */
export function freshRateForInvoice(
  currency: string,
  rate: Pick<StoredRate, 'rateMinorPerBtc' | 'fetchedAt'> | undefined,
  config: Pick<Config, 'rates'>,
): bigint {
  if (currency === SATS) return satRateMinorPerBtc;
  currencyExponent(currency); // rejects unknown codes
  if (!rate) throw new AppError('RateUnavailable', `No exchange rate for ${currency} is available`);
  if (rate.fetchedAt <= staleRateCutoff(config)) {
    const ageSeconds = Math.floor((Date.now() - rate.fetchedAt.getTime()) / 1000);
    throw new AppError('RateUnavailable', `The ${currency} exchange rate is ${ageSeconds} seconds old`);
  }
  return rate.rateMinorPerBtc;
}

/** A rate fetched at or before this is too old to price an invoice now (`freshRateForInvoice`). */
export function staleRateCutoff(config: Pick<Config, 'rates'>): Date {
  return new Date(Date.now() - config.rates.maxAgeSeconds * 1000);
}

/** The currencies a BPT can be priced in: satoshis, then every fiat currency with a cached rate. */
export async function listCurrencies(db: Db): Promise<Currency[]> {
  const fiat = (await listRates(db)).map((rate) => rate.currency).sort();
  return [{ code: SATS, isFiat: false }, ...fiat.map((code) => ({ code, isFiat: true }))];
}

/** Refuses a fiat currency Rayo cannot price, since nothing could be sold in it. */
export async function requireFiatCurrency(db: Db, currency: string): Promise<void> {
  const quoted = await listCurrencies(db);
  if (!quoted.some((c) => c.isFiat && c.code === currency)) {
    throw new AppError('InvalidCurrency', `No exchange rate is available for ${currency}`);
  }
}

/** Runs `run` once after `ms` and returns what cancels it; tests hand in one they drive by hand. */
export type Schedule = (run: () => void, ms: number) => () => void;

/** `setTimeout` that does not keep a process alive that is otherwise done. */
const scheduleInBackground: Schedule = (run, ms) => {
  const timer = setTimeout(run, ms);
  timer.unref();
  return () => clearTimeout(timer);
};

/**
 * Refreshes rates now and then every `config.rates.refreshSeconds` after the previous refresh
 * ends, so refreshes never overlap. A failure is logged and the next refresh tried as usual.
 * The returned function stops the cycle and waits for a refresh under way.
 */
export function startRateRefresh(
  deps: RefreshDeps & { config: Pick<Config, 'rates'> },
  log: RefreshLog,
  schedule: Schedule = scheduleInBackground,
): () => Promise<void> {
  let stopped = false;
  let cancel = () => {};
  let current = Promise.resolve();

  const refresh = (): void => {
    current = refreshRates(deps)
      .then(
        (stored) => {
          if (stored.length === 0)
            log.warn(
              { source: deps.rateSource.name },
              'the rate source quoted no currency; prices grow old until it does',
            );
        },
        (error: unknown) =>
          log.warn(
            { err: error, source: deps.rateSource.name },
            'exchange-rate refresh failed; the next refresh tries again',
          ),
      )
      .then(() => {
        if (!stopped) cancel = schedule(refresh, deps.config.rates.refreshSeconds * 1000);
      });
  };
  refresh();

  return async () => {
    stopped = true;
    cancel();
    await current;
  };
}
