import { describe, expect, it } from 'vitest';
import { csvRowCounter, dashboardQuery, filenameFromDisposition } from './dashboard.ts';

describe('dashboardQuery', () => {
  it('sends the period bounds only when there are some', () => {
    expect(dashboardQuery({ start: 10, end: 20, account: 'all' }, { page: 2 })).toBe(
      'start=10&end=20&account=all&page=2',
    );
    expect(dashboardQuery({ account: 'abc' })).toBe('account=abc');
  });
});

describe('filenameFromDisposition', () => {
  it('prefers the RFC 6266 extended name', () => {
    expect(
      filenameFromDisposition(`attachment; filename="plain.csv"; filename*=UTF-8''caf%C3%A9%202026.csv`, 'x.csv'),
    ).toBe('café 2026.csv');
  });
  it('reads quoted and bare names, and falls back without one', () => {
    expect(filenameFromDisposition('attachment; filename="transactions 2026.csv"', 'x.csv')).toBe(
      'transactions 2026.csv',
    );
    expect(filenameFromDisposition('attachment; filename=t.csv', 'x.csv')).toBe('t.csv');
    expect(filenameFromDisposition('attachment', 'x.csv')).toBe('x.csv');
    expect(filenameFromDisposition(null, 'x.csv')).toBe('x.csv');
  });
});

describe('csvRowCounter', () => {
  it('counts records across pieces, not line breaks inside quoted fields', () => {
    const count = csvRowCounter();
    expect(count('id,note\r\n1,"two\nlines"\r')).toBe(1);
    expect(count('\n2,"a ""quoted"" ')).toBe(2);
    expect(count('word"\r\n')).toBe(3);
  });
});
