import { SafeFetchError, sendJsonSafely } from '../lnurl/safe-fetch.ts';

/**
 * Ecwid's REST call Rayo makes (reference/ecommerce.md §1.3): setting an order's payment status
 * with the store token that came with its payment request.
 */

export type EcwidApi = {
  /** `ECWID_API_URL`, Ecwid's API origin. */
  apiUrl: string;
  allowPrivateAddresses: boolean;
};

/** A call that did not go through; the message is safe to log and never holds the token. */
export class EcwidError extends Error {}

const TIMEOUT_MS = 10_000;

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
