import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { describe, expect, it } from 'vitest';
import { renderWithProviders } from '../../test-render.tsx';
import { ColumnChooser } from './ColumnChooser.tsx';
import {
  COLUMNS_STORAGE_KEY,
  defaultColumns,
  loadColumns,
  saleIdLabel,
  saveColumns,
  shortenId,
  type TransactionColumn,
  toggleColumn,
  transactionColumns,
} from './columns.ts';

describe('column choice', () => {
  it('covers every SPEC §3 transaction column, and where each sale came from', () => {
    expect(transactionColumns).toHaveLength(20);
    expect(defaultColumns).toContain('source');
  });

  it('starts with the defaults and remembers a choice in localStorage', () => {
    expect(loadColumns()).toEqual(defaultColumns);
    saveColumns(['tax', 'createdAt']);
    expect(localStorage.getItem(COLUMNS_STORAGE_KEY)).toBe('["tax","createdAt"]');
    // Read back in table order.
    expect(loadColumns()).toEqual(['createdAt', 'tax']);
  });

  it('ignores unusable stored values', () => {
    for (const stored of ['not json', '{"a":1}', '[]', '["gone","alsoGone"]']) {
      localStorage.setItem(COLUMNS_STORAGE_KEY, stored);
      expect(loadColumns()).toEqual(defaultColumns);
    }
    localStorage.setItem(COLUMNS_STORAGE_KEY, '["gone","rate"]');
    expect(loadColumns()).toEqual(['rate']);
  });

  it('toggles in table order and never hides the last column', () => {
    expect(toggleColumn(['tax'], 'createdAt')).toEqual(['createdAt', 'tax']);
    expect(toggleColumn(['createdAt', 'tax'], 'createdAt')).toEqual(['tax']);
    expect(toggleColumn(['tax'], 'tax')).toEqual(['tax']);
  });

  it('shortens long ids to their ends', () => {
    expect(shortenId('0123456789abcdef0123456789abcdef')).toBe('012345…abcdef');
    expect(shortenId('short')).toBe('short');
    // An on-chain sale's id reads as its transaction and output, not "onchai…a2e7:0".
    expect(saleIdLabel(`onchain:${'3f9a1c'}${'0'.repeat(52)}${'77a2e7'}:0`)).toBe('3f9a1c…77a2e7 #0');
    expect(saleIdLabel('0123456789abcdef0123456789abcdef')).toBe('012345…abcdef');
  });
});

function PersistedChooser() {
  const [columns, setColumns] = useState<TransactionColumn[]>(() => loadColumns());
  return (
    <ColumnChooser
      columns={columns}
      onChange={(next) => {
        setColumns(next);
        saveColumns(next);
      }}
    />
  );
}

async function renderChooser(language: 'en' | 'es') {
  return renderWithProviders(<PersistedChooser />, { language, withoutTransitions: true });
}

describe('ColumnChooser', () => {
  it('shows a column picked in the menu again after a reload', async () => {
    const first = await renderChooser('en');
    await userEvent.click(screen.getByRole('button', { name: 'Columns' }));
    const rate = await screen.findByRole('checkbox', { name: 'Sats/fiat rate' });
    expect(rate).not.toBeChecked();
    await userEvent.click(rate);
    expect(screen.getByRole('checkbox', { name: 'Sats/fiat rate' })).toBeChecked();
    await userEvent.click(screen.getByRole('checkbox', { name: 'Tip' }));
    expect(loadColumns()).toContain('rate');
    expect(loadColumns()).not.toContain('tip');
    first.unmount();

    await renderChooser('es');
    await userEvent.click(screen.getByRole('button', { name: 'Columnas' }));
    expect(await screen.findByRole('checkbox', { name: 'Tasa sats/moneda' })).toBeChecked();
    expect(screen.getByRole('checkbox', { name: 'Propina' })).not.toBeChecked();
  });
});
