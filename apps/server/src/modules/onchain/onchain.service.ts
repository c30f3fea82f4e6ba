import {
  AppError,
  type CheckoutStatus,
  fiatOfPayment,
  fiatToMsat,
  ONCHAIN_REQUIRED_CONFIRMATIONS,
  SATS,
} from '@rayo/shared';
import { type AddressOutput, type ChainBackend, confirmationsAt } from '../../adapters/chain/types.ts';
import type { Db } from '../../db/database.ts';
import type { OnchainState } from '../../db/schema.ts';
import { satsToAsk } from '../../domain/checkout-payments.ts';
import { bip21Uri } from '../../domain/onchain-wallet.ts';
import {
  announceCheckoutStatus,
  type CheckoutRow,
  findCheckout,
  setCheckoutProcessing,
  sumCheckoutSettledPayments,
} from '../checkouts/checkout-state.service.ts';
import { enqueueCheckoutWebhook } from '../checkouts/checkout-webhooks.ts';
import { recordOnchainPaymentInvoice } from '../invoices/invoices.service.ts';
import { settleInvoice } from '../ledger/settlement.service.ts';
import { getRateForInvoice } from '../rates/rates.service.ts';
import { findVirtualBpt } from '../virtual-bpts/virtual-bpts.service.ts';
import { isPastExpiry, type OnchainDeps, onchainQuote, WATCH_AFTER_MS } from './checkout-addresses.service.ts';
import {
  type CheckoutAddressRow,
  findCheckoutAddress,
  listSeenOutputs,
  listUnsettledOnchainInvoices,
  listWatchedAddresses,
  markOutputsRecorded,
  requoteCheckoutAddress,
  updateCheckoutAddressState,
  upsertSeenOutputs,
} from './onchain.repo.ts';

export type ChainWatchDeps = OnchainDeps & { chain: ChainBackend };

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
 * Which outputs to put in the ledger now, each group as one payment: every output not recorded yet
 * once it has 4 confirmations, short or not, so that no bitcoin that arrived is left out of the
 * ledger. While the checkout is open they are one payment, keyed by the last of them (the whole
 * price at once, or a part whose rest follows by either method); once it is paid or expired, each
 * further output is its own payment, which the settlement flags extra or late.
 */
function paymentsToRecord(
  checkout: CheckoutRow,
  outputs: AddressOutput[],
  recorded: Set<string>,
  tip: number,
  now: Date,
): AddressOutput[][] {
  const ready = outputs.filter(
    (output) =>
      !recorded.has(outputKey(output)) && confirmationsAt(tip, output.blockHeight) >= ONCHAIN_REQUIRED_CONFIRMATIONS,
  );
  if (ready.length === 0) return [];
  const open =
    (checkout.status === 'awaiting_payment' || checkout.status === 'processing') && !isPastExpiry(checkout, now);
  return open ? [ready] : ready.map((output) => [output]);
}

/**
 * The first payment seen at an address whose quote has run out is judged against the price of
 * now: the address gets a new quote at the current rate (the satoshis of a price in sats stay).
 * Undefined when no rate can be had now; the address is then looked at again on the next pass.
 */
async function requoteAtSight(
  deps: OnchainDeps,
  trx: Db,
  checkout: CheckoutRow,
  now: Date,
): Promise<CheckoutAddressRow | undefined> {
  const found = await findVirtualBpt(trx, checkout.organization_id, checkout.virtual_bpt_id);
  if (!found) return undefined;
  let rateMinorPerBtc: bigint;
  try {
    rateMinorPerBtc = await getRateForInvoice({ db: trx, config: deps.config }, found.bpt.currency);
  } catch (error) {
    if (error instanceof AppError) return undefined;
    throw error;
  }
  const minor = BigInt(checkout.amount_minor);
  const amountSats =
    checkout.amount_currency === SATS ? minor : satsToAsk(fiatToMsat(minor, rateMinorPerBtc, checkout.amount_currency));
  return requoteCheckoutAddress(trx, checkout.id, { amountSats, rateMinorPerBtc, expiresAt: now });
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
    let address = await findCheckoutAddress(trx, row.checkout_id, { lock: true });
    const checkout = await findCheckout(trx, row.checkout_id, { includeDeleted: true });
    if (!address || !checkout) return;
    const seenBefore = await listSeenOutputs(trx, address.checkout_id);
    if (
      seenBefore.length === 0 &&
      outputs.length > 0 &&
      checkout.status !== 'paid' &&
      address.quote_expires_at <= now
    ) {
      address = await requoteAtSight(deps, trx, checkout, now);
      if (!address) return;
    }
    await upsertSeenOutputs(trx, address.checkout_id, outputs);
    const recordedRows = seenBefore.filter((seen) => seen.invoice_id !== null);
    const recorded = new Set(recordedRows.map(outputKey));
    let recordedMsat = recordedRows.reduce((sum, seen) => sum + BigInt(seen.value_sats), 0n) * 1000n;
    const amount = BigInt(address.amount_sats);
    // What a Lightning payment of the rest paid is no longer asked of the chain.
    const { lightningMsat } = await sumCheckoutSettledPayments(trx, address.checkout_id);
    const seen = observe(outputs, satsToAsk(amount * 1000n - lightningMsat), tip);
    const allRecorded = outputs.length > 0 && outputs.every((output) => recorded.has(outputKey(output)));
    if (allRecorded && seen.state !== 'underpaid') seen.state = 'confirmed';

    for (const payment of paymentsToRecord(checkout, outputs, recorded, tip, now)) {
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
    await announceCheckoutStatus(trx, checkout.id, status);
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
  const invoice = await recordOnchainPaymentInvoice(trx, {
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
