import { AppError } from '@rayo/shared';
import { describe, expect, it } from 'vitest';
import {
  bankingTemplateFor,
  isValidAbaRoutingNumber,
  isValidClabe,
  isValidIban,
  validateBankingInfo,
} from './banking-info.ts';
import { countryCurrenciesOf, fiatCurrenciesOf } from './country-currencies.ts';

function codeOf(run: () => unknown): string | undefined {
  try {
    run();
  } catch (error) {
    if (error instanceof AppError) return error.code;
    throw error;
  }
  return undefined;
}

describe('check digits', () => {
  it('ABA routing numbers', () => {
    expect(isValidAbaRoutingNumber('011000015')).toBe(true);
    expect(isValidAbaRoutingNumber('021000021')).toBe(true);
    expect(isValidAbaRoutingNumber('011000016')).toBe(false);
    expect(isValidAbaRoutingNumber('01100001')).toBe(false);
  });

  it('CLABE', () => {
    expect(isValidClabe('032180000118359719')).toBe(true);
    expect(isValidClabe('002010077777777771')).toBe(true);
    expect(isValidClabe('032180000118359718')).toBe(false);
    expect(isValidClabe('03218000011835971')).toBe(false);
  });

  it('IBAN, with the length of its country', () => {
    expect(isValidIban('ES9121000418450200051332')).toBe(true);
    expect(isValidIban('GT82TRAJ01020000001210029690', 'GT')).toBe(true);
    expect(isValidIban('SV62CENR00000000000000700025', 'SV')).toBe(true);
    expect(isValidIban('ES9121000418450200051333')).toBe(false);
    expect(isValidIban('ES91210004184502000513')).toBe(false);
    expect(isValidIban('ES9121000418450200051332', 'GT')).toBe(false);
  });
});

describe('bankingTemplateFor', () => {
  it('gives each country its fields', () => {
    const names = (code: string | null) => bankingTemplateFor(code, ['USD']).fields.map((field) => field.label);
    expect(names('US')).toEqual([
      'bank',
      'accountName',
      'accountNumber',
      'routingNumberAba',
      'accountType',
      'currency',
    ]);
    expect(names('MX')).toEqual(['bank', 'accountName', 'clabe', 'accountType', 'currency']);
    expect(names('ES')).toEqual(['bank', 'accountName', 'iban', 'swift', 'accountType', 'currency']);
    expect(names('GT')).toEqual(['bank', 'accountName', 'iban', 'swift', 'accountType', 'currency']);
    expect(names('SV')).toEqual(['bank', 'accountName', 'iban', 'swift', 'accountType', 'currency']);
    expect(names('AR')).toEqual(['bank', 'accountName', 'accountNumber', 'routingCode', 'accountType', 'currency']);
    expect(names(null)).toEqual(['bank', 'accountName', 'accountNumber', 'routingCode', 'accountType', 'currency']);
  });

  it('shows its examples in the form its own patterns accept', () => {
    for (const code of ['US', 'MX', 'ES', 'GT', 'SV']) {
      for (const field of bankingTemplateFor(code, ['USD']).fields) {
        if (field.example && field.pattern)
          expect(new RegExp(field.pattern).test(field.example), field.example).toBe(true);
      }
    }
  });
});

describe('validateBankingInfo', () => {
  const common = { bank: ' Banco  Industrial ', accountName: 'Demo Café', accountType: 'checking', currency: 'GTQ' };
  const gt = bankingTemplateFor('GT', ['GTQ', 'USD']);

  it('keeps normalized values', () => {
    expect(
      validateBankingInfo(gt, { ...common, accountNumber: 'gt82 traj 0102 0000 0012 1002 9690', routingNumber: '' }),
    ).toEqual({ ...common, bank: 'Banco Industrial', accountNumber: 'GT82TRAJ01020000001210029690' });
  });

  it('refuses what does not fit the country', () => {
    const us = bankingTemplateFor('US', ['USD']);
    const usBase = { ...common, currency: 'USD', accountNumber: '000123456789' };
    expect(codeOf(() => validateBankingInfo(us, { ...usBase, routingNumber: '011000016' }))).toBe(
      'InvalidRoutingNumber',
    );
    expect(codeOf(() => validateBankingInfo(us, { ...usBase, routingNumber: '' }))).toBe('MissingBankingField');
    expect(codeOf(() => validateBankingInfo(us, { ...usBase, routingNumber: '011000015' }))).toBeUndefined();
    const mx = bankingTemplateFor('MX', ['MXN']);
    const mxBase = { ...common, currency: 'MXN' };
    expect(codeOf(() => validateBankingInfo(mx, { ...mxBase, accountNumber: '032180000118359718' }))).toBe(
      'InvalidAccountNumber',
    );
    expect(
      codeOf(() => validateBankingInfo(mx, { ...mxBase, accountNumber: '032180000118359719', routingNumber: '1' })),
    ).toBe('InvalidBankingField');
    expect(codeOf(() => validateBankingInfo(gt, { ...common, accountNumber: 'ES9121000418450200051332' }))).toBe(
      'InvalidAccountNumber',
    );
    const good = { ...common, accountNumber: 'GT82TRAJ01020000001210029690' };
    expect(codeOf(() => validateBankingInfo(gt, { ...good, currency: 'EUR' }))).toBe('InvalidBankingField');
    expect(codeOf(() => validateBankingInfo(gt, { ...good, accountType: 'brokerage' }))).toBe('InvalidBankingField');
    expect(codeOf(() => validateBankingInfo(gt, { ...good, bank: '  ' }))).toBe('MissingBankingField');
    expect(codeOf(() => validateBankingInfo(gt, { ...good, routingNumber: 'NOTABIC' }))).toBe('InvalidRoutingNumber');
  });
});

describe('country currencies', () => {
  it("lists the country's fiat currencies, the organization's first, then bitcoin", () => {
    expect(countryCurrenciesOf('GT', 'USD')).toEqual([
      { code: 'USD', isFiat: true },
      { code: 'GTQ', isFiat: true },
      { code: 'BTC', isFiat: false },
    ]);
    expect(fiatCurrenciesOf('ES', 'EUR')).toEqual(['EUR']);
    expect(fiatCurrenciesOf('DE', 'EUR')).toEqual(['EUR']);
    expect(fiatCurrenciesOf('JP', 'JPY')).toEqual(['JPY']);
    expect(fiatCurrenciesOf(null, 'SAT')).toEqual(['USD']);
  });
});
