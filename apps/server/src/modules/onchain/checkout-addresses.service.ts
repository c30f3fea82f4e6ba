import { randomBytes } from 'node:crypto';
import {
  type CheckoutUnderpaid,
  formatMinor,
  msatToFiatMinor,
  ONCHAIN_REQUIRED_CONFIRMATIONS,
  type PublicCheckoutOnchain,
  type Quote,
  SATS,
} from '@rayo/shared';
import type { HDKey } from '@scure/bip32';
import { storeSecretOnce } from '../../adapters/lightning/devnet.repo.ts';
import type { Config } from '../../config.ts';
import type { Db } from '../../db/database.ts';
import type { InvoiceRow } from '../../db/schema.ts';
import { quoteProgress } from '../../domain/checkout-payments.ts';
import {
  accountKeyFromSeed,
  bip21Uri,
  deriveReceiveAddress,
  maskExtendedKey,
  parseExtendedPublicKey,
  walletId,
} from '../../domain/onchain-wallet.ts';
import {
  type CheckoutRow,
  findCheckout,
  type SettledPayments,
  sumCheckoutSettledPayments,
  sumSettledPayments,
} from '../checkouts/checkout-state.service.ts';
import {
  allocateWalletIndex,
  type CheckoutAddressRow,
  findCheckoutAddress,
  insertCheckoutAddress,
  listCheckoutAddresses,
  requoteCheckoutAddress,
} from './onchain.repo.ts';

export type OnchainDeps = { db: Db; config: Config };

/** An address stays watched this long after it last changed, for late and extra payments. */
export const WATCH_AFTER_MS = 7 * 24 * 60 * 60 * 1000;
const DEVNET_SEED_SECRET = 'devnet_chain_seed';
/** Where the devnet platform wallet's account key sits below its seed (BIP84, coin type 1). */
const DEVNET_ACCOUNT_PATH = "m/84'/1'/0'";

type Wallet = { key: HDKey; id: string; accountPath: string };

const parsedKeys = new Map<string, HDKey>();

/**
 * The platform wallet checkout addresses come from: `CHAIN_XPUB`, or on devnet a seed made once
 * per database (so every process derives the same addresses). Undefined when neither exists:
 * checkouts are then offered by Lightning only.
 */
async function platformWallet(deps: OnchainDeps): Promise<Wallet | undefined> {
  const { xpub, network } = deps.config.chain;
  if (xpub !== undefined) {
    let key = parsedKeys.get(xpub);
    if (!key) {
      const parsed = parseExtendedPublicKey(xpub, network);
      if (!parsed.valid) throw new Error(`CHAIN_XPUB ${maskExtendedKey(xpub)} is not usable: ${parsed.reason}`);
      key = parsed.key;
      parsedKeys.set(xpub, key);
    }
    return { key, id: walletId(key), accountPath: 'account' };
  }
  if (deps.config.chain.backend !== 'devnet') return undefined;
  const seed = await storeSecretOnce(deps.db, DEVNET_SEED_SECRET, randomBytes(32).toString('hex'));
  const key = accountKeyFromSeed(Buffer.from(seed, 'hex'));
  return { key, id: walletId(key), accountPath: DEVNET_ACCOUNT_PATH };
}

export function isPastExpiry(checkout: CheckoutRow, now: Date): boolean {
  return checkout.expires_at !== null && checkout.expires_at <= now;
}

/**
 * What the address asks, in `currency`: the satoshis quoted with the address for the checkout's
 * price, worth that price (a price in sats is worth its satoshis at the quote's rate). The ledger
 * books in the terminal's currency; the checkout shows its own.
 */
export function onchainQuote(checkout: CheckoutRow, address: CheckoutAddressRow, currency: string): Quote {
  const msat = BigInt(address.amount_sats) * 1000n;
  const rateMinorPerBtc = BigInt(address.rate_minor_per_btc);
  const minor =
    checkout.amount_currency === currency
      ? BigInt(checkout.amount_minor)
      : msatToFiatMinor(msat, rateMinorPerBtc, currency);
  return { msat, minor, rateMinorPerBtc, currency };
}

/** The quote of the checkout's address in `currency`, if it has an address. */
export async function findCheckoutQuote(db: Db, checkout: CheckoutRow, currency: string): Promise<Quote | undefined> {
  const address = await findCheckoutAddress(db, checkout.id);
  return address && onchainQuote(checkout, address, currency);
}

/** Locks the checkout's address row, if it has one, for the rest of the caller's transaction. */
export async function lockCheckoutAddress(trx: Db, checkoutId: string): Promise<CheckoutAddressRow | undefined> {
  return findCheckoutAddress(trx, checkoutId, { lock: true });
}

/**
 * Gives the checkout's address the quote of `invoice`, a new Lightning invoice for the whole
 * price, for as long as it lasts: so the on-chain amount follows the price with each new invoice
 * (at most every 24 hours for a link) and keeps the address. An address where a payment has been
 * seen keeps the quote it was paid against.
 */
export async function quoteCheckoutAddress(trx: Db, checkoutId: string, invoice: InvoiceRow): Promise<void> {
  await requoteCheckoutAddress(trx, checkoutId, {
    amountSats: BigInt(invoice.amount_msat) / 1000n,
    rateMinorPerBtc: BigInt(invoice.rate_minor_per_btc),
    expiresAt: invoice.expires_at,
  });
}

/**
 * Where a checkout's payment stands against its address's quote, in `currency`: what arrived on
 * the chain (as the watch last saw it, confirmed or not) and by Lightning, and what is missing.
 */
function progressOf(
  checkout: CheckoutRow,
  address: CheckoutAddressRow,
  settled: SettledPayments,
  currency: string,
): ReturnType<typeof quoteProgress> {
  // A Lightning payment is booked in the terminal's currency; in sats it is worth its satoshis.
  const lightningMinor = currency === SATS ? settled.lightningMsat / 1000n : settled.lightningMinor;
  return quoteProgress(onchainQuote(checkout, address, currency), {
    onchainMsat: BigInt(address.received_sats) * 1000n,
    lightningMsat: settled.lightningMsat,
    lightningMinor,
  });
}

/**
 * What a checkout asks for now. `price`: nothing has arrived, so the whole price at the rate of the
 * moment. `rest`: part arrived (on-chain, short), so only what is missing of the quote it was paid
 * against, by either method, booked at the missing fiat in the terminal's currency. `nothing`: all of
 * it arrived and waits for confirmations.
 */
export type AmountDue =
  | { kind: 'price' }
  | { kind: 'rest'; msat: bigint; minor: bigint; rateMinorPerBtc: bigint }
  | { kind: 'nothing' };

/** `AmountDue` of a checkout whose sales are booked in `currency` (its terminal's). */
export async function findAmountDue(db: Db, checkout: CheckoutRow, currency: string): Promise<AmountDue> {
  const address = await findCheckoutAddress(db, checkout.id);
  if (!address) return { kind: 'price' };
  const settled = await sumCheckoutSettledPayments(db, checkout.id);
  if (BigInt(address.received_sats) === 0n && settled.lightningMsat === 0n) return { kind: 'price' };
  const progress = progressOf(checkout, address, settled, currency);
  if (progress.missingMsat === 0n) return { kind: 'nothing' };
  return {
    kind: 'rest',
    msat: progress.missingMsat,
    minor: progress.missingMinor,
    rateMinorPerBtc: BigInt(address.rate_minor_per_btc),
  };
}

/**
 * 'Underpaid' with the amounts, in the checkout's own currency: part of it arrived, on-chain or
 * by Lightning, and the rest is still to pay. Null when nothing arrived or nothing is missing.
 */
function underpaidOf(
  checkout: CheckoutRow,
  address: CheckoutAddressRow | undefined,
  settled: SettledPayments,
): CheckoutUnderpaid | null {
  if (!address || checkout.status === 'paid') return null;
  const progress = progressOf(checkout, address, settled, checkout.amount_currency);
  if (progress.receivedMsat === 0n || progress.missingMsat === 0n) return null;
  const money = (minor: bigint) => ({
    currency: checkout.amount_currency,
    value: formatMinor(minor, checkout.amount_currency),
  });
  return {
    received: money(progress.receivedMinor),
    missing: money(progress.missingMinor),
    receivedSats: Number(progress.receivedMsat / 1000n),
    missingSats: Number((progress.missingMsat + 999n) / 1000n),
  };
}

/** `underpaidOf` for many checkouts at once, by id (a merchant's list of links). */
export async function listCheckoutsUnderpaid(
  db: Db,
  checkouts: CheckoutRow[],
): Promise<Map<string, CheckoutUnderpaid | null>> {
  const ids = checkouts.map((checkout) => checkout.id);
  const addresses = new Map((await listCheckoutAddresses(db, ids)).map((row) => [row.checkout_id, row]));
  const settled = await sumSettledPayments(db, ids);
  const none: SettledPayments = { msat: 0n, minor: 0n, lightningMsat: 0n, lightningMinor: 0n };
  return new Map(
    checkouts.map((checkout) => [
      checkout.id,
      underpaidOf(checkout, addresses.get(checkout.id), settled.get(checkout.id) ?? none),
    ]),
  );
}

/**
 * The checkout's on-chain address, derived on first request from the next index of the platform
 * wallet, for the satoshis and rate of `invoice`, the Lightning invoice for the whole price just
 * issued or renewed, and for as long as it lasts: both methods ask the same. The checkout row is
 * locked meanwhile, so two payers opening the page at once get the same address and no index is
 * skipped. Undefined when the checkout takes no new payments or no wallet is configured.
 */
async function assignCheckoutAddress(
  deps: OnchainDeps,
  checkoutId: string,
  invoice: InvoiceRow,
  now: Date,
): Promise<CheckoutAddressRow | undefined> {
  const wallet = await platformWallet(deps);
  if (!wallet) return undefined;
  return deps.db.transaction().execute(async (trx) => {
    const checkout = await findCheckout(trx, checkoutId, { lock: true });
    if (checkout?.status !== 'awaiting_payment' || isPastExpiry(checkout, now)) return undefined;
    const again = await findCheckoutAddress(trx, checkoutId);
    if (again) return again;
    const index = await allocateWalletIndex(trx, wallet.id);
    return insertCheckoutAddress(trx, {
      checkout_id: checkout.id,
      organization_id: checkout.organization_id,
      address: deriveReceiveAddress(wallet.key, index, deps.config.chain.network),
      wallet: wallet.id,
      derivation_path: `${wallet.accountPath}/0/${index}`,
      derivation_index: index,
      amount_sats: BigInt(invoice.amount_msat) / 1000n,
      rate_minor_per_btc: BigInt(invoice.rate_minor_per_btc),
      quote_expires_at: invoice.expires_at,
      watch_until: new Date(Math.max(invoice.expires_at.getTime(), now.getTime()) + WATCH_AFTER_MS),
    });
  });
}

function toPublicOnchain(row: CheckoutAddressRow, settled: SettledPayments): PublicCheckoutOnchain {
  const amount = BigInt(row.amount_sats);
  const received = BigInt(row.received_sats);
  // What a Lightning payment for the rest paid is not asked again on-chain.
  const lightningSats = settled.lightningMsat / 1000n;
  const missing = amount > received + lightningSats ? amount - received - lightningSats : 0n;
  // Short on-chain but completed by Lightning: the on-chain part now waits only for confirmations.
  const state = row.state === 'underpaid' && missing === 0n ? 'confirming' : row.state;
  return {
    address: row.address,
    bip21Uri: bip21Uri(row.address, missing > 0n ? missing : amount),
    amountSats: Number(amount),
    receivedSats: Number(received),
    missingSats: Number(missing),
    confirmations: row.confirmations,
    requiredConfirmations: ONCHAIN_REQUIRED_CONFIRMATIONS,
    state,
  };
}

/** The on-chain side of a checkout as its public page shows it. */
export type CheckoutOnchainView = { onchain: PublicCheckoutOnchain | null; underpaid: CheckoutUnderpaid | null };

/**
 * The on-chain option the public checkout shows: its address (assigned now, at the quote of the
 * Lightning invoice `priced` for the whole price, if the checkout is still waiting), what the
 * watch last saw there, and what is missing when part of the price arrived. Null when none can be
 * offered.
 */
export async function getCheckoutOnchain(
  deps: OnchainDeps,
  checkout: CheckoutRow,
  priced: InvoiceRow | undefined,
  now = new Date(),
): Promise<CheckoutOnchainView> {
  const address =
    (await findCheckoutAddress(deps.db, checkout.id)) ??
    (priced ? await assignCheckoutAddress(deps, checkout.id, priced, now) : undefined);
  if (!address) return { onchain: null, underpaid: null };
  const settled = await sumCheckoutSettledPayments(deps.db, checkout.id);
  return { onchain: toPublicOnchain(address, settled), underpaid: underpaidOf(checkout, address, settled) };
}
