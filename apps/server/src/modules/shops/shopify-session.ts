import {
  requestShopifyAccessToken,
  type ShopifyAccessToken,
  type ShopifyApi,
  type ShopifyCredentials,
  ShopifyError,
} from '../../adapters/shops/shopify.ts';
import { findShopifyTokenState, saveShopifyAccessToken } from './shops.repo.ts';
import { accessTokenContext, clientIdContext, connectionSecretContext, type ShopDeps } from './shops.service.ts';

/**
 * A token is minted again when less than this is left of its life (about 24 hours), so a call
 * never starts with a token about to lapse, and a clock a little off does not matter.
 */
const SHOPIFY_TOKEN_REFRESH_MARGIN_MS = 60 * 60 * 1000;

export function shopifyApi(deps: ShopDeps): ShopifyApi {
  return { shopUrl: deps.config.shops.shopifyShopUrl, allowPrivateAddresses: deps.config.webhookAllowPrivateHosts };
}

type TokenState = NonNullable<Awaited<ReturnType<typeof findShopifyTokenState>>>;

function credentialsOf(deps: ShopDeps, state: TokenState): ShopifyCredentials | undefined {
  if (state.client_id_sealed === null) return undefined;
  return {
    clientId: deps.mfaCipher.open(state.client_id_sealed, clientIdContext(state.id)),
    clientSecret: deps.mfaCipher.open(state.secret_sealed, connectionSecretContext(state.id)),
  };
}

/** Mints a token with the app's credentials and keeps it, sealed, for every later call. */
async function mintToken(
  deps: ShopDeps,
  state: TokenState,
  credentials: ShopifyCredentials,
  now: Date,
): Promise<ShopifyAccessToken> {
  const minted = await requestShopifyAccessToken(shopifyApi(deps), state.shop, credentials, now);
  await saveShopifyAccessToken(deps.db, state.id, {
    accessTokenSealed: deps.mfaCipher.seal(minted.accessToken, accessTokenContext(state.id)),
    expiresAt: minted.expiresAt,
  });
  return minted;
}

/**
 * Runs `call` with an Admin API token of the connected store. A store connected through a Dev
 * Dashboard app uses its kept token while more than the margin is left, or mints a new one with
 * the client credentials grant; when Shopify still answers 401 (the token was revoked, or the
 * secret rotated and re-saved), it mints one more and tries once again. A store saved with a
 * legacy custom app's static token has nothing to refresh it with, so its 401 stands.
 */
export async function callShopifyStore<T>(
  deps: ShopDeps,
  connectionId: string,
  call: (api: ShopifyApi, shop: string, accessToken: string) => Promise<T>,
  now = () => new Date(),
): Promise<T> {
  const state = await findShopifyTokenState(deps.db, connectionId);
  if (!state) throw new ShopifyError('refused', 'The store is no longer connected');
  const api = shopifyApi(deps);
  const credentials = credentialsOf(deps, state);
  if (!credentials) {
    return call(api, state.shop, deps.mfaCipher.open(state.secret_sealed, connectionSecretContext(state.id)));
  }
  const kept =
    state.access_token_sealed !== null &&
    state.access_token_expires_at !== null &&
    state.access_token_expires_at.getTime() - now().getTime() > SHOPIFY_TOKEN_REFRESH_MARGIN_MS
      ? deps.mfaCipher.open(state.access_token_sealed, accessTokenContext(state.id))
      : undefined;
  const first = kept ?? (await mintToken(deps, state, credentials, now())).accessToken;
  try {
    return await call(api, state.shop, first);
  } catch (error) {
    if (!(error instanceof ShopifyError) || error.failure !== 'unauthorized' || kept === undefined) throw error;
  }
  const fresh = await mintToken(deps, state, credentials, now());
  return call(api, state.shop, fresh.accessToken);
}
