import { AppError } from './errors.ts';

/** `SAT` prices a BPT in satoshis; every other code is an ISO 4217 fiat currency. */
export const SATS = 'SAT';

/**
 * ISO 4217 minor-unit exponents of the active currency codes (List One), by exponent.
 * Precious metals, testing and special drawing units have no minor unit and are left out,
 * since no sale is priced in them.
 */
const codesByExponent: Record<number, string> = {
  0: 'BIF CLP DJF GNF ISK JPY KMF KRW PYG RWF UGX UYI VND VUV XAF XOF XPF',
  2:
    'AED AFN ALL AMD ANG AOA ARS AUD AWG AZN BAM BBD BDT BGN BMD BND BOB BOV BRL BSD BTN BWP BYN BZD ' +
    'CAD CDF CHE CHF CHW CNY COP COU CRC CUP CVE CZK DKK DOP DZD EGP ERN ETB EUR FJD FKP GBP GEL GHS ' +
    'GIP GMD GTQ GYD HKD HNL HTG HUF IDR ILS INR IRR JMD KES KGS KHR KPW KYD KZT LAK LBP LKR LRD LSL ' +
    'MAD MDL MGA MKD MMK MNT MOP MRU MUR MVR MWK MXN MXV MYR MZN NAD NGN NIO NOK NPR NZD PAB PEN PGK ' +
    'PHP PKR PLN QAR RON RSD RUB SAR SBD SCR SDG SEK SGD SHP SLE SOS SRD SSP STN SVC SYP SZL THB TJS ' +
    'TMT TOP TRY TTD TWD TZS UAH USD USN UYU UZS VED VES WST XCD XCG YER ZAR ZMW ZWG',
  3: 'BHD IQD JOD KWD LYD OMR TND',
  4: 'CLF UYW',
};

const exponents = new Map<string, number>([
  [SATS, 0],
  ...Object.entries(codesByExponent).flatMap(([exponent, codes]) =>
    codes.split(' ').map((code) => [code, Number(exponent)] as const),
  ),
]);

/** One bitcoin in millisatoshis. */
const MSAT_PER_BTC = 100_000_000_000n;
const MSAT_PER_SAT = 1000n;
const BPS_PER_UNIT = 10_000n;
/** The largest value a PostgreSQL bigint column holds. */
const MAX_INT8 = 2n ** 63n - 1n;

/**
 * The rate that prices SAT through the fiat formulas: with exponent 0 its minor unit is one
 * satoshi, and one bitcoin is 10^8 of them.
 */
export const satRateMinorPerBtc = 100_000_000n;

export function isKnownCurrency(code: string): boolean {
  return exponents.has(code);
}

export function currencyExponent(code: string): number {
  const exponent = exponents.get(code);
  if (exponent === undefined) throw new AppError('InvalidCurrency', `Unknown currency ${code}`);
  return exponent;
}

function pow10(exponent: number): bigint {
  return 10n ** BigInt(exponent);
}

/** Floor division; bigint `/` truncates toward zero, which rounds negative quotients up. */
function divFloor(numerator: bigint, denominator: bigint): bigint {
  const quotient = numerator / denominator;
  return numerator % denominator !== 0n && numerator < 0n !== denominator < 0n ? quotient - 1n : quotient;
}

/** numerator / denominator rounded to the nearest integer, halves away from minus infinity. */
function divRoundHalfUp(numerator: bigint, denominator: bigint): bigint {
  if (denominator <= 0n) throw new Error('The divisor must be positive');
  return divFloor(2n * numerator + denominator, 2n * denominator);
}

function assertBps(bps: number, what: string): bigint {
  if (!Number.isSafeInteger(bps) || bps < 0 || bps > 10_000) {
    throw new Error(`${what} must be a whole number of basis points from 0 to 10000, got ${bps}`);
  }
  return BigInt(bps);
}

function assertRate(rateMinorPerBtc: bigint): void {
  if (rateMinorPerBtc <= 0n) throw new Error(`A rate must be positive, got ${rateMinorPerBtc}`);
}

const AMOUNT_PATTERN = /^(\d{1,15})(?:\.(\d+))?$/;

/** A keypad amount ("12.5") in the currency's minor unit (1250n for USD). */
export function parseAmount(
  decimal: string,
  currency: string,
  code: 'InvalidAmount' | 'InvalidTip' = 'InvalidAmount',
): bigint {
  const exponent = currencyExponent(currency);
  const match = AMOUNT_PATTERN.exec(decimal.trim());
  const [, whole = '', fraction = ''] = match ?? [];
  if (!match) throw new AppError(code, `"${decimal}" is not an amount`);
  if (fraction.length > exponent) {
    throw new AppError(code, `${currency} amounts have at most ${exponent} decimals`);
  }
  return BigInt(whole + fraction.padEnd(exponent, '0'));
}

/** The exact decimal of a minor-unit amount, with as many decimals as the currency has. */
export function formatMinor(minor: bigint, currency: string): string {
  return shiftDecimal(minor.toString(), currencyExponent(currency));
}

/**
 * An integer's digits as the exact decimal with `exponent` places ("1250", 2 → "12.50"),
 * moved as text so no amount passes through a float.
 */
export function shiftDecimal(integer: string, exponent: number): string {
  if (exponent === 0) return integer;
  const negative = integer.startsWith('-');
  const digits = (negative ? integer.slice(1) : integer).padStart(exponent + 1, '0');
  return `${negative ? '-' : ''}${digits.slice(0, -exponent)}.${digits.slice(-exponent)}`;
}

const PERCENT_PATTERN = /^(\d{1,3})(?:\.(\d{1,2}))?$/;

/** A percentage with up to two decimals ("7.25" or 7.25) in basis points (725), from 0 to 100 %. */
export function parsePercentToBps(value: number | string): number {
  // A number's shortest round-trip text is the decimal it was written as, so no float is multiplied.
  const text = typeof value === 'number' ? (Number.isFinite(value) ? String(value) : '') : value.trim();
  const match = PERCENT_PATTERN.exec(text);
  const [, whole = '', fraction = ''] = match ?? [];
  const bps = Number(whole) * 100 + Number(fraction.padEnd(2, '0'));
  if (!match || bps > 10_000) {
    throw new AppError('InvalidTaxPercentage', 'A percentage is a number from 0 to 100 with at most two decimals');
  }
  return bps;
}

/** `bps` basis points of an amount, rounded half up to the minor unit. */
export function percentOf(amountMinor: bigint, bps: number): bigint {
  if (!Number.isSafeInteger(bps) || bps < 0) throw new Error(`Basis points must be a whole number ≥ 0, got ${bps}`);
  return divRoundHalfUp(amountMinor * BigInt(bps), BPS_PER_UNIT);
}

/** The tax on a bill, rounded half up to the minor unit. */
export function taxOf(billMinor: bigint, taxBps: number): bigint {
  return divRoundHalfUp(billMinor * assertBps(taxBps, 'A tax rate'), BPS_PER_UNIT);
}

/**
 * The most one invoice charges: 1 BTC, in msat, whatever the currency it is priced in. A sale
 * beyond it is far past what a point of sale takes or Lightning routes, and the cap keeps every
 * msat figure a safe JSON integer (DESIGN §4): an invoice up to 2^53 msat would be created, then
 * refuse to serialize, and once paid break every dashboard sum that includes it.
 */
export const MAX_INVOICE_MSAT = MSAT_PER_BTC;

/** A tip is at most the bill itself (100 %); anything larger is a slip on the keypad. */
export const MAX_TIP_BPS = 10_000;

/** Refuses a tip larger than MAX_TIP_BPS of the bill. */
export function assertTipWithinLimit(billMinor: bigint, tipMinor: bigint, currency: string): void {
  if (tipMinor * BPS_PER_UNIT > billMinor * BigInt(MAX_TIP_BPS)) {
    throw new AppError(
      'InvalidTip',
      `The tip may be at most the amount of the bill (${formatMinor(billMinor, currency)})`,
    );
  }
}

/** Refuses an invoice that would charge more than MAX_INVOICE_MSAT. */
export function assertInvoiceWithinLimit(amountMsat: bigint): void {
  if (amountMsat > MAX_INVOICE_MSAT) {
    const sats = (MAX_INVOICE_MSAT / MSAT_PER_SAT).toLocaleString('en-US');
    throw new AppError('InvalidAmount', `An invoice may charge at most ${sats} sats`);
  }
}

export type Sale = { billMinor: bigint; tipMinor: bigint; taxMinor: bigint; totalMinor: bigint };

/** Bill + tip + tax; the tax is charged on the bill only (DESIGN §4). */
export function computeSale(input: { billMinor: bigint; tipMinor: bigint; taxBps: number }): Sale {
  const taxMinor = taxOf(input.billMinor, input.taxBps);
  return {
    billMinor: input.billMinor,
    tipMinor: input.tipMinor,
    taxMinor,
    totalMinor: input.billMinor + input.tipMinor + taxMinor,
  };
}

const PRICE_PATTERN = /^\+?(\d*)(?:\.(\d*))?(?:[eE]([+-]?\d{1,4}))?$/;

/**
 * A source's price of one bitcoin ("95000.12", or a JSON number's text such as "1.2e+21") in the
 * currency's minor units, rounded half up. A price that is not positive after rounding cannot
 * price anything, so it fails.
 */
export function parseBtcPrice(price: string, currency: string): bigint {
  const exponent = currencyExponent(currency);
  const match = PRICE_PATTERN.exec(price.trim());
  const [, whole = '', fraction = '', power = '0'] = match ?? [];
  if (!match || whole + fraction === '') throw new Error(`The ${currency} price "${price}" is not a number`);
  // digits × 10^(shift) minor units, where the decimal point sits `fraction.length` digits from the right.
  const digits = BigInt(whole + fraction);
  const shift = exponent + Number(power) - fraction.length;
  const minor = shift >= 0 ? digits * pow10(shift) : divRoundHalfUp(digits, pow10(-shift));
  if (minor <= 0n) throw new Error(`The ${currency} price "${price}" is not positive`);
  if (minor > MAX_INT8) throw new Error(`The ${currency} price "${price}" is too large to store`);
  return minor;
}

/**
 * The msat a payer is charged for a fiat total, rounded half up to a whole satoshi: wallets that
 * cannot send millisatoshis must still be able to pay it exactly.
 */
export function fiatToMsat(totalMinor: bigint, rateMinorPerBtc: bigint, currency: string): bigint {
  currencyExponent(currency); // rejects unknown codes
  if (currency === SATS) return totalMinor * MSAT_PER_SAT;
  assertRate(rateMinorPerBtc);
  return divRoundHalfUp(totalMinor * (MSAT_PER_BTC / MSAT_PER_SAT), rateMinorPerBtc) * MSAT_PER_SAT;
}

/** The fiat worth of an msat amount, rounded down so that we never promise more than we hold. */
export function msatToFiatMinor(msat: bigint, rateMinorPerBtc: bigint, currency: string): bigint {
  currencyExponent(currency); // rejects unknown codes
  if (currency === SATS) return divFloor(msat, MSAT_PER_SAT);
  assertRate(rateMinorPerBtc);
  return divFloor(msat * rateMinorPerBtc, MSAT_PER_BTC);
}

/** Satoshis per one major unit of the currency ("1052.632" per USD at 95,000 USD), to the msat, half up. */
export function satsPerUnit(rateMinorPerBtc: bigint, currency: string): string {
  const exponent = currencyExponent(currency);
  if (currency === SATS) return '1.000';
  assertRate(rateMinorPerBtc);
  const msat = divRoundHalfUp(MSAT_PER_BTC * pow10(exponent), rateMinorPerBtc);
  return `${msat / MSAT_PER_SAT}.${(msat % MSAT_PER_SAT).toString().padStart(3, '0')}`;
}

/**
 * What a payer was asked: `msat` for `minor` of `currency`, priced at `rateMinorPerBtc`. A quote
 * is the one figure both payment methods of a checkout share, so that what arrives by either is
 * booked against the same price.
 */
export type Quote = { msat: bigint; minor: bigint; rateMinorPerBtc: bigint; currency: string };

/**
 * The fiat worth of `paidMsat` received against a quote. Paid in full, it is the quoted amount
 * itself: a sale is booked at the price asked whichever way it was paid, not at its satoshis
 * valued back at the rate (rounded twice, that loses a minor unit). Short, it is the same share of
 * the quote, rounded down; beyond it, the excess is valued at the quote's rate, rounded down.
 */
export function fiatReceived(quote: Quote, paidMsat: bigint): bigint {
  if (quote.msat <= 0n) throw new Error(`A quote must ask for more than nothing, got ${quote.msat} msat`);
  if (quote.minor < 0n) throw new Error(`A quote cannot be worth less than nothing, got ${quote.minor}`);
  if (paidMsat < 0n) throw new Error(`A payment cannot be negative, got ${paidMsat}`);
  if (paidMsat < quote.msat) return (quote.minor * paidMsat) / quote.msat;
  return quote.minor + msatToFiatMinor(paidMsat - quote.msat, quote.rateMinorPerBtc, quote.currency);
}

/**
 * The fiat of one payment of `paymentMsat` towards a quote of which `paidBeforeMsat` had arrived:
 * what it adds to `fiatReceived`. The payments of one quote, in whatever parts and order they
 * come, add up to `fiatReceived` of their sum, so the last part of a sale completes its price
 * exactly and no minor unit is made or lost between the parts.
 */
export function fiatOfPayment(quote: Quote, paidBeforeMsat: bigint, paymentMsat: bigint): bigint {
  if (paymentMsat < 0n) throw new Error(`A payment cannot be negative, got ${paymentMsat}`);
  return fiatReceived(quote, paidBeforeMsat + paymentMsat) - fiatReceived(quote, paidBeforeMsat);
}

export type PayoutSplit = { fiatBps: number; onchainBps: number; lightningBps: number };

export type SettlementFigures = {
  txFeeMsat: bigint;
  conversionFeeMsat: bigint;
  incomeMsat: bigint;
  fiatMsat: bigint;
  onchainMsat: bigint;
  lightningMsat: bigint;
  fiatIncomeMinor: bigint;
};

/**
 * Divides a settled payment (DESIGN §4): the transaction fee comes off the total, the rest is
 * split; the conversion fee comes off the fiat part only. The Lightning part takes the split's
 * rounding remainder, so the parts always add up to the income exactly.
 */
export function computeSettlement(input: {
  totalMsat: bigint;
  rateMinorPerBtc: bigint;
  currency: string;
  txFeeBps: number;
  conversionFeeBps: number;
  split: PayoutSplit;
}): SettlementFigures {
  const { totalMsat, split } = input;
  if (totalMsat < 0n) throw new Error(`A settled amount cannot be negative, got ${totalMsat}`);
  const txFeeBps = assertBps(input.txFeeBps, 'The transaction fee');
  const conversionFeeBps = assertBps(input.conversionFeeBps, 'The conversion fee');
  const fiatBps = assertBps(split.fiatBps, 'The fiat share');
  const onchainBps = assertBps(split.onchainBps, 'The on-chain share');
  const lightningBps = assertBps(split.lightningBps, 'The Lightning share');
  if (fiatBps + onchainBps + lightningBps !== BPS_PER_UNIT) {
    throw new Error(`A payout split must add up to 10000 basis points, got ${fiatBps + onchainBps + lightningBps}`);
  }

  const txFeeMsat = divRoundHalfUp(totalMsat * txFeeBps, BPS_PER_UNIT);
  const netMsat = totalMsat - txFeeMsat;
  const fiatGrossMsat = (netMsat * fiatBps) / BPS_PER_UNIT;
  const onchainMsat = (netMsat * onchainBps) / BPS_PER_UNIT;
  const lightningMsat = netMsat - fiatGrossMsat - onchainMsat;
  const conversionFeeMsat = divRoundHalfUp(fiatGrossMsat * conversionFeeBps, BPS_PER_UNIT);
  const fiatMsat = fiatGrossMsat - conversionFeeMsat;
  return {
    txFeeMsat,
    conversionFeeMsat,
    incomeMsat: netMsat - conversionFeeMsat,
    fiatMsat,
    onchainMsat,
    lightningMsat,
    fiatIncomeMinor: msatToFiatMinor(fiatMsat, input.rateMinorPerBtc, input.currency),
  };
}
