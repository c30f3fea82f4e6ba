import { randomBytes } from 'node:crypto';
import {
  type CheckoutStatus,
  fiatOfPayment,
  fiatToMsat,
  msatToFiatMinor,
  ONCHAIN_REQUIRED_CONFIRMATIONS,
  type PublicCheckoutOnchain,
  type Quote,
  SATS,
} from '@rayo/shared';
import type { HDKey } from '@scure/bip32';
import { type AddressOutput, type ChainBackend, confirmationsAt } from '../../adapters/chain/types.ts';
import { storeSecretOnce } from '../../adapters/lightning/devnet.repo.ts';
import type { Config } from '../../config.ts';
import type { Db } from '../../db/database.ts';
import type { OnchainState } from '../../db/schema.ts';
import {
  accountKeyFromSeed,
  bip21Uri,
  deriveReceiveAddress,
  maskExtendedKey,
  parseExtendedPublicKey,
  walletId,
} from '../../domain/onchain-wallet.ts';
import { type CheckoutRow, findCheckout, notifyCheckoutStatus } from '../checkouts/checkouts.repo.ts';
import { enqueueCheckoutWebhook } from '../checkouts/checkouts.service.ts';
import { insertInvoice } from '../invoices/invoices.repo.ts';
import { settleInvoice } from '../invoices/invoices.service.ts';
import { getRateForInvoice } from '../rates/rates.service.ts';
import { findVirtualBpt } from '../virtual-bpts/virtual-bpts.repo.ts';
import {
  allocateWalletIndex,
  type CheckoutAddressRow,
  findCheckoutAddress,
  insertCheckoutAddress,
  listSeenOutputs,
  listUnsettledOnchainInvoices,
  listWatchedAddresses,
  markOutputsRecorded,
  setCheckoutProcessing,
  updateCheckoutAddressState,
  upsertSeenOutputs,
} from './onchain.repo.ts';

export type OnchainDeps = { db: Db; config: Config };
export type ChainWatchDeps = OnchainDeps & { chain: ChainBackend };

/** An address stays watched this long after it last changed, for late and extra payments. */
const WATCH_AFTER_MS = 7 * 24 * 60 * 60 * 1000;
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

function isPastExpiry(checkout: CheckoutRow, now: Date): boolean {
  return checkout.expires_at !== null && checkout.expires_at <= now;
}

/** Satoshis asked on-chain: the fiat amount at the locked rate, rounded up to a whole satoshi. */
function amountSats(checkout: CheckoutRow, rateMinorPerBtc: bigint): bigint {
  const minor = BigInt(checkout.amount_minor);
  if (checkout.amount_currency === SATS) return minor;
  const msat = fiatToMsat(minor, rateMinorPerBtc, checkout.amount_currency);
  return (msat + 999n) / 1000n;
}

/**
 * What the address asks, as the ledger books it: the satoshis locked with the address for the
 * checkout's price, in the terminal's currency (a price in sats is worth its satoshis at the rate).
 */
function onchainQuote(checkout: CheckoutRow, address: CheckoutAddressRow, currency: string): Quote {
  const msat = BigInt(address.amount_sats) * 1000n;
  const rateMinorPerBtc = BigInt(address.rate_minor_per_btc);
  const minor =
    checkout.amount_currency === currency
      ? BigInt(checkout.amount_minor)
      : msatToFiatMinor(msat, rateMinorPerBtc, currency);
  return { msat, minor, rateMinorPerBtc, currency };
}

/**
 * The checkout's on-chain address, derived on first request from the next index of the platform
 * wallet; the amount in satoshis is locked then, at the current rate. The checkout row is locked
 * meanwhile, so two payers opening the page at once get the same address and no index is skipped.
 * Undefined when the checkout takes no new payments or no wallet is configured.
 */
export async function assignCheckoutAddress(
  deps: OnchainDeps,
  checkoutId: string,
  now = new Date(),
): Promise<CheckoutAddressRow | undefined> {
  const existing = await findCheckoutAddress(deps.db, checkoutId);
  if (existing) return existing;
  const wallet = await platformWallet(deps);
  if (!wallet) return undefined;
  return deps.db.transaction().execute(async (trx) => {
    const checkout = await findCheckout(trx, checkoutId, { lock: true });
    if (checkout?.status !== 'awaiting_payment' || isPastExpiry(checkout, now)) return undefined;
    const again = await findCheckoutAddress(trx, checkoutId);
    if (again) return again;
    const found = await findVirtualBpt(trx, checkout.organization_id, checkout.virtual_bpt_id);
    if (!found) return undefined;
    // The ledger records the payment in the terminal's currency, so that rate is the one locked.
    const rateMinorPerBtc = await getRateForInvoice(deps, found.bpt.currency);
    const index = await allocateWalletIndex(trx, wallet.id);
    return insertCheckoutAddress(trx, {
      checkout_id: checkout.id,
      organization_id: checkout.organization_id,
      address: deriveReceiveAddress(wallet.key, index, deps.config.chain.network),
      wallet: wallet.id,
      derivation_path: `${wallet.accountPath}/0/${index}`,
      derivation_index: index,
      amount_sats: amountSats(checkout, rateMinorPerBtc),
      rate_minor_per_btc: rateMinorPerBtc,
      watch_until: new Date((checkout.expires_at ?? now).getTime() + WATCH_AFTER_MS),
    });
  });
}

export function toPublicOnchain(row: CheckoutAddressRow): PublicCheckoutOnchain {
  const amount = BigInt(row.amount_sats);
  const received = BigInt(row.received_sats);
  return {
    address: row.address,
    bip21Uri: bip21Uri(row.address, amount > received ? amount - received : amount),
    amountSats: Number(amount),
    receivedSats: Number(received),
    missingSats: Number(amount > received ? amount - received : 0n),
    confirmations: row.confirmations,
    requiredConfirmations: ONCHAIN_REQUIRED_CONFIRMATIONS,
    state: row.state,
  };
}

/**
 * The on-chain option the public checkout shows: its address (assigned now if the checkout is
 * still waiting) and what the watcher last saw there. Null when none can be offered.
 */
export async function getCheckoutOnchain(
  deps: OnchainDeps,
  checkoutId: string,
  now = new Date(),
): Promise<PublicCheckoutOnchain | null> {
  const row = await assignCheckoutAddress(deps, checkoutId, now);
  return row ? toPublicOnchain(row) : null;
}

type Observation = { state: OnchainState; receivedSats: bigint; confirmations: number };

/** What the outputs at an address say about the payment of `amount` sats. */
function observe(outputs: AddressOutput[], amount: bigint, tip: number): Observation {
  const receivedSats = outputs.reduce((sum, output) => sum + output.valueSats, 0n);
  if (receivedSats === 0n) return { state: 'awaiting_payment', receivedSats, confirmations: 0 };
  const confirmations = Math.min(
    ONCHAIN_REQUIRED_CONFIRMATIONS,
    ...outputs.map((output) => confirmationsAt(tip, output.blockHeight)),
  );
  if (receivedSats < amount) return { state: 'underpaid', receivedSats, confirmations };
  return {
    state: confirmations >= ONCHAIN_REQUIRED_CONFIRMATIONS ? 'confirmed' : 'confirming',
    receivedSats,
    confirmations,
  };
}

/**
 * Which outputs to put in the ledger now, each group as one payment. While the checkout is open,
 * the whole amount must be there with 4 confirmations on every output, and it is one payment
 * keyed by the output that completed it. Once the checkout is paid (by either method) or expired,
 * each further output is its own payment as soon as it has 4 confirmations: the settlement flags
 * it extra or late, and nothing paid is left out of the ledger.
 */
function paymentsToRecord(
  checkout: CheckoutRow,
  outputs: AddressOutput[],
  recorded: Set<string>,
  amount: bigint,
  tip: number,
  now: Date,
): AddressOutput[][] {
  const deep = (output: AddressOutput) => confirmationsAt(tip, output.blockHeight) >= ONCHAIN_REQUIRED_CONFIRMATIONS;
  const pending = outputs.filter((output) => !recorded.has(`${output.txid}:${output.vout}`));
  if (pending.length === 0) return [];
  const open =
    (checkout.status === 'awaiting_payment' || checkout.status === 'processing') && !isPastExpiry(checkout, now);
  if (!open) return pending.filter(deep).map((output) => [output]);
  const total = pending.reduce((sum, output) => sum + output.valueSats, 0n);
  return total >= amount && pending.every(deep) ? [pending] : [];
}

function outputKey(output: { txid: string; vout: number }): string {
  return `${output.txid}:${output.vout}`;
}

/**
 * Looks at one address and records what changed, inside one transaction holding the address
 * row: so two watchers (two processes) agree and a payment enters the ledger once. Returns the
 * payment hashes to settle after commit.
 */
async function watchAddress(deps: ChainWatchDeps, row: CheckoutAddressRow, tip: number, now: Date): Promise<void> {
  const outputs = await deps.chain.listAddressOutputs(row.address);
  await deps.db.transaction().execute(async (trx) => {
    const address = await findCheckoutAddress(trx, row.checkout_id, { lock: true });
    const checkout = await findCheckout(trx, row.checkout_id, { includeDeleted: true });
    if (!address || !checkout) return;
    await upsertSeenOutputs(trx, address.checkout_id, outputs);
    const recordedRows = (await listSeenOutputs(trx, address.checkout_id)).filter((seen) => seen.invoice_id !== null);
    const recorded = new Set(recordedRows.map(outputKey));
    let recordedMsat = recordedRows.reduce((sum, seen) => sum + BigInt(seen.value_sats), 0n) * 1000n;
    const amount = BigInt(address.amount_sats);
    const seen = observe(outputs, amount, tip);
    const allRecorded = outputs.length > 0 && outputs.every((output) => recorded.has(outputKey(output)));
    if (allRecorded && seen.state !== 'underpaid') seen.state = 'confirmed';

    for (const payment of paymentsToRecord(checkout, outputs, recorded, amount, tip, now)) {
      await recordPayment(trx, checkout, address, payment, recordedMsat, now);
      recordedMsat += payment.reduce((sum, output) => sum + output.valueSats, 0n) * 1000n;
    }

    const changed =
      seen.state !== address.state ||
      seen.receivedSats !== BigInt(address.received_sats) ||
      seen.confirmations !== address.confirmations;
    if (!changed) return;
    const watchUntil = new Date(Math.max(address.watch_until.getTime(), now.getTime() + WATCH_AFTER_MS));
    await updateCheckoutAddressState(trx, address.checkout_id, { ...seen, watchUntil });
    let status: CheckoutStatus = checkout.status;
    if (seen.state === 'confirming' && (await setCheckoutProcessing(trx, checkout.id, true))) {
      status = 'processing';
      await enqueueCheckoutWebhook(trx, { ...checkout, status }, 'checkout.processing', amount);
    }
    const newlyShort = seen.state === 'underpaid' && seen.receivedSats !== BigInt(address.received_sats);
    if (newlyShort && checkout.status !== 'paid') {
      await enqueueCheckoutWebhook(trx, checkout, 'checkout.underpaid', amount);
    }
    if (
      seen.state !== 'confirming' &&
      seen.state !== 'confirmed' &&
      (await setCheckoutProcessing(trx, checkout.id, false))
    ) {
      status = 'awaiting_payment';
    }
    await notifyCheckoutStatus(trx, checkout.id, status);
  });
  for (const paymentHash of await listUnsettledOnchainInvoices(deps.db, row.checkout_id)) {
    await settleInvoice(deps, 'chain', { paymentHash, settledAt: now, settleIndex: 0n, amountPaidMsat: 0n });
  }
}

/**
 * Writes one on-chain payment as its own invoice row, keyed `onchain:<txid>:<vout>` by the output
 * that completed it, booked at its part of the address's quote after the `recordedBeforeMsat`
 * already recorded there (so a payment in full is booked at the price asked); the settlement then
 * puts it in the ledger and pays (or flags) the checkout exactly once.
 */
async function recordPayment(
  trx: Db,
  checkout: CheckoutRow,
  address: CheckoutAddressRow,
  outputs: AddressOutput[],
  recordedBeforeMsat: bigint,
  now: Date,
): Promise<void> {
  const last = outputs[outputs.length - 1];
  const found = await findVirtualBpt(trx, checkout.organization_id, checkout.virtual_bpt_id);
  if (!last || !found) return;
  const amountMsat = outputs.reduce((sum, output) => sum + output.valueSats, 0n) * 1000n;
  const rateMinorPerBtc = BigInt(address.rate_minor_per_btc);
  const totalMinor = fiatOfPayment(onchainQuote(checkout, address, found.bpt.currency), recordedBeforeMsat, amountMsat);
  const invoice = await insertInvoice(trx, {
    organization_id: checkout.organization_id,
    account_id: found.bpt.account_id,
    bpt_id: found.bpt.id,
    payment_hash: `onchain:${outputKey(last)}`,
    payment_request: bip21Uri(address.address, amountMsat / 1000n),
    description: checkout.description,
    amount_msat: amountMsat,
    currency: found.bpt.currency,
    bill_minor: totalMinor,
    tip_minor: 0n,
    tax_minor: 0n,
    total_minor: totalMinor,
    rate_minor_per_btc: rateMinorPerBtc,
    expires_at: now,
    source: checkout.kind === 'store' ? 'checkout' : 'payment_link',
    source_id: checkout.id,
    virtual_bpt_id: checkout.virtual_bpt_id,
  });
  await markOutputsRecorded(trx, outputs, invoice.id);
}

/**
 * One pass of the chain watch: every watched checkout address is read from the chain, its state
 * (awaiting payment, confirming n/4, confirmed, underpaid) updated and announced, and payments
 * with 4 confirmations recorded. Returns how many addresses it looked at.
 */
export async function watchCheckoutPayments(deps: ChainWatchDeps, now = new Date()): Promise<number> {
  const rows = await listWatchedAddresses(deps.db, now);
  if (rows.length === 0) return 0;
  const tip = await deps.chain.getTipHeight();
  for (const row of rows) await watchAddress(deps, row, tip, now);
  return rows.length;
}
