import { MantineProvider } from '@mantine/core';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { act, render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { I18nextProvider } from 'react-i18next';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { initI18n } from '../../i18n/index.ts';
import { TerminalPage } from './TerminalPage.tsx';

/** Stands in for the browser's EventSource so a test can send the server's status events. */
class FakeEventSource extends EventTarget {
  static readonly CLOSED = 2;
  static opened: FakeEventSource[] = [];
  readyState = 1;
  readonly url: string;
  constructor(url: string) {
    super();
    this.url = url;
    FakeEventSource.opened.push(this);
  }
  close() {
    this.readyState = FakeEventSource.CLOSED;
  }
  send(status: string) {
    this.dispatchEvent(new MessageEvent('status', { data: JSON.stringify({ id: 'inv-1', status }) }));
  }
}

const info = {
  bpt: { id: 'bpt-1', name: 'Front counter', currency: 'GTQ', tipEnabled: true, taxPercentage: 12 },
  rate: '1250.5',
};
const invoice = {
  id: 'inv-1',
  paymentRequest: 'lnbcrt1588140n1pjtest',
  paymentHash: 'ab'.repeat(32),
  amountMsat: 158_814_000,
  fiatTotal: '127.00',
  billAmount: '100.00',
  tip: '15.00',
  tax: '12.00',
  currency: 'GTQ',
  rate: '1250.5',
  expiresAt: new Date(Date.now() + 15 * 60_000).toISOString(),
  status: 'pending',
};

let invoiceRequests: unknown[] = [];
let invoiceFailure: string | null = null;

function respond(body: unknown, status = 200) {
  return Promise.resolve(
    new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } }),
  );
}

beforeEach(() => {
  invoiceRequests = [];
  invoiceFailure = null;
  FakeEventSource.opened = [];
  vi.stubGlobal('EventSource', FakeEventSource);
  vi.stubGlobal('fetch', (url: string, init: RequestInit) => {
    if (url === '/api/bpts/bpt-1/terminal') return respond(info);
    if (url.startsWith('/api/bpts/bpt-1/transactions')) return respond([]);
    if (url === '/api/bpts/bpt-1/invoices') {
      invoiceRequests.push(JSON.parse(String(init.body)));
      return invoiceFailure ? respond({ code: invoiceFailure, message: 'x' }, 503) : respond(invoice);
    }
    if (url === '/api/invoices/inv-1') return respond(invoice);
    return respond({ code: 'NotFound', message: url }, 404);
  });
});

afterEach(() => {
  vi.unstubAllGlobals();
});

async function renderTerminal() {
  const i18n = initI18n();
  await i18n.changeLanguage('en');
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  render(
    <MantineProvider>
      <I18nextProvider i18n={i18n}>
        <QueryClientProvider client={queryClient}>
          <TerminalPage source={{ kind: 'bpt', id: 'bpt-1' }} canCharge />
        </QueryClientProvider>
      </I18nextProvider>
    </MantineProvider>,
  );
  await screen.findByRole('heading', { name: 'Front counter' });
}

async function typeOnKeypad(keys: string[]) {
  const keypad = screen.getByRole('group', { name: 'Keypad' });
  for (const key of keys) await userEvent.click(within(keypad).getByRole('button', { name: key }));
}

describe('TerminalPage', () => {
  it('charges bill and tip, shows the invoice, and turns green when the invoice settles', async () => {
    await renderTerminal();
    await typeOnKeypad(['1', '00']);
    await userEvent.click(screen.getByRole('radio', { name: '15%' }));
    expect(screen.getByText('GTQ 12.00')).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: /^Charge GTQ\s127\.00$/ }));

    expect(invoiceRequests).toEqual([{ amount: '100.00', tip: '15.00' }]);
    expect(await screen.findByRole('img', { name: 'QR code of the Lightning invoice' })).toBeInTheDocument();
    expect(screen.getByText(/Expires in 1[45]:\d\d/)).toBeInTheDocument();
    expect(FakeEventSource.opened.map((source) => source.url)).toEqual(['/api/invoices/inv-1/events']);

    act(() => FakeEventSource.opened[0]?.send('settled'));
    const paid = await screen.findByRole('dialog', { name: 'Paid' });
    expect(within(paid).getByText('GTQ 127.00')).toBeInTheDocument();
    expect(within(paid).getByText('158,814 sats')).toBeInTheDocument();

    await userEvent.click(within(paid).getByRole('button', { name: 'New sale' }));
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect(screen.getByRole('status', { name: 'Amount' })).toHaveTextContent('GTQ 0');
  });

  it('offers to charge the same amounts again when the invoice expires', async () => {
    await renderTerminal();
    await typeOnKeypad(['5', 'Decimal point', '5']);
    await userEvent.click(screen.getByRole('button', { name: /^Charge/ }));
    await screen.findByRole('img', { name: 'QR code of the Lightning invoice' });

    act(() => FakeEventSource.opened[0]?.send('expired'));
    await userEvent.click(await screen.findByRole('button', { name: 'Charge again' }));
    expect(invoiceRequests).toEqual([{ amount: '5.50' }, { amount: '5.50' }]);
    expect(await screen.findByRole('img', { name: 'QR code of the Lightning invoice' })).toBeInTheDocument();
  });

  it('shows the SPEC message when the invoice cannot be created', async () => {
    invoiceFailure = 'LightningUnavailable';
    await renderTerminal();
    await typeOnKeypad(['9']);
    await userEvent.click(screen.getByRole('button', { name: /^Charge/ }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Under maintenance, please try again later.');
  });
});
