import type { TerminalInfo, TerminalSale } from '@rayo/shared';
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Route, Routes } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { renderWithProviders } from '../../test-render.tsx';
import { SharedTerminalPage } from './TerminalPage.tsx';

// Q730,000 per bitcoin, 12 % tax, tips on; the organization keeps Guatemala's clock.
const info: TerminalInfo = {
  bpt: { id: 'bpt-1', name: 'Till', currency: 'GTQ', tipEnabled: true, taxPercentage: 12 },
  rate: '136.986',
  rateMinorPerBtc: '73000000',
  branding: { logoUrl: null, accentColor: null },
  countryCode: 'GT',
  timeZone: 'America/Guatemala',
} as TerminalInfo;

const sale: TerminalSale = {
  id: 'tx-1',
  createdAt: '2026-03-16T05:29:00.000Z',
  // 23:30 on the 15th in Guatemala; already 06:30 on the 16th in Madrid.
  settledAt: '2026-03-16T05:30:00.000Z',
  accountId: 'account-1',
  transactionId: 'a'.repeat(64),
  bptId: 'bpt-1',
  currencyPair: 'BTC/GTQ',
  currency: 'GTQ',
  totalMsatCharged: 1_739_726_500,
  billAmount: '100.00',
  tip: '15.00',
  tax: '12.00',
  msatIncome: 1_722_329_235,
  fiatIncome: '0.00',
  rate: '136.986',
  txFeeMsat: 17_397_265,
  conversionFeeMsat: 0,
  fiatPercentage: 0,
  disbursed: false,
  source: 'terminal',
  sourceName: 'Till 1',
  description: '',
  paidVia: 'lightning',
  refundedMsat: 0,
  refundedAmount: '0.00',
};

let fetch: ReturnType<typeof vi.fn>;
const originalZone = process.env.TZ;

beforeEach(() => {
  // The browser's clock is Madrid's: not the organization's.
  process.env.TZ = 'Europe/Madrid';
  fetch = vi.fn(async (url: string) => {
    if (url.endsWith('/transactions?limit=10')) return Response.json([sale]);
    if (url.endsWith('/invoices'))
      return Response.json({ code: 'Default', message: 'not in this test' }, { status: 500 });
    return Response.json(info);
  });
  vi.stubGlobal('fetch', fetch);
});
afterEach(() => {
  process.env.TZ = originalZone;
  vi.unstubAllGlobals();
});

/**
 * The terminal and its sales are drawn in transitions, which React renders in slices between
 * other work; beside other test files on a busy machine that can take past Testing Library's
 * one second.
 */
const DRAWN_WITHIN_MS = 10_000;

async function renderTerminal() {
  await renderWithProviders(
    <>
      <Routes>
        <Route path="/t/:bptToken" element={<SharedTerminalPage />} />
      </Routes>
    </>,
    { route: '/t/token' },
  );
  return await screen.findByRole('group', { name: 'Keypad' }, { timeout: DRAWN_WITHIN_MS });
}

describe('the terminal', () => {
  it("shows its latest sales at the organization's time, not the browser's", async () => {
    expect(Intl.DateTimeFormat().resolvedOptions().timeZone).toBe('Europe/Madrid');
    await renderTerminal();
    const table = await screen.findByRole('table', {}, { timeout: DRAWN_WITHIN_MS });
    // Written as every screen writes a day, not in the short numeric form (3/15/26).
    expect(within(table).getByText('Mar 15, 2026, 11:30 PM')).toBeInTheDocument();
    // Whole sats, rounded down: 1,739,726.5 sats.
    expect(within(table).getByText('1,739,726 sats')).toBeInTheDocument();
  });

  it("says under a sale's date what was refunded of it, all or part", async () => {
    const refunds = [
      { ...sale, id: 'tx-2', refundedMsat: 1_739_726_500, refundedAmount: '127.00' },
      { ...sale, id: 'tx-3', refundedMsat: 1_000_000, refundedAmount: '0.07' },
    ];
    fetch.mockImplementation(async (url: string) =>
      Response.json(url.endsWith('/transactions?limit=10') ? [...refunds, sale] : info),
    );
    await renderTerminal();
    const table = await screen.findByRole('table', {}, { timeout: DRAWN_WITHIN_MS });
    expect(
      within(table)
        .getAllByTestId('sale-refunded')
        // Money and sats are written with non-breaking spaces.
        .map((line) => line.textContent?.replace(/\s/g, ' ')),
    ).toEqual(['Refunded: 1,739,726 sats (GTQ 127.00)', 'Partly refunded: 1,000 sats (GTQ 0.07)']);
  });

  it('refuses a key past 1 BTC and says what the most is, asking nothing', async () => {
    const keypad = await renderTerminal();
    for (const digit of ['6', '5', '1', '7', '8', '6']) {
      await userEvent.click(within(keypad).getByRole('button', { name: digit }));
    }
    // Q651,786 with the 12 % tax is past Q730,000: the last 6 is refused.
    expect(screen.getByRole('status', { name: 'Amount' })).toHaveTextContent('GTQ 65,178');
    expect(screen.getByTestId('sale-limit')).toHaveTextContent('One sale can charge at most GTQ 730,000.00.');
    expect(fetch.mock.calls.some(([url]) => String(url).endsWith('/invoices'))).toBe(false);
  });

  it('refuses a negative tip and a tip above the bill visibly, with Charge off', async () => {
    const keypad = await renderTerminal();
    await userEvent.click(within(keypad).getByRole('button', { name: '5' }));
    await userEvent.click(within(keypad).getByRole('button', { name: '0' }));
    await userEvent.click(screen.getByText('Other'));
    const tip = screen.getByLabelText('Tip amount');
    await userEvent.type(tip, '-5');
    expect(tip).toHaveValue('-5');
    expect(screen.getByText('A tip cannot be negative.')).toBeInTheDocument();
    const charge = screen.getByRole('button', { name: /^Charge/ });
    expect(charge).toBeDisabled();
    await userEvent.clear(tip);
    await userEvent.type(tip, '999999');
    expect(screen.getByText('The tip can be at most the bill (GTQ 50.00).')).toBeInTheDocument();
    expect(charge).toBeDisabled();
    await userEvent.clear(tip);
    await userEvent.type(tip, '5');
    expect(charge).toBeEnabled();
  });

  it('ends a sale whose invoice ran out on its own countdown, with no word from the server', async () => {
    // The status stream stays silent, as when its event is lost: only the screen's countdown ends it.
    vi.stubGlobal(
      'EventSource',
      class {
        addEventListener() {}
        close() {}
      },
    );
    const invoice = {
      id: 'invoice-1',
      paymentRequest: 'lnbcrt1u1expired',
      paymentHash: 'b'.repeat(64),
      amountMsat: 4_088_000,
      fiatTotal: '5.60',
      billAmount: '5.00',
      tip: '0.00',
      tax: '0.60',
      currency: 'GTQ',
      rate: '136.986',
      expiresAt: new Date(Date.now() - 1000).toISOString(),
      status: 'pending',
    };
    fetch.mockImplementation(async (url: string) => {
      if (url.endsWith('/transactions?limit=10')) return Response.json([sale]);
      if (url.endsWith('/invoices')) return Response.json(invoice, { status: 201 });
      return Response.json(info);
    });
    const keypad = await renderTerminal();
    await userEvent.click(within(keypad).getByRole('button', { name: '5' }));
    await userEvent.click(screen.getByRole('button', { name: /^Charge/ }));
    expect(await screen.findByRole('heading', { name: 'Invoice expired' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Charge again' })).toBeInTheDocument();
  });
});
