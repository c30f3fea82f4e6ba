import { screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { renderWithProviders } from '../test-render.tsx';
import { FormatCountryContext, useFormatLocale } from './format-locale.ts';
import { formatMoney } from './money-format.ts';

function Amount() {
  const locale = useFormatLocale();
  return <span data-testid="amount">{formatMoney(232194n, 'GTQ', locale)}</span>;
}

describe('useFormatLocale on a screen that names its country', () => {
  afterEach(() => vi.unstubAllGlobals());

  it('writes as Guatemala does for a visitor without a session, asking the server nothing', async () => {
    const fetch = vi.fn();
    vi.stubGlobal('fetch', fetch);
    await renderWithProviders(
      <>
        <FormatCountryContext.Provider value="GT">
          <Amount />
        </FormatCountryContext.Provider>
        <Amount />
      </>,
      { language: 'es' },
    );
    const [named, plain] = screen.getAllByTestId('amount');
    expect(named?.textContent).toBe('GTQ\u00a02,321.94');
    // Without a country, Spanish as Latin America writes it, not Spain's "2321,94 GTQ".
    expect(plain?.textContent).toBe('GTQ\u00a02,321.94');
    expect(fetch).not.toHaveBeenCalled();
  });
});
