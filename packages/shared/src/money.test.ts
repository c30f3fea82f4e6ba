import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { AppError } from './errors.ts';
import {
  assertInvoiceWithinLimit,
  assertTipWithinLimit,
  computeSale,
  computeSettlement,
  currencyExponent,
  fiatOfPayment,
  fiatReceived,
  fiatToMsat,
  formatMinor,
  isKnownCurrency,
  MAX_INVOICE_MSAT,
  msatToFiatMinor,
  parseAmount,
  parseBtcPrice,
  parsePercentToBps,
  percentOf,
  type Quote,
  SATS,
  satRateMinorPerBtc,
  satsPerUnit,
  taxOf,
} from './money.ts';

const SAMPLE_CURRENCIES = ['USD', 'EUR', 'GTQ', 'JPY', 'KRW', 'CLP', 'BHD', 'KWD', 'CLF', SATS];

const currency = fc.constantFrom(...SAMPLE_CURRENCIES);
const fiatCurrency = fc.constantFrom(...SAMPLE_CURRENCIES.filter((code) => code !== SATS));
/** Amounts a keypad can produce: up to 15 integer digits at any exponent. */
const minorAmount = fc.bigInt({ min: 0n, max: 10n ** 15n - 1n });
/** From a thousandth of a cent to well past the price of a bitcoin in any currency. */
const rate = fc.bigInt({ min: 1n, max: 10n ** 15n });
const msat = fc.bigInt({ min: 0n, max: 21_000_000n * 100_000_000_000n });
const bps = fc.integer({ min: 0, max: 10_000 });
const split = fc
  .tuple(bps, bps)
  .map(([a, b]) => [Math.min(a, b), Math.max(a, b)] as const)
  .map(([low, high]) => ({ fiatBps: low, onchainBps: high - low, lightningBps: 10_000 - high }));

function errorCodeOf(run: () => unknown): string | undefined {
  try {
    run();
  } catch (error) {
    return error instanceof AppError ? error.code : `not an AppError: ${String(error)}`;
  }
  return undefined;
}

describe('currencyExponent', () => {
  it('follows ISO 4217 minor units, and SAT counts whole satoshis', () => {
    const expected: Record<string, number> = {
      USD: 2,
      EUR: 2,
      GTQ: 2,
      COP: 2,
      HUF: 2,
      IDR: 2,
      JPY: 0,
      KRW: 0,
      CLP: 0,
      PYG: 0,
      VND: 0,
      ISK: 0,
      UGX: 0,
      XAF: 0,
      XOF: 0,
      BHD: 3,
      KWD: 3,
      OMR: 3,
      JOD: 3,
      TND: 3,
      LYD: 3,
      IQD: 3,
      CLF: 4,
      SAT: 0,
    };
    for (const [code, exponent] of Object.entries(expected))
      expect([code, currencyExponent(code)]).toEqual([code, exponent]);
  });

  it('knows every circulating currency the runtime knows', () => {
    // Withdrawn from ISO 4217, or units no sale is priced in.
    const notSold = new Set(['CUC', 'HRK', 'SLL', 'ZWL', 'XDR', 'XSU']);
    const missing = Intl.supportedValuesOf('currency').filter((code) => !notSold.has(code) && !isKnownCurrency(code));
    expect(missing).toEqual([]);
  });

  it('refuses unknown codes', () => {
    for (const code of ['XYZ', 'usd', '', 'BTC', 'XAU']) {
      expect(isKnownCurrency(code)).toBe(false);
      expect(errorCodeOf(() => currencyExponent(code))).toBe('InvalidCurrency');
    }
  });
});

describe('parseAmount and formatMinor', () => {
  it('reads keypad amounts in minor units', () => {
    expect(parseAmount('12.5', 'USD')).toBe(1250n);
    expect(parseAmount('12.50', 'USD')).toBe(1250n);
    expect(parseAmount('12', 'USD')).toBe(1200n);
    expect(parseAmount(' 0.01 ', 'USD')).toBe(1n);
    expect(parseAmount('0', 'USD')).toBe(0n);
    expect(parseAmount('1500', 'JPY')).toBe(1500n);
    expect(parseAmount('1.234', 'BHD')).toBe(1234n);
    expect(parseAmount('1250', SATS)).toBe(1250n);
  });

  it('refuses junk, negatives and more decimals than the currency has, with the code asked for', () => {
    const junk = ['', ' ', '-1', '+1', '1e3', '1,50', '.5', '5.', 'abc', '0x10', '1.2.3', '١٢', '1234567890123456'];
    for (const text of junk)
      expect([text, errorCodeOf(() => parseAmount(text, 'USD'))]).toEqual([text, 'InvalidAmount']);
    expect(errorCodeOf(() => parseAmount('1.234', 'USD'))).toBe('InvalidAmount');
    expect(errorCodeOf(() => parseAmount('1.5', 'JPY'))).toBe('InvalidAmount');
    expect(errorCodeOf(() => parseAmount('1.0', SATS))).toBe('InvalidAmount');
    expect(errorCodeOf(() => parseAmount('-1', 'USD', 'InvalidTip'))).toBe('InvalidTip');
    expect(errorCodeOf(() => parseAmount('1', 'XYZ'))).toBe('InvalidCurrency');
  });

  it('formats with exactly the currency’s decimals', () => {
    expect(formatMinor(1250n, 'USD')).toBe('12.50');
    expect(formatMinor(5n, 'USD')).toBe('0.05');
    expect(formatMinor(0n, 'USD')).toBe('0.00');
    expect(formatMinor(5n, 'BHD')).toBe('0.005');
    expect(formatMinor(1500n, 'JPY')).toBe('1500');
    expect(formatMinor(1250n, SATS)).toBe('1250');
    expect(formatMinor(-1250n, 'USD')).toBe('-12.50');
  });

  it('round-trips: parseAmount(formatMinor(x)) = x', () => {
    fc.assert(
      fc.property(minorAmount, currency, (minor, code) => {
        const text = formatMinor(minor, code);
        expect(text).toMatch(
          currencyExponent(code) === 0 ? /^\d+$/ : new RegExp(`^\\d+\\.\\d{${currencyExponent(code)}}$`),
        );
        expect(parseAmount(text, code)).toBe(minor);
      }),
    );
  });

  it('keeps the order of amounts', () => {
    fc.assert(
      fc.property(minorAmount, minorAmount, currency, (a, b, code) => {
        const [x, y] = [parseAmount(formatMinor(a, code), code), parseAmount(formatMinor(b, code), code)];
        expect(x <= y).toBe(a <= b);
      }),
    );
  });
});

describe('parsePercentToBps', () => {
  it('reads percentages with up to two decimals as numbers or strings', () => {
    expect(parsePercentToBps('12')).toBe(1200);
    expect(parsePercentToBps(12)).toBe(1200);
    expect(parsePercentToBps('7.25')).toBe(725);
    expect(parsePercentToBps(7.25)).toBe(725);
    expect(parsePercentToBps(0.1)).toBe(10);
    expect(parsePercentToBps('0.07')).toBe(7);
    expect(parsePercentToBps(0)).toBe(0);
    expect(parsePercentToBps(-0)).toBe(0);
    expect(parsePercentToBps('100')).toBe(10_000);
    expect(parsePercentToBps(100)).toBe(10_000);
  });

  it('refuses more decimals, negatives, more than 100 and junk', () => {
    const bad = ['7.255', 7.255, '-1', -1, '100.01', 100.01, 101, '1e2', 1e-7, Number.NaN, Infinity, '', 'abc', '.5'];
    for (const value of bad) {
      expect([value, errorCodeOf(() => parsePercentToBps(value))]).toEqual([value, 'InvalidTaxPercentage']);
    }
  });

  it('reads every two-decimal percentage exactly, as a number too', () => {
    fc.assert(
      fc.property(bps, (expected) => {
        const text = `${Math.trunc(expected / 100)}.${String(expected % 100).padStart(2, '0')}`;
        expect(parsePercentToBps(text)).toBe(expected);
        expect(parsePercentToBps(Number(text))).toBe(expected);
      }),
    );
  });
});

describe('taxOf, percentOf and computeSale', () => {
  it('rounds half up to the minor unit', () => {
    expect(taxOf(1n, 5000)).toBe(1n);
    expect(taxOf(1n, 4999)).toBe(0n);
    expect(taxOf(1000n, 1200)).toBe(120n);
    expect(taxOf(1999n, 725)).toBe(145n); // 144.9275
    expect(percentOf(1050n, 1500)).toBe(158n); // 157.5
    expect(percentOf(1049n, 1500)).toBe(157n); // 157.35
  });

  it('takes exact halves up, below zero too', () => {
    fc.assert(
      fc.property(fc.bigInt({ min: -(10n ** 15n), max: 10n ** 15n }), (whole) => {
        // (2w + 1) × 50% = w + ½
        expect(percentOf(2n * whole + 1n, 5000)).toBe(whole + 1n);
        expect(taxOf(2n * whole + 1n, 5000)).toBe(whole + 1n);
      }),
    );
  });

  it('is the nearest minor unit, halves up, below zero too', () => {
    fc.assert(
      fc.property(fc.bigInt({ min: -(10n ** 15n), max: 10n ** 15n }), bps, (amount, rateBps) => {
        for (const result of [taxOf(amount, rateBps), percentOf(amount, rateBps)]) {
          const error = result * 10_000n - amount * BigInt(rateBps);
          expect(error > -5000n && error <= 5000n).toBe(true);
        }
      }),
    );
  });

  it('adds bill, tip and the tax on the bill exactly', () => {
    expect(computeSale({ billMinor: 1000n, tipMinor: 150n, taxBps: 1200 })).toEqual({
      billMinor: 1000n,
      tipMinor: 150n,
      taxMinor: 120n,
      totalMinor: 1270n,
    });
    fc.assert(
      fc.property(minorAmount, minorAmount, bps, (billMinor, tipMinor, taxBps) => {
        const sale = computeSale({ billMinor, tipMinor, taxBps });
        expect(sale.taxMinor).toBe(taxOf(billMinor, taxBps));
        expect(sale.totalMinor).toBe(billMinor + tipMinor + sale.taxMinor);
      }),
    );
  });

  it('refuses tax rates outside 0..10000 basis points', () => {
    expect(() => taxOf(100n, -1)).toThrow();
    expect(() => taxOf(100n, 10_001)).toThrow();
    expect(() => taxOf(100n, 1.5)).toThrow();
  });
});

describe('the limits of one sale', () => {
  const codeOf = (run: () => void) => {
    try {
      run();
    } catch (error) {
      return error instanceof AppError ? error.code : 'not an AppError';
    }
    return undefined;
  };

  it('takes a tip up to the bill, and refuses a larger one with InvalidTip', () => {
    expect(codeOf(() => assertTipWithinLimit(5000n, 5000n, 'USD'))).toBeUndefined();
    expect(codeOf(() => assertTipWithinLimit(5000n, 0n, 'USD'))).toBeUndefined();
    expect(codeOf(() => assertTipWithinLimit(5000n, 5001n, 'USD'))).toBe('InvalidTip');
    expect(() => assertTipWithinLimit(5000n, 99_999_900n, 'USD')).toThrow('at most the amount of the bill (50.00)');
  });

  it('caps an invoice at 1 BTC, which keeps the msat a safe JSON integer with room for sums', () => {
    expect(MAX_INVOICE_MSAT).toBe(100_000_000_000n);
    expect(codeOf(() => assertInvoiceWithinLimit(MAX_INVOICE_MSAT))).toBeUndefined();
    expect(codeOf(() => assertInvoiceWithinLimit(MAX_INVOICE_MSAT + 1n))).toBe('InvalidAmount');
    expect(MAX_INVOICE_MSAT * 90_000n <= BigInt(Number.MAX_SAFE_INTEGER)).toBe(true);
  });
});

describe('parseBtcPrice', () => {
  it('reads decimal prices of one bitcoin in minor units, half up', () => {
    expect(parseBtcPrice('95000', 'USD')).toBe(9_500_000n);
    expect(parseBtcPrice('95000.12', 'USD')).toBe(9_500_012n);
    expect(parseBtcPrice('95000.125', 'USD')).toBe(9_500_013n);
    expect(parseBtcPrice('95000.1249999', 'USD')).toBe(9_500_012n);
    expect(parseBtcPrice('95000.10000', 'USD')).toBe(9_500_010n);
    expect(parseBtcPrice('14500000.5', 'JPY')).toBe(14_500_001n);
    expect(parseBtcPrice('29000.0005', 'KWD')).toBe(29_000_001n);
    expect(parseBtcPrice('0.005', 'USD')).toBe(1n);
  });

  it('reads the exponent form a JSON number may print as', () => {
    expect(parseBtcPrice('1.5e+10', 'IRR')).toBe(1_500_000_000_000n);
    expect(parseBtcPrice('9.5e4', 'USD')).toBe(9_500_000n);
    expect(parseBtcPrice('9.50001E+4', 'USD')).toBe(9_500_010n);
    expect(parseBtcPrice('95000125e-3', 'USD')).toBe(9_500_013n);
  });

  it('fails on prices that are not positive or not numbers', () => {
    for (const price of ['0', '0.00', '0.004', '-95000', '', '.', 'abc', '95,000', 'NaN', 'Infinity', '1e99999']) {
      expect(() => parseBtcPrice(price, 'USD'), price).toThrow(Error);
    }
    // JSON numbers print in exponent form from 10^21 up, beyond what a bigint column holds.
    expect(() => parseBtcPrice(String(1.5e21), 'JPY')).toThrow(/too large/);
  });

  it('reads any exact price exactly, and rounds the digits beyond the minor unit half up', () => {
    fc.assert(
      fc.property(
        fc.bigInt({ min: 1n, max: 10n ** 15n }),
        fiatCurrency,
        fc.stringMatching(/^\d{0,12}$/),
        (minor, code, extra) => {
          const exact = formatMinor(minor, code);
          expect(parseBtcPrice(exact, code)).toBe(minor);
          const withExtra = currencyExponent(code) === 0 ? `${exact}.${extra}` : exact + extra;
          expect(parseBtcPrice(withExtra, code)).toBe(minor + ((extra[0] ?? '0') >= '5' ? 1n : 0n));
        },
      ),
    );
  });
});

describe('fiatToMsat, msatToFiatMinor and satsPerUnit', () => {
  it('converts at a rate of minor units per bitcoin', () => {
    // 12.50 USD at 95,000 USD per BTC is 13,157.89… sat.
    expect(fiatToMsat(1250n, 9_500_000n, 'USD')).toBe(13_158_000n);
    expect(msatToFiatMinor(13_158_000n, 9_500_000n, 'USD')).toBe(1250n);
    expect(satsPerUnit(9_500_000n, 'USD')).toBe('1052.632');
    expect(satsPerUnit(14_500_000n, 'JPY')).toBe('6.897');
    expect(satsPerUnit(3_000_000n, 'KWD')).toBe('33333.333');
    expect(satsPerUnit(100_000_000_000n, 'USD')).toBe('0.100');
  });

  it('takes SAT amounts as whole satoshis, through the same formulas at satRateMinorPerBtc', () => {
    expect(satRateMinorPerBtc).toBe(100_000_000n);
    expect(fiatToMsat(1250n, satRateMinorPerBtc, SATS)).toBe(1_250_000n);
    expect(msatToFiatMinor(1_250_999n, satRateMinorPerBtc, SATS)).toBe(1250n);
    expect(satsPerUnit(satRateMinorPerBtc, SATS)).toBe('1.000');
    fc.assert(
      fc.property(minorAmount, (sats) => {
        expect(fiatToMsat(sats, satRateMinorPerBtc, SATS)).toBe(sats * 1000n);
        expect(fiatToMsat(sats, satRateMinorPerBtc, 'JPY')).toBe(sats * 1000n);
      }),
    );
  });

  it('charges the nearest whole satoshi, halves up', () => {
    fc.assert(
      fc.property(minorAmount, rate, fiatCurrency, (total, rateMinorPerBtc, code) => {
        const charged = fiatToMsat(total, rateMinorPerBtc, code);
        expect(charged % 1000n).toBe(0n);
        // |sats − total × 10^8 / rate| ≤ ½, with exact halves going up.
        const error = (charged / 1000n) * rateMinorPerBtc * 2n - total * 100_000_000n * 2n;
        expect(error > -rateMinorPerBtc && error <= rateMinorPerBtc).toBe(true);
      }),
    );
  });

  it('charges an exact half satoshi up', () => {
    fc.assert(
      fc.property(minorAmount, fc.bigInt({ min: 1n, max: 1_000_000n }), (sats, scale) => {
        // (2s + 1)·m minor units at 2·10^8·m per bitcoin is s + ½ sat.
        expect(fiatToMsat((2n * sats + 1n) * scale, 200_000_000n * scale, 'USD')).toBe((sats + 1n) * 1000n);
      }),
    );
  });

  it('is monotonic in the amount and the same every time', () => {
    fc.assert(
      fc.property(minorAmount, minorAmount, rate, currency, (a, b, rateMinorPerBtc, code) => {
        const [low, high] = a <= b ? [a, b] : [b, a];
        expect(fiatToMsat(low, rateMinorPerBtc, code) <= fiatToMsat(high, rateMinorPerBtc, code)).toBe(true);
        expect(fiatToMsat(a, rateMinorPerBtc, code)).toBe(fiatToMsat(a, rateMinorPerBtc, code));
      }),
    );
  });

  it('values msat in fiat rounded down', () => {
    fc.assert(
      fc.property(msat, rate, fiatCurrency, (amount, rateMinorPerBtc, code) => {
        const fiat = msatToFiatMinor(amount, rateMinorPerBtc, code);
        expect(fiat * 100_000_000_000n <= amount * rateMinorPerBtc).toBe(true);
        expect((fiat + 1n) * 100_000_000_000n > amount * rateMinorPerBtc).toBe(true);
      }),
    );
  });

  it('gives sats per unit to the msat, halves up', () => {
    fc.assert(
      fc.property(rate, fiatCurrency, (rateMinorPerBtc, code) => {
        const text = satsPerUnit(rateMinorPerBtc, code);
        expect(text).toMatch(/^\d+\.\d{3}$/);
        const msatPerUnit = BigInt(text.replace('.', ''));
        const exact = 100_000_000_000n * 10n ** BigInt(currencyExponent(code));
        const error = msatPerUnit * rateMinorPerBtc * 2n - exact * 2n;
        expect(error > -rateMinorPerBtc && error <= rateMinorPerBtc).toBe(true);
      }),
    );
  });

  it('refuses rates that are not positive', () => {
    expect(() => fiatToMsat(100n, 0n, 'USD')).toThrow();
    expect(() => msatToFiatMinor(100n, -1n, 'USD')).toThrow();
    expect(() => satsPerUnit(0n, 'USD')).toThrow();
    expect(errorCodeOf(() => fiatToMsat(100n, 1n, 'XYZ'))).toBe('InvalidCurrency');
  });
});

/** A quote as a checkout makes one: its amount charged at the rate, in whole satoshis. */
const quote = fc
  .tuple(fc.bigInt({ min: 1n, max: 10n ** 12n }), rate, currency)
  .map(([minor, rateMinorPerBtc, code]): Quote => {
    const rateOfCode = code === SATS ? satRateMinorPerBtc : rateMinorPerBtc;
    return { msat: fiatToMsat(minor, rateOfCode, code), minor, rateMinorPerBtc: rateOfCode, currency: code };
  })
  .filter((q) => q.msat > 0n);

/** A quote's satoshis cut into up to five payments that together pay `share` of it, in thousandths. */
function partsOf(q: Quote, cuts: number[], share: number): bigint[] {
  const total = (q.msat * BigInt(share)) / 1000n;
  const points = [0n, ...cuts.map((cut) => (total * BigInt(cut)) / 1000n).sort((a, b) => (a < b ? -1 : 1)), total];
  return points.slice(1).map((point, i) => point - (points[i] as bigint));
}

describe('fiatReceived and fiatOfPayment', () => {
  it('books a sale paid in full at the price asked, where its satoshis valued back would lose a unit', () => {
    // Q61.00 at Q730,000 is 8,356.16 sats, charged as 8,356: worth Q60.99 valued back.
    const q61: Quote = {
      msat: fiatToMsat(6100n, 73_000_000n, 'GTQ'),
      minor: 6100n,
      rateMinorPerBtc: 73_000_000n,
      currency: 'GTQ',
    };
    expect(q61.msat).toBe(8_356_000n);
    expect(msatToFiatMinor(q61.msat, q61.rateMinorPerBtc, 'GTQ')).toBe(6099n);
    expect(fiatReceived(q61, q61.msat)).toBe(6100n);
    // 6,219 of 8,219 sats of Q60.00 is Q45.39; the Lightning rest of 2,000 sats completes it.
    const q60: Quote = { msat: 8_219_000n, minor: 6000n, rateMinorPerBtc: 73_001_582n, currency: 'GTQ' };
    expect(fiatOfPayment(q60, 0n, 6_219_000n)).toBe(4539n);
    expect(fiatOfPayment(q60, 6_219_000n, 2_000_000n)).toBe(1461n);
  });

  it('is the quoted amount for a payment in full, whatever the currency, rate or amount', () => {
    fc.assert(
      fc.property(quote, (q) => {
        expect(fiatReceived(q, q.msat)).toBe(q.minor);
      }),
    );
  });

  it('adds up: the parts of a payment, in any order, sum to what their total is worth', () => {
    fc.assert(
      fc.property(
        quote,
        fc.array(fc.integer({ min: 0, max: 1000 }), { maxLength: 4 }),
        fc.integer({ min: 0, max: 3000 }),
        (q, cuts, share) => {
          const parts = partsOf(q, cuts, share);
          const total = parts.reduce((sum, part) => sum + part, 0n);
          for (const order of [parts, [...parts].reverse()]) {
            let before = 0n;
            let booked = 0n;
            for (const part of order) {
              const fiat = fiatOfPayment(q, before, part);
              expect(fiat >= 0n).toBe(true);
              booked += fiat;
              before += part;
            }
            expect(booked).toBe(fiatReceived(q, total));
          }
        },
      ),
    );
  });

  it('books a sale paid in full in several parts at exactly the price asked', () => {
    fc.assert(
      fc.property(quote, fc.array(fc.integer({ min: 0, max: 1000 }), { maxLength: 4 }), (q, cuts) => {
        let before = 0n;
        let booked = 0n;
        for (const part of partsOf(q, cuts, 1000)) {
          booked += fiatOfPayment(q, before, part);
          before += part;
        }
        expect(before).toBe(q.msat);
        expect(booked).toBe(q.minor);
      }),
    );
  });

  it('values a short payment at its share of the quote, and an overpayment at the price plus the excess at the rate', () => {
    fc.assert(
      fc.property(quote, msat, (q, paid) => {
        const fiat = fiatReceived(q, paid);
        if (paid < q.msat) {
          expect(fiat * q.msat <= q.minor * paid).toBe(true);
          expect((fiat + 1n) * q.msat > q.minor * paid).toBe(true);
        } else {
          expect(fiat).toBe(q.minor + msatToFiatMinor(paid - q.msat, q.rateMinorPerBtc, q.currency));
        }
      }),
    );
  });

  it('never decreases as more arrives', () => {
    fc.assert(
      fc.property(quote, msat, msat, (q, a, b) => {
        const [low, high] = a <= b ? [a, b] : [b, a];
        expect(fiatReceived(q, low) <= fiatReceived(q, high)).toBe(true);
      }),
    );
  });

  it('refuses an empty quote and negative payments', () => {
    const q: Quote = { msat: 1000n, minor: 1n, rateMinorPerBtc: 1n, currency: 'USD' };
    expect(() => fiatReceived({ ...q, msat: 0n }, 0n)).toThrow();
    expect(() => fiatReceived(q, -1n)).toThrow();
    expect(() => fiatOfPayment(q, 0n, -1n)).toThrow();
  });
});

describe('computeSettlement', () => {
  it('takes the fees and splits the income as DESIGN §4 says', () => {
    const settlement = computeSettlement({
      totalMsat: 13_158_000n,
      rateMinorPerBtc: 9_500_000n,
      currency: 'USD',
      txFeeBps: 100,
      conversionFeeBps: 100,
      split: { fiatBps: 5000, onchainBps: 2500, lightningBps: 2500 },
    });
    // net 13,026,420; fiat gross 6,513,210; conversion fee 65,132.1 → 65,132.
    expect(settlement).toEqual({
      txFeeMsat: 131_580n,
      conversionFeeMsat: 65_132n,
      incomeMsat: 12_961_288n,
      fiatMsat: 6_448_078n,
      onchainMsat: 3_256_605n,
      lightningMsat: 3_256_605n,
      fiatIncomeMinor: 612n,
    });
  });

  it('gives the split’s rounding remainder to Lightning', () => {
    const settlement = computeSettlement({
      totalMsat: 1001n,
      rateMinorPerBtc: satRateMinorPerBtc,
      currency: SATS,
      txFeeBps: 0,
      conversionFeeBps: 0,
      split: { fiatBps: 3333, onchainBps: 3333, lightningBps: 3334 },
    });
    expect([settlement.fiatMsat, settlement.onchainMsat, settlement.lightningMsat]).toEqual([333n, 333n, 335n]);
    expect(settlement.fiatIncomeMinor).toBe(0n);
  });

  it('always adds up, never goes negative, and is deterministic', () => {
    fc.assert(
      fc.property(
        msat,
        rate,
        currency,
        bps,
        bps,
        split,
        (totalMsat, rateMinorPerBtc, code, txFeeBps, conversionFeeBps, shares) => {
          const input = { totalMsat, rateMinorPerBtc, currency: code, txFeeBps, conversionFeeBps, split: shares };
          const s = computeSettlement(input);
          expect(s.txFeeMsat + s.conversionFeeMsat + s.incomeMsat).toBe(totalMsat);
          expect(s.fiatMsat + s.onchainMsat + s.lightningMsat).toBe(s.incomeMsat);
          for (const value of Object.values(s)) expect(value >= 0n).toBe(true);
          expect(s.txFeeMsat).toBe(percentOf(totalMsat, txFeeBps));
          expect(s.fiatIncomeMinor).toBe(msatToFiatMinor(s.fiatMsat, rateMinorPerBtc, code));
          if (shares.fiatBps === 0) expect(s.conversionFeeMsat).toBe(0n);
          expect(computeSettlement(input)).toEqual(s);
        },
      ),
    );
  });

  it('refuses splits that do not add up to 100 % and fees outside 0..100 %', () => {
    const base = {
      totalMsat: 1000n,
      rateMinorPerBtc: 9_500_000n,
      currency: 'USD',
      txFeeBps: 100,
      conversionFeeBps: 100,
      split: { fiatBps: 5000, onchainBps: 2500, lightningBps: 2500 },
    };
    expect(() =>
      computeSettlement({ ...base, split: { fiatBps: 5000, onchainBps: 2500, lightningBps: 2499 } }),
    ).toThrow(/add up/);
    expect(() => computeSettlement({ ...base, split: { fiatBps: 10_001, onchainBps: 0, lightningBps: -1 } })).toThrow();
    expect(() => computeSettlement({ ...base, txFeeBps: 10_001 })).toThrow();
    expect(() => computeSettlement({ ...base, conversionFeeBps: -1 })).toThrow();
    expect(() => computeSettlement({ ...base, totalMsat: -1n })).toThrow();
  });
});
