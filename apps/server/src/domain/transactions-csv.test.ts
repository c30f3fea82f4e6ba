import {
  formatMinor,
  isoInstantInZone,
  isoInstantInZoneFormatter,
  TRANSACTIONS_CSV_COLUMNS,
  transactionCsvLine,
  transactionsCsvHeader,
} from '@rayo/shared';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createLedgerCsvFormatter, csvField, csvLine, csvTextField, isoInstantOf } from './transactions-csv.ts';

describe('csvField', () => {
  it('quotes a field only when it holds a comma, a quote or a line break, doubling quotes', () => {
    expect(csvField('Terraza')).toBe('Terraza');
    expect(csvField('Bar "Sur", Zona 10')).toBe('"Bar ""Sur"", Zona 10"');
    expect(csvField('two\nlines')).toBe('"two\nlines"');
    expect(csvField('cr\r')).toBe('"cr\r"');
    expect(csvLine(['a', 'b,c'])).toBe('a,"b,c"\r\n');
  });
});

describe('csvTextField', () => {
  it('shows as text a cell a spreadsheet would run as a formula, and leaves other text alone', () => {
    expect(csvTextField('=HYPERLINK("http://evil.example","x")')).toBe(`"'=HYPERLINK(""http://evil.example"",""x"")"`);
    expect(csvTextField('+1+1')).toBe("'+1+1");
    expect(csvTextField('-2+3')).toBe("'-2+3");
    expect(csvTextField('@SUM(A1)')).toBe("'@SUM(A1)");
    expect(csvTextField('\t=1')).toBe("'\t=1");
    expect(csvTextField('\r=1')).toBe(`"'\r=1"`);
    expect(csvTextField('Terraza')).toBe('Terraza');
    expect(csvTextField('Bar = Sur')).toBe('Bar = Sur');
    expect(csvTextField('')).toBe('');
  });
});

describe('isoInstantOf', () => {
  it('writes PostgreSQL UTC timestamps as the API writes instants, milliseconds cut', () => {
    expect(isoInstantOf('2025-03-15 18:00:00+00')).toBe('2025-03-15T18:00:00.000Z');
    expect(isoInstantOf('2025-03-15 18:00:00.5+00')).toBe('2025-03-15T18:00:00.500Z');
    expect(isoInstantOf('2025-03-15 18:00:00.123999+00')).toBe('2025-03-15T18:00:00.123Z');
  });

  it('agrees with Date for any instant with microseconds', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 4_102_444_799_999 }), fc.integer({ min: 0, max: 999 }), (ms, micro) => {
        const iso = new Date(ms).toISOString();
        const fraction = `${iso.slice(20, 23)}${String(micro).padStart(3, '0')}`.replace(/0+$/, '');
        const postgres = `${iso.slice(0, 10)} ${iso.slice(11, 19)}${fraction ? `.${fraction}` : ''}+00`;
        expect(isoInstantOf(postgres)).toBe(iso);
      }),
    );
  });

  it('refuses a timestamp in any other zone rather than writing a wrong instant', () => {
    expect(() => isoInstantOf('2025-03-15 12:00:00-06')).toThrow();
  });
});

const names = new Map([
  ['6f1c1d2e-0000-4000-8000-000000000001', 'Bar "Sur", Zona 10'],
  ['6f1c1d2e-0000-4000-8000-000000000002', 'Terraza'],
]);
const line = (fields: Record<string, string>) =>
  [
    fields.createdAt ?? '2025-03-15 17:59:58.25+00',
    fields.settledAt ?? '2025-03-15 18:00:00+00',
    fields.accountId ?? '6f1c1d2e-0000-4000-8000-000000000001',
    'ab'.repeat(32),
    fields.bptId ?? '',
    fields.currency ?? 'GTQ',
    fields.totalMsat ?? '1234567',
    fields.billMinor ?? '1250',
    fields.tipMinor ?? '5',
    fields.taxMinor ?? '150',
    '1222221',
    fields.fiatIncomeMinor ?? '0',
    fields.rate ?? '75000000',
    '12345',
    '0',
    fields.fiatBps ?? '5000',
    fields.disbursed ?? 'f',
    fields.source ?? 'terminal',
    fields.refundedMsat ?? '0',
    fields.refundedMinor ?? '0',
    fields.sourceName ?? 'Till 1',
    fields.description ?? '',
  ].join(',');

describe('createLedgerCsvFormatter', () => {
  it("writes every SPEC §3 column with exact decimals, the account name quoted and times on the zone's clock", () => {
    const format = createLedgerCsvFormatter(names, 'America/Guatemala');
    expect(format(line({}))).toBe(
      `${[
        '2025-03-15T11:59:58.250-06:00',
        '2025-03-15T12:00:00.000-06:00',
        '6f1c1d2e-0000-4000-8000-000000000001',
        '"Bar ""Sur"", Zona 10"',
        'ab'.repeat(32),
        '',
        'BTC/GTQ',
        '1234567',
        // Whole sats, rounded down as the country report rounds its paid sats.
        '1234',
        '12.50',
        '0.05',
        '1.50',
        '1222221',
        '0.00',
        '133.333',
        '12345',
        '0',
        '50.00',
        'false',
        'GTQ',
        'terminal',
        'Till 1',
        '',
        'lightning',
        '0',
        '0.00',
        '1222221',
      ].join(',')}\r\n`,
    );
  });

  it("writes what the sale's refunds gave back and what it netted, below zero when they took the fees too", () => {
    const format = createLedgerCsvFormatter(names, 'UTC');
    const refunded = format(line({ refundedMsat: '1000000', refundedMinor: '1012' })).split(',');
    expect(refunded.slice(-3)).toEqual(['1000000', '10.12', '222221\r\n']);
    const whole = format(line({ refundedMsat: '1234567', refundedMinor: '1405' })).split(',');
    expect(whole.slice(-3)).toEqual(['1234567', '14.05', '-12346\r\n']);
  });

  it('neutralises an account name a spreadsheet would run as a formula, and no amount', () => {
    const accountId = '6f1c1d2e-0000-4000-8000-000000000003';
    const format = createLedgerCsvFormatter(new Map([[accountId, '=cmd|" /C calc"!A0']]), 'UTC');
    const fields = format(line({ accountId, billMinor: '-1250', tipMinor: '-5' })).split(',');
    expect(fields[3]).toBe(`"'=cmd|"" /C calc""!A0"`);
    expect(fields.slice(9, 11)).toEqual(['-12.50', '-0.05']);
  });

  it('follows each currency’s minor unit and says true for a disbursed sale', () => {
    const format = createLedgerCsvFormatter(names, 'UTC');
    const row = format(
      line({
        accountId: '6f1c1d2e-0000-4000-8000-000000000002',
        currency: 'CLP',
        billMinor: '1250',
        tipMinor: '0',
        taxMinor: '7',
        rate: '90000000',
        disbursed: 't',
        bptId: '6f1c1d2e-0000-4000-8000-00000000000b',
      }),
    ).split(',');
    expect(row[3]).toBe('Terraza');
    expect(row[5]).toBe('6f1c1d2e-0000-4000-8000-00000000000b');
    expect(row.slice(9, 12)).toEqual(['1250', '0', '7']);
    expect(row[18]).toBe('true');
  });

  it('writes fiat amounts as formatMinor does, for any amount', () => {
    const format = createLedgerCsvFormatter(names, 'UTC');
    fc.assert(
      fc.property(fc.bigInt({ min: 0n, max: 2n ** 62n }), (minor) => {
        const terraza = '6f1c1d2e-0000-4000-8000-000000000002';
        const row = format(
          line({ accountId: terraza, billMinor: String(minor), fiatIncomeMinor: String(minor) }),
        ).split(',');
        expect(row[9]).toBe(formatMinor(minor, 'GTQ'));
        expect(row[13]).toBe(formatMinor(minor, 'GTQ'));
      }),
    );
  });
});

describe('one column list for every ledger CSV', () => {
  it('writes a ledger line as the shared transactionCsvLine writes the same sale', () => {
    const zones = ['America/Guatemala', 'America/St_Johns', 'Europe/Madrid', 'Australia/Lord_Howe', 'UTC'];
    fc.assert(
      fc.property(
        fc.integer({ min: Date.UTC(2020, 0, 1), max: Date.UTC(2030, 0, 1) }),
        fc.constantFrom(...zones),
        fc.bigInt({ min: 0n, max: 10n ** 12n }),
        fc.boolean(),
        fc.bigInt({ min: 0n, max: 1234567n }),
        (epochMs, timeZone, minor, disbursed, refundedMsat) => {
          const settled = new Date(epochMs);
          const postgres = (date: Date) => `${date.toISOString().slice(0, 23).replace('T', ' ')}+00`;
          const ledger = line({
            createdAt: postgres(new Date(epochMs - 1500)),
            settledAt: postgres(settled),
            billMinor: String(minor),
            disbursed: disbursed ? 't' : 'f',
            // As PostgreSQL's CSV writes what LEDGER_SQL gives: quoted where needed, on one line.
            source: 'checkout',
            refundedMsat: String(refundedMsat),
            refundedMinor: String(minor),
            sourceName: '"Order ""A-1"", 2"',
            description: '=2+2 line one line two',
          });
          const [, , accountId, transactionId] = ledger.split(',');
          const shared = transactionCsvLine(
            {
              createdAt: new Date(epochMs - 1500).toISOString(),
              settledAt: settled.toISOString(),
              accountId: accountId as string,
              accountName: names.get(accountId as string) as string,
              transactionId: transactionId as string,
              bptId: null,
              currencyPair: 'BTC/GTQ',
              totalMsatCharged: 1234567,
              billAmount: formatMinor(minor, 'GTQ'),
              tip: '0.05',
              tax: '1.50',
              msatIncome: 1222221,
              fiatIncome: '0.00',
              rate: '133.333',
              txFeeMsat: 12345,
              conversionFeeMsat: 0,
              fiatPercentage: 50,
              disbursed,
              currency: 'GTQ',
              source: 'checkout',
              sourceName: 'Order "A-1", 2',
              description: '=2+2 line one\nline two',
              paidVia: 'lightning',
              refundedMsat: Number(refundedMsat),
              refundedAmount: formatMinor(minor, 'GTQ'),
            },
            timeZone,
          );
          expect(createLedgerCsvFormatter(names, timeZone)(ledger)).toBe(shared);
        },
      ),
    );
  });

  it('names the zone of its times in the header', () => {
    expect(transactionsCsvHeader('America/Guatemala').split(',').slice(0, 4)).toEqual([
      'Date created (America/Guatemala)',
      'Date settled (America/Guatemala)',
      'Account id',
      'Account name',
    ]);
    expect(transactionsCsvHeader('UTC').split(',')).toHaveLength(TRANSACTIONS_CSV_COLUMNS.length);
  });

  it("reads each instant on the zone's clock, across daylight-saving changes", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: Date.UTC(2020, 0, 1), max: Date.UTC(2030, 0, 1) }),
        fc.constantFrom('America/St_Johns', 'Europe/Madrid', 'Australia/Lord_Howe', 'Pacific/Chatham'),
        (epochMs, timeZone) => {
          const text = isoInstantInZoneFormatter(timeZone)(epochMs);
          expect(Date.parse(text)).toBe(epochMs);
          expect(text).toBe(isoInstantInZone(epochMs, timeZone));
        },
      ),
    );
  });
});
