import { SafeFetchError, sendJsonSafely } from '../lnurl/safe-fetch.ts';

/**
 * Ecwid's REST calls Rayo makes: reading the store's profile with the app's secret token when
 * the merchant saves the store, and setting an order's payment status (reference/ecommerce.md
 * §1.3) with the store token that came with its payment request.
 */

export type EcwidApi = {
  /** `ECWID_API_URL`, Ecwid's API origin. */
  apiUrl: string;
  allowPrivateAddresses: boolean;
};

export type EcwidFailure = 'unauthorized' | 'unreachable' | 'invalid';

/** A call that did not go through; the message is safe to log and never holds the token. */
export class EcwidError extends Error {
  readonly failure: EcwidFailure;
  constructor(message: string, failure: EcwidFailure = 'unreachable') {
    super(message);
    this.failure = failure;
  }
}

const TIMEOUT_MS = 10_000;

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * `GET /api/v3/{storeId}/profile`: the store's id as Ecwid knows it and its name. Ecwid answers
 * 403 for a token that is not this store's app's, 402 for a store whose plan has no API, 404
 * for no such store; each is `unauthorized`, since the merchant's store id and token do not
 * open this store.
 */
export async function fetchEcwidProfile(
  api: EcwidApi,
  storeId: string,
  secretToken: string,
): Promise<{ storeId: string; storeName: string | null }> {
  const url = new URL(`${api.apiUrl}/api/v3/${encodeURIComponent(storeId)}/profile`);
  let result: { status: number; answer: unknown };
  try {
    result = await sendJsonSafely(
      url,
      { method: 'GET', headers: { authorization: `Bearer ${secretToken}`, 'user-agent': 'Rayo' } },
      { signal: AbortSignal.timeout(TIMEOUT_MS), allowPrivateAddresses: api.allowPrivateAddresses },
    );
  } catch (error) {
    if (!(error instanceof SafeFetchError)) throw error;
    throw new EcwidError(`Ecwid did not answer (${error.failure})`);
  }
  const { status, answer } = result;
  if (status === 402 || status === 403 || status === 404) {
    throw new EcwidError(`Ecwid refused the store id or token (HTTP ${status})`, 'unauthorized');
  }
  if (status < 200 || status >= 300) throw new EcwidError(`Ecwid answered HTTP ${status}`);
  const general = isObject(answer) ? answer.generalInfo : undefined;
  const settings = isObject(answer) ? answer.settings : undefined;
  if (!isObject(general) || (typeof general.storeId !== 'number' && typeof general.storeId !== 'string')) {
    throw new EcwidError('Ecwid answered a profile without its store id', 'invalid');
  }
  const storeName = isObject(settings) && typeof settings.storeName === 'string' ? settings.storeName.trim() : '';
  return { storeId: String(general.storeId), storeName: storeName === '' ? null : storeName.slice(0, 200) };
}

/** `PUT /api/v3/{storeId}/orders/{orderRef}` with `{"paymentStatus":"PAID"}`. */
export async function markEcwidOrderPaid(
  api: EcwidApi,
  storeId: string,
  orderRef: string,
  storeToken: string,
): Promise<void> {
  const url = new URL(`${api.apiUrl}/api/v3/${encodeURIComponent(storeId)}/orders/${encodeURIComponent(orderRef)}`);
  let status: number;
  try {
    ({ status } = await sendJsonSafely(
      url,
      {
        method: 'PUT',
        body: JSON.stringify({ paymentStatus: 'PAID' }),
        headers: { authorization: `Bearer ${storeToken}`, 'user-agent': 'Rayo' },
      },
      { signal: AbortSignal.timeout(TIMEOUT_MS), allowPrivateAddresses: api.allowPrivateAddresses },
    ));
  } catch (error) {
    if (!(error instanceof SafeFetchError)) throw error;
    throw new EcwidError(`Ecwid did not answer (${error.failure})`);
  }
  if (status < 200 || status >= 300) throw new EcwidError(`Ecwid answered HTTP ${status}`);
}
