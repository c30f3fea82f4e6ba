import { formatMinor } from '@rayo/shared';
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

describe('createLedgerCsvFormatter', () => {
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
    ].join(',');

  it('writes every SPEC §3 column with exact decimals and the account name quoted', () => {
    const format = createLedgerCsvFormatter(names);
    expect(format(line({}))).toBe(
      `${[
        '2025-03-15T17:59:58.250Z',
        '2025-03-15T18:00:00.000Z',
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
      ].join(',')}\r\n`,
    );
  });

  it('neutralises an account name a spreadsheet would run as a formula, and no amount', () => {
    const accountId = '6f1c1d2e-0000-4000-8000-000000000003';
    const format = createLedgerCsvFormatter(new Map([[accountId, '=cmd|" /C calc"!A0']]));
    const fields = format(line({ accountId, billMinor: '-1250', tipMinor: '-5' })).split(',');
    expect(fields[3]).toBe(`"'=cmd|"" /C calc""!A0"`);
    expect(fields.slice(9, 11)).toEqual(['-12.50', '-0.05']);
  });

  it('follows each currency’s minor unit and says true for a disbursed sale', () => {
    const format = createLedgerCsvFormatter(names);
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
    const format = createLedgerCsvFormatter(names);
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
