import { describe, expect, it } from 'vitest';
import { MAX_INVOICE_MSAT, parsePercentToBps } from './money.ts';
import { msatToWholeSats } from './people-format.ts';
import { maxSaleMinor, maxTipMinor, quoteSale, saleProblem, type TipChoice, tipOf } from './sale.ts';

// Q730,000 per bitcoin: 1 BTC is Q730,000.00.
const GTQ = { currency: 'GTQ', rateMinorPerBtc: 73_000_000n };
const USD = { currency: 'USD', rateMinorPerBtc: 10_000_000n }; // $100,000 per bitcoin

function quote(bill: bigint, tip: TipChoice | null, taxPercent: number, at = USD) {
  const tipMinor = tipOf(tip, bill, at.currency);
  return quoteSale({ billMinor: bill, tipMinor, taxBps: parsePercentToBps(taxPercent), ...at });
}

describe('quoteSale', () => {
  it('adds a percentage tip and the tax of the bill, and prices the total in whole sats', () => {
    // Q127.00 at Q730,000 per bitcoin is 17,397.26 sats: 17,397 sats.
    expect(quote(10000n, { kind: 'percent', percent: 15 }, 12, GTQ)).toEqual({
      billMinor: 10000n,
      tipMinor: 1500n,
      taxMinor: 1200n,
      totalMinor: 12700n,
      amountMsat: 17_397_000n,
    });
  });

  it('rounds tip and tax half up to the minor unit', () => {
    // 0.05 × 10 % = 0.005 → 0.01; 0.05 × 7.25 % = 0.003625 → 0.00
    expect(quote(5n, { kind: 'percent', percent: 10 }, 7.25)).toMatchObject({
      tipMinor: 1n,
      taxMinor: 0n,
      totalMinor: 6n,
    });
    // 0.15 × 10 % = 0.015 → 0.02
    expect(quote(15n, { kind: 'percent', percent: 10 }, 0).tipMinor).toBe(2n);
  });

  it('takes a typed tip amount as it is, and no tip when tips are off', () => {
    expect(quote(2000n, { kind: 'amount', amount: '3.5' }, 0)).toMatchObject({ tipMinor: 350n, totalMinor: 2350n });
    expect(quote(2000n, { kind: 'amount', amount: '3.' }, 0).tipMinor).toBe(300n);
    expect(quote(2000n, null, 0).tipMinor).toBe(0n);
    expect(quote(2000n, { kind: 'amount', amount: '' }, 0).tipMinor).toBe(0n);
  });

  it('works in zero-decimal currencies and in sats', () => {
    expect(
      quote(2101n, { kind: 'percent', percent: 10 }, 0, { currency: 'SAT', rateMinorPerBtc: 100_000_000n }),
    ).toEqual({
      billMinor: 2101n,
      tipMinor: 210n,
      taxMinor: 0n,
      totalMinor: 2311n,
      amountMsat: 2_311_000n,
    });
    expect(
      quote(1000n, { kind: 'percent', percent: 15 }, 10, { currency: 'JPY', rateMinorPerBtc: 15_000_000n }),
    ).toMatchObject({
      totalMinor: 1250n,
      amountMsat: 8_333_000n,
    });
  });

  it('keeps every figure exact where floats would drift', () => {
    // 0.1 + 0.2 in floats is 0.30000000000000004.
    expect(quote(10n, { kind: 'amount', amount: '0.20' }, 0).totalMinor).toBe(30n);
  });
});

describe('the limits of one sale', () => {
  const problem = (bill: bigint, tip: TipChoice | null, at = GTQ) =>
    saleProblem({ billMinor: bill, tip, taxBps: 1200, ...at })?.code ?? null;

  it('caps the total at 1 BTC, worth a different amount in each currency', () => {
    expect(maxSaleMinor(GTQ.rateMinorPerBtc, 'GTQ')).toBe(73_000_000n);
    expect(maxSaleMinor(USD.rateMinorPerBtc, 'USD')).toBe(10_000_000n);
    expect(maxSaleMinor(100_000_000n, 'SAT')).toBe(100_000_000n);
    expect(quoteSale({ billMinor: 73_000_000n, tipMinor: 0n, taxBps: 0, ...GTQ }).amountMsat).toBe(MAX_INVOICE_MSAT);
    // With the 12 % tax, Q651,785.71 of bill is Q729,999.99 in all; one cent more is past 1 BTC.
    expect(problem(65_178_571n, null)).toBeNull();
    expect(problem(65_178_600n, null)).toBe('InvalidAmount');
    // 15 nines: refused as an amount, never reaching the Lightning node.
    expect(problem(999_999_999_999_999n, null)).toBe('InvalidAmount');
  });

  it('caps a tip at the bill and refuses a tip that is no amount', () => {
    expect(maxTipMinor(5000n)).toBe(5000n);
    expect(problem(5000n, { kind: 'amount', amount: '50' })).toBeNull();
    expect(problem(5000n, { kind: 'amount', amount: '50.01' })).toBe('InvalidTip');
    expect(problem(5000n, { kind: 'amount', amount: '999999' })).toBe('InvalidTip');
    expect(problem(5000n, { kind: 'amount', amount: '-1' })).toBe('InvalidTip');
    expect(problem(5000n, { kind: 'amount', amount: 'abc' })).toBe('InvalidTip');
    expect(problem(5000n, { kind: 'amount', amount: '1.234' })).toBe('InvalidTip');
    expect(problem(5000n, { kind: 'percent', percent: 20 })).toBeNull();
  });
});

describe('msatToWholeSats', () => {
  it('rounds down to a whole satoshi, as the country report does', () => {
    expect(msatToWholeSats(1_234_567)).toBe(1234n);
    expect(msatToWholeSats(1_234_999n)).toBe(1234n);
    expect(msatToWholeSats(999)).toBe(0n);
    expect(msatToWholeSats(0)).toBe(0n);
  });
});
