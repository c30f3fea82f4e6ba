import { isKnownCurrency, parseBtcPrice, SATS } from '@rayo/shared';
import { type Rate, RateSourceError } from './types.ts';

export type HttpRateSourceOptions = {
  /** The provider's base URL; tests and proxies replace the public one. */
  baseUrl?: string;
  fetch?: typeof fetch;
  /** How long one request, body included, may take. */
  timeoutMs?: number;
};

const DEFAULT_TIMEOUT_MS = 10_000;
const BODY_EXCERPT_CHARS = 200;

/** Fetches a provider's JSON document, turning every transport, HTTP and JSON failure into a RateSourceError. */
export function createJsonGetter(source: string, defaultBaseUrl: string, options: HttpRateSourceOptions) {
  const base = (options.baseUrl ?? defaultBaseUrl).replace(/\/+$/, '');
  const fetchJson = options.fetch ?? fetch;
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;

  return async function getJson(pathAndQuery: string): Promise<unknown> {
    const url = base + pathAndQuery;
    let status: number;
    let body: string;
    try {
      const response = await fetchJson(url, {
        headers: { accept: 'application/json' },
        signal: AbortSignal.timeout(timeoutMs),
      });
      status = response.status;
      body = await response.text();
    } catch (error) {
      throw new RateSourceError(`${source}: GET ${url} failed: ${describeFailure(error)}`, { cause: error });
    }
    if (status < 200 || status > 299) {
      throw new RateSourceError(`${source}: GET ${url} answered HTTP ${status}: ${body.slice(0, BODY_EXCERPT_CHARS)}`);
    }
    try {
      return JSON.parse(body) as unknown;
    } catch (error) {
      throw new RateSourceError(`${source}: GET ${url} answered something other than JSON`, { cause: error });
    }
  };
}

function describeFailure(error: unknown): string {
  if (error instanceof DOMException && error.name === 'TimeoutError') return 'no answer before the deadline';
  // undici reports `fetch failed` and keeps the socket's reason (ECONNREFUSED, …) as the cause.
  const cause = error instanceof Error ? error.cause : undefined;
  const detail = cause instanceof Error ? ` (${cause.message})` : '';
  return error instanceof Error ? error.message + detail : String(error);
}

/** The fiat codes worth asking a source for: known to ISO 4217, without SAT or repeats. */
export function fiatCodesOf(currencies: readonly string[]): string[] {
  return [...new Set(currencies)].filter((code) => code !== SATS && isKnownCurrency(code));
}

/**
 * A provider's price of one bitcoin as a Rate; undefined when the provider has none. A price that
 * is there but unusable means the provider is broken, which is an error rather than a gap.
 */
export function rateFrom(source: string, currency: string, price: unknown): Rate | undefined {
  if (price === undefined || price === null) return undefined;
  if (typeof price !== 'string' && (typeof price !== 'number' || !Number.isFinite(price))) {
    throw new RateSourceError(`${source}: the ${currency} price is not a number: ${JSON.stringify(price)}`);
  }
  try {
    return { currency, rateMinorPerBtc: parseBtcPrice(String(price), currency) };
  } catch (error) {
    throw new RateSourceError(`${source}: ${error instanceof Error ? error.message : String(error)}`, { cause: error });
  }
}

export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
