import type { BankingInfoTemplate, PayoutAddresses, Role } from '@rayo/shared';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { ReactNode } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { sessionStore } from '../../session/session-store.ts';
import { renderWithProviders } from '../../test-render.tsx';
import { BankAccountSection } from './BankAccountSection.tsx';
import { checkBankAccount } from './bank-account-form.ts';
import { LightningAddressSection } from './LightningAddressSection.tsx';
import { OnchainAddressSection } from './OnchainAddressSection.tsx';

type Answer = { status: number; body?: unknown };
type Call = { route: string; headers: Record<string, string>; body: unknown };

/** Answers each `METHOD /api/path` from `routes`, and records what was sent. */
function stubServer(routes: Record<string, Answer | Answer[]>) {
  const calls: Call[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string, init: RequestInit) => {
      const route = `${init.method ?? 'GET'} ${url}`;
      const body = typeof init.body === 'string' ? JSON.parse(init.body) : undefined;
      calls.push({ route, headers: init.headers as Record<string, string>, body });
      const planned = routes[route];
      const answer = Array.isArray(planned) ? (planned.length > 1 ? planned.shift() : planned[0]) : planned;
      if (!answer) throw new Error(`unexpected ${route}`);
      return new Response(answer.body === undefined ? null : JSON.stringify(answer.body), { status: answer.status });
    }),
  );
  return calls;
}

const template: BankingInfoTemplate = {
  countryCode: 'US',
  format: 'aba',
  fields: [
    { name: 'bank', input: 'text', label: 'bank', required: true, maxLength: 100 },
    { name: 'accountName', input: 'text', label: 'accountName', required: true, maxLength: 100 },
    {
      name: 'accountNumber',
      input: 'text',
      label: 'accountNumber',
      required: true,
      maxLength: 17,
      pattern: '^\\d{4,17}$',
    },
    {
      name: 'routingNumber',
      input: 'text',
      label: 'routingNumberAba',
      required: true,
      maxLength: 9,
      pattern: '^\\d{9}$',
      check: 'aba',
    },
    {
      name: 'accountType',
      input: 'select',
      label: 'accountType',
      required: true,
      maxLength: 20,
      options: ['checking', 'savings'],
    },
    { name: 'currency', input: 'select', label: 'currency', required: true, maxLength: 3, options: ['USD'] },
  ],
};

const addresses: PayoutAddresses = {
  onchainAddress: null,
  lightningAddress: 'shop@wallet.example',
  network: 'regtest',
  bankVerified: true,
  onchainVerified: false,
  lightningVerified: false,
};

const baseRoutes = {
  'GET /api/settings/banking-info-template': { status: 200, body: template },
  'GET /api/settings/banking-info/all': { status: 200, body: [] },
  'GET /api/settings/payout-addresses': { status: 200, body: addresses },
  'GET /api/settings/mfa': { status: 200, body: { hasMfa: false } },
};

async function renderWith(role: Role, children: ReactNode, language: 'en' | 'es' = 'en') {
  sessionStore.signIn({ accessToken: 'access', refreshToken: 'refresh', role, language }, false);
  await renderWithProviders(children, { language });
}

afterEach(() => {
  vi.unstubAllGlobals();
  sessionStore.logout();
});

describe('checkBankAccount', () => {
  it('tells a missing required field and a value of the wrong form, ignoring spaces and dashes', () => {
    const values = {
      bank: 'Chase',
      accountName: 'Shop',
      accountNumber: '0001-2345',
      routingNumber: '12',
      accountType: 'checking',
      currency: '',
    };
    expect(checkBankAccount(template, values)).toEqual({ routingNumber: 'wrongFormat', currency: 'required' });
  });
});

// Typing a whole bank account takes a while in jsdom.
vi.setConfig({ testTimeout: 30_000 });

describe('BankAccountSection', () => {
  it("shows the country's fields, refuses a malformed routing number before sending, and shows the server's refusal", async () => {
    const calls = stubServer({
      ...baseRoutes,
      'POST /api/settings/banking-info': { status: 400, body: { code: 'InvalidRoutingNumber', message: 'x' } },
    });
    await renderWith('admin', <BankAccountSection />);
    await userEvent.type(await screen.findByRole('textbox', { name: /^Bank/ }), 'Chase');
    await userEvent.type(screen.getByLabelText(/^Account name/), 'Shop');
    await userEvent.type(screen.getByLabelText(/^Account number/), '000123456789');
    await userEvent.type(screen.getByLabelText(/^Routing number/), '123');
    await userEvent.click(screen.getByRole('button', { name: 'Save bank account' }));
    expect(await screen.findByText('This does not have the right format')).toBeTruthy();
    expect(calls.some((call) => call.route.startsWith('POST'))).toBe(false);

    await userEvent.type(screen.getByLabelText(/^Routing number/), '456789');
    await userEvent.click(screen.getByRole('button', { name: 'Save bank account' }));
    await waitFor(() => expect(calls.map((call) => call.route)).toContain('POST /api/settings/banking-info'));
    expect(await screen.findByText('The routing number is not valid. Check its digits.')).toBeTruthy();
    const post = calls.find((call) => call.route === 'POST /api/settings/banking-info');
    expect(post?.body).toEqual({
      bankingInfoMetadata: {
        bank: 'Chase',
        accountName: 'Shop',
        accountNumber: '000123456789',
        routingNumber: '123456789',
        accountType: 'checking',
        currency: 'USD',
      },
    });
  });

  it('is read-only for managers, in Spanish', async () => {
    stubServer({
      ...baseRoutes,
      'GET /api/settings/banking-info/all': {
        status: 200,
        body: [
          {
            id: '8d6f2f5e-8f43-4a4e-9a53-2b9d1a1c0e11',
            updatedAt: '2026-11-23T00:00:00.000Z',
            bankingInfoMetadata: {
              bank: 'Chase',
              accountName: 'Shop',
              accountNumber: '000123456789',
              routingNumber: '011000015',
              accountType: 'savings',
              currency: 'USD',
            },
          },
        ],
      },
    });
    await renderWith('manager', <BankAccountSection />, 'es');
    const bank = await screen.findByRole('textbox', { name: /^Banco/ });
    expect((bank as HTMLInputElement).value).toBe('Chase');
    expect((bank as HTMLInputElement).disabled).toBe(true);
    expect(screen.queryByRole('button', { name: 'Guardar cuenta bancaria' })).toBeNull();
    expect(screen.getByText('Solo un administrador puede cambiar a dónde van los pagos.')).toBeTruthy();
    expect(await screen.findByText('Verificado')).toBeTruthy();
  });
});

describe('payout address sections', () => {
  it('sends the on-chain address with the MFA code when MFA is on', async () => {
    const calls = stubServer({
      ...baseRoutes,
      'GET /api/settings/mfa': { status: 200, body: { hasMfa: true } },
      'PUT /api/settings/onchain-address': {
        status: 200,
        body: { ...addresses, onchainAddress: 'bcrt1qcr8te4kr609gcawutmrza0j4xv80jy8zeqchgx' },
      },
    });
    await renderWith('admin', <OnchainAddressSection />);
    expect(await screen.findByText(/Only addresses for regtest \(devnet\)/)).toBeTruthy();
    expect(screen.getByText('Not set')).toBeTruthy();
    await userEvent.type(screen.getByLabelText('Bitcoin address'), 'bcrt1qcr8te4kr609gcawutmrza0j4xv80jy8zeqchgx');
    await userEvent.click(screen.getByRole('button', { name: 'Save address' }));
    await userEvent.type(await screen.findByLabelText(/code/i), '123456');
    await userEvent.click(within(screen.getByRole('dialog')).getByRole('button', { name: 'Save address' }));
    await waitFor(() => expect(calls.map((call) => call.route)).toContain('PUT /api/settings/onchain-address'));
    const put = calls.find((call) => call.route === 'PUT /api/settings/onchain-address');
    expect(put?.headers['mfa-code']).toBe('123456');
    expect(put?.body).toEqual({ onchainAddress: 'bcrt1qcr8te4kr609gcawutmrza0j4xv80jy8zeqchgx' });
  });

  it("shows a Lightning address that is pending verification and the server's refusal in Spanish", async () => {
    stubServer({
      ...baseRoutes,
      'PUT /api/settings/lightning-address': {
        status: 400,
        body: { code: 'LightningAddressUnreachable', message: 'wallet.example could not be reached' },
      },
    });
    await renderWith('admin', <LightningAddressSection />, 'es');
    expect(await screen.findByText('Verificación pendiente')).toBeTruthy();
    const input = screen.getByLabelText('Dirección Lightning') as HTMLInputElement;
    expect(input.value).toBe('shop@wallet.example');
    await userEvent.click(screen.getByRole('button', { name: 'Guardar dirección Lightning' }));
    expect(
      await screen.findByText(
        'No pudimos contactar el dominio de esta dirección Lightning. Revísala e inténtalo de nuevo.',
      ),
    ).toBeTruthy();
  });
});
