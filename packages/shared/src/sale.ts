import { AppError } from './errors.ts';
import {
  assertInvoiceWithinLimit,
  assertTipWithinLimit,
  computeSale,
  fiatToMsat,
  MAX_INVOICE_MSAT,
  MAX_TIP_BPS,
  msatToFiatMinor,
  parseAmount,
  percentOf,
  type Sale,
} from './money.ts';

/**
 * A terminal sale from the cashier's typing to the msat invoiced: the server prices every fiat
 * invoice with `quoteSale`, and the terminal shows its figures with it, so the figures on screen
 * are the figures charged. Both refuse with the same two rules of money.ts: the terminal checks
 * them together (`saleProblem`) before it asks; the server checks the tip as the request arrives,
 * before it reads the organization and the rate, and the 1 BTC cap once the invoice is priced,
 * for sales in msat too, which have no tip.
 */

/** The tip presets a terminal offers, as a percentage of the bill. */
export const TIP_PRESETS = [0, 10, 15, 20] as const;

/** What the customer adds to the bill: a preset percentage of it, or an amount typed as text. */
export type TipChoice = { kind: 'percent'; percent: number } | { kind: 'amount'; amount: string };

export type SaleQuote = Sale & { amountMsat: bigint };

/** A sale in a currency priced at a rate (minor units per bitcoin): what its invoice charges. */
export function quoteSale(input: {
  billMinor: bigint;
  tipMinor: bigint;
  taxBps: number;
  currency: string;
  rateMinorPerBtc: bigint;
}): SaleQuote {
  const sale = computeSale(input);
  return { ...sale, amountMsat: fiatToMsat(sale.totalMinor, input.rateMinorPerBtc, input.currency) };
}

/** Refuses a sale past what one invoice takes: a tip above the bill, a total above 1 BTC. */
function assertSaleWithinLimits(quote: SaleQuote, currency: string): void {
  assertTipWithinLimit(quote.billMinor, quote.tipMinor, currency);
  assertInvoiceWithinLimit(quote.amountMsat);
}

/**
 * The largest total one sale may charge in a currency at a rate: MAX_INVOICE_MSAT's worth,
 * rounded down. The per-currency cap moves with the rate on purpose: the bound is what one
 * Lightning invoice should carry, and that is a bitcoin amount.
 */
export function maxSaleMinor(rateMinorPerBtc: bigint, currency: string): bigint {
  return msatToFiatMinor(MAX_INVOICE_MSAT, rateMinorPerBtc, currency);
}

/** The most a tip may be on a bill, in the bill's minor units. */
export function maxTipMinor(billMinor: bigint): bigint {
  return (billMinor * BigInt(MAX_TIP_BPS)) / 10_000n;
}

/** The tip of a choice on a bill; a typed amount that is not one throws InvalidTip. */
export function tipOf(choice: TipChoice | null, billMinor: bigint, currency: string): bigint {
  if (choice === null) return 0n;
  if (choice.kind === 'percent') return percentOf(billMinor, Math.round(choice.percent * 100));
  if (choice.amount.trim() === '') return 0n;
  return parseAmount(choice.amount.replace(/\.$/, ''), currency, 'InvalidTip');
}

/**
 * The first rule a terminal sale breaks, as the error the server would answer, or null: a tip
 * that is no amount (a minus sign, letters), a tip above the bill, a total above 1 BTC.
 */
export function saleProblem(input: {
  billMinor: bigint;
  tip: TipChoice | null;
  taxBps: number;
  currency: string;
  rateMinorPerBtc: bigint;
}): AppError | null {
  try {
    const tipMinor = tipOf(input.tip, input.billMinor, input.currency);
    assertSaleWithinLimits(quoteSale({ ...input, tipMinor }), input.currency);
    return null;
  } catch (error) {
    if (error instanceof AppError) return error;
    throw error;
  }
}
