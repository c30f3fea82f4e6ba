import { act, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { i18n, useTranslation } from './index.ts';

function Paid({ count }: { count: number }) {
  const { t } = useTranslation();
  return <p>{t('backOffice.payments.paid', { count })}</p>;
}

describe('the app’s texts', () => {
  afterEach(async () => {
    await i18n.changeLanguage('en');
  });

  it('fills placeholders, and leaves a value not given as it is written', () => {
    expect(i18n.t('home.metrics.receiveFiat', { currency: 'GTQ' })).toBe('Received in GTQ');
    expect(i18n.t('home.metrics.receiveFiat')).toBe('Received in {{currency}}');
    expect(i18n.t('home.metrics.receiveFiat', { currency: undefined })).toBe('Received in ');
  });

  it('chooses the plural form by the language’s rules', async () => {
    expect(i18n.t('backOffice.payments.paid', { count: 1 })).toBe('1 transaction marked as paid.');
    expect(i18n.t('backOffice.payments.paid', { count: 0 })).toBe('0 transactions marked as paid.');
    await i18n.changeLanguage('es');
    expect(i18n.t('backOffice.payments.paid', { count: 1 })).toMatch(/^1 transacción /);
    expect(i18n.t('backOffice.payments.paid', { count: 2 })).toMatch(/^2 transacciones /);
  });

  it('answers a key it does not know with the key', () => {
    expect(i18n.t('home.nothingHere')).toBe('home.nothingHere');
    expect(i18n.t('home.metrics')).toBe('home.metrics');
  });

  it('re-renders what it shows when the language changes', async () => {
    render(<Paid count={3} />);
    expect(screen.getByText('3 transactions marked as paid.')).toBeInTheDocument();
    await act(() => i18n.changeLanguage('es'));
    expect(screen.getByText(/^3 transacciones /)).toBeInTheDocument();
  });

  it('ends in the language asked for last, whichever loads first', async () => {
    await Promise.all([i18n.changeLanguage('es'), i18n.changeLanguage('en')]);
    expect(i18n.language).toBe('en');
  });
});
