import { AppError } from '@rayo/shared';
import {
  type LightningAddress,
  lightningAddressUrl,
  type PayRequest,
  readPayRequest,
} from '../../domain/lightning-address.ts';
import { getJsonObjectSafely, SafeFetchError } from './safe-fetch.ts';
import type { LnurlLog } from './withdraw-client.ts';

export type ResolveLightningAddressInput = {
  address: LightningAddress;
  /** Lets the service sit at `http://127.0.0.1` or `http://localhost`: devnet and tests only. */
  allowInsecureLoopback?: boolean;
  /** Lets the service sit at loopback and private addresses: tests and local devnet setups only. */
  allowPrivateAddresses?: boolean;
  /** An origin reached whatever its address (Rayo's own on devnet, whose addresses it serves). */
  trustedOrigin?: string | undefined;
  /** Default 5 s. */
  timeoutMs?: number;
  log: LnurlLog;
};

const DEFAULT_TIMEOUT_MS = 5_000;

/**
 * LUD-16: asks the address's domain for its payRequest, so that an address nobody can pay is
 * refused when it is saved rather than when a payout fails. The domain is the merchant's to
 * choose, so the request goes through `getJsonObjectSafely`, and only our own words come back.
 */
export async function resolveLightningAddress(input: ResolveLightningAddressInput): Promise<PayRequest> {
  const options = { allowInsecureLoopback: input.allowInsecureLoopback === true };
  const url = lightningAddressUrl(input.address, options);
  const fail = (
    code: 'LightningAddressUnreachable' | 'LightningAddressNotPayable',
    message: string,
    details: object,
  ) => {
    input.log.debug({ origin: url.origin, ...details }, 'Lightning address refused');
    return new AppError(code, message);
  };
  let answer: Record<string, unknown>;
  try {
    answer = await getJsonObjectSafely(url, {
      signal: AbortSignal.timeout(input.timeoutMs ?? DEFAULT_TIMEOUT_MS),
      allowPrivateAddresses: input.allowPrivateAddresses === true,
      trustedOrigin: input.trustedOrigin,
    });
  } catch (error) {
    if (!(error instanceof SafeFetchError)) throw error;
    if (error.failure === 'invalid') {
      throw fail(
        'LightningAddressNotPayable',
        `${input.address.domain} gave an invalid answer for this address`,
        error.details,
      );
    }
    const message =
      error.failure === 'timeout'
        ? `${input.address.domain} did not answer in time`
        : `${input.address.domain} could not be reached`;
    throw fail('LightningAddressUnreachable', message, error.details);
  }
  if (answer.status === 'ERROR') {
    throw fail('LightningAddressNotPayable', `${input.address.domain} does not know this address`, {
      reason: String(answer.reason).slice(0, 200),
    });
  }
  const payRequest = readPayRequest(answer, options);
  if (typeof payRequest === 'string') {
    throw fail('LightningAddressNotPayable', `${input.address.domain} does not offer payments to this address`, {
      reason: payRequest,
    });
  }
  return payRequest;
}
