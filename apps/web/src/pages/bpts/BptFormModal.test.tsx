import type { Bpt } from '@rayo/shared';
import { fireEvent, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { renderWithProviders } from '../../test-render.tsx';
import { BptFormModal, parseTaxInput } from './BptFormModal.tsx';

const bpt: Bpt = {
  id: 'bpt-1',
  name: 'Till',
  accountId: 'account-1',
  accountName: 'Counter',
  channel: 'store',
  currency: 'GTQ',
  shareable: false,
  tipEnabled: false,
  taxPercentage: 12,
  shareToken: null,
};

afterEach(() => vi.unstubAllGlobals());

async function renderForm() {
  const fetch = vi.fn(async (url: string, _init?: RequestInit) =>
    Response.json(url.endsWith('/currencies') ? [{ code: 'GTQ' }] : [{ id: 'account-1', name: 'Counter' }]),
  );
  vi.stubGlobal('fetch', fetch);
  await renderWithProviders(<BptFormModal bpt={bpt} onClose={() => {}} />, { route: '/' });
  return { fetch, tax: await screen.findByLabelText('Tax percentage') };
}

describe('the tax of a BPT', () => {
  it('reads a percentage as the server does, a decimal comma included', () => {
    expect(parseTaxInput('12')).toBe(12);
    expect(parseTaxInput('7.25')).toBe(7.25);
    expect(parseTaxInput('7,5')).toBe(7.5);
    expect(parseTaxInput('100')).toBe(100);
    expect(parseTaxInput('0')).toBe(0);
    for (const text of ['abc', '12.345', '-1', '101', '', '1,000.5', '1e2', '7.'])
      expect(parseTaxInput(text)).toBeNull();
  });

  it.each(['abc', '12.345', '-1', '101'])('keeps "%s" as typed and refuses it, saving nothing', async (typed) => {
    const { fetch, tax } = await renderForm();
    await userEvent.clear(tax);
    await userEvent.type(tax, typed);
    fireEvent.blur(tax);
    expect(tax).toHaveValue(typed);
    expect(screen.getByText('Enter a percentage from 0 to 100 with up to two decimals')).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Save' }));
    expect(fetch.mock.calls.some(([, init]) => (init as RequestInit | undefined)?.method === 'PUT')).toBe(false);
  });
});

describe('the lists a BPT is chosen from', () => {
  it('says so when the accounts could not be loaded, and loads them again on retry', async () => {
    let accountsFail = true;
    vi.stubGlobal(
      'fetch',
      vi.fn(async (url: string) => {
        if (url.endsWith('/currencies')) return Response.json([{ code: 'GTQ' }]);
        if (accountsFail) return Response.json({ code: 'Default', message: 'boom' }, { status: 500 });
        return Response.json([{ id: 'account-1', name: 'Counter' }]);
      }),
    );
    await renderWithProviders(<BptFormModal bpt={bpt} onClose={() => {}} />, { route: '/' });
    expect(await screen.findByRole('alert')).toHaveTextContent('An unexpected error occurred');
    accountsFail = false;
    await userEvent.click(screen.getByRole('button', { name: 'Try again' }));
    await vi.waitFor(() => expect(screen.queryByRole('alert')).toBeNull());
  });
});

// As the BPT list does: the form is there only while it is open.
function Opener() {
  const [open, setOpen] = useState(false);
  return (
    <>
      <button type="button" onClick={() => setOpen(true)}>
        Edit Till
      </button>
      {open && <BptFormModal bpt={bpt} onClose={() => setOpen(false)} />}
    </>
  );
}

describe('closing the form', () => {
  it('gives the focus back to the button that opened it', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(async (url: string) =>
        Response.json(url.endsWith('/currencies') ? [{ code: 'GTQ' }] : [{ id: 'account-1', name: 'Counter' }]),
      ),
    );
    await renderWithProviders(<Opener />, { route: '/' });
    const opener = screen.getByRole('button', { name: 'Edit Till' });
    await userEvent.click(opener);
    await screen.findByLabelText('Tax percentage');
    await userEvent.keyboard('{Escape}');
    await waitFor(() => expect(screen.queryByLabelText('Tax percentage')).toBeNull());
    await waitFor(() => expect(opener).toHaveFocus());
  });
});
