import type { PayoutSplitSettings, Role } from '@rayo/shared';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { sessionStore } from '../../session/session-store.ts';
import { renderWithProviders } from '../../test-render.tsx';
import { PaymentSplitSection } from './PaymentSplitSection.tsx';
import { checkSplitForm } from './payout-split-form.ts';

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
      const answer = Array.isArray(planned) ? (planned.shift() as Answer) : planned;
      if (!answer) throw new Error(`unexpected ${route}`);
      return new Response(answer.body === undefined ? null : JSON.stringify(answer.body), { status: answer.status });
    }),
  );
  return calls;
}

const allVerified = { bank: true, crypto: true, disbursementAddress: true, conversionAddress: true, kyb: true };
const settings: PayoutSplitSettings = {
  fiatPercent: 0,
  onchainPercent: 0,
  lightningPercent: 100,
  currency: 'GTQ',
  conversionFeePercent: '1.00',
  verifications: { ...allVerified, bank: false, kyb: false },
  entries: { bankAccount: true, onchainAddress: true, lightningAddress: true, kybDocument: false },
};
const refusal = {
  status: 409,
  body: {
    code: 'SplitNeedsValidation',
    message: 'Your information needs to be validated by our team before you can change the payment split',
  },
};

async function renderSection(role: Role, language: 'en' | 'es' = 'en') {
  sessionStore.signIn({ accessToken: 'access', refreshToken: 'refresh', role, language }, false);
  await renderWithProviders(<PaymentSplitSection />, { language });
}

async function typeInto(label: string, value: string) {
  const input = screen.getByLabelText(label);
  await userEvent.clear(input);
  await userEvent.type(input, value);
}

describe('checkSplitForm', () => {
  it('takes three whole percentages that add up to 100', () => {
    expect(checkSplitForm({ fiatPercent: 50, onchainPercent: 0, lightningPercent: 50 })).toEqual({
      split: { fiatPercent: 50, onchainPercent: 0, lightningPercent: 50 },
    });
    expect(checkSplitForm({ fiatPercent: 50, onchainPercent: 10, lightningPercent: 50 })).toEqual({
      error: { key: 'payoutSplit.errors.sum', values: { sum: 110 } },
    });
    for (const fiatPercent of ['', 50.5, -1, 101]) {
      expect(checkSplitForm({ fiatPercent, onchainPercent: 0, lightningPercent: 50 }).error?.key).toBe(
        'payoutSplit.errors.wholePercent',
      );
    }
  });
});

// Typing into three inputs and a dialog takes a few seconds on a busy machine.
describe('PaymentSplitSection', { timeout: 20_000 }, () => {
  afterEach(() => {
    vi.unstubAllGlobals();
    sessionStore.logout();
  });

  it('lists what the chosen split relies on, checks the sum inline, and shows SPEC’s refusal', async () => {
    const calls = stubServer({
      'GET /api/settings/payout-split': { status: 200, body: settings },
      'GET /api/settings/mfa': { status: 200, body: { hasMfa: false } },
      'PUT /api/settings/payout-split': refusal,
    });
    await renderSection('admin');
    // All Lightning relies on the Lightning address (verified) and the KYB papers (not sent yet).
    const list = await screen.findByTestId('split-verifications');
    expect(list).toHaveTextContent('Disbursement Lightning address — verified');
    expect(list).toHaveTextContent('KYB documents — not entered yet: fill it in above');
    expect(within(list).queryByText('Bank account')).toBeNull();
    expect(screen.getByLabelText('Fiat (GTQ, bank)')).toBeDisabled();

    await userEvent.click(screen.getByRole('switch', { name: /Fiat conversion/ }));
    await typeInto('Fiat (GTQ, bank)', '50');
    expect(screen.getByRole('alert')).toHaveTextContent('The three parts must add up to 100 % (now 150 %).');
    await userEvent.click(screen.getByRole('button', { name: 'Save split' }));
    expect(calls.filter((call) => call.route.startsWith('PUT'))).toEqual([]);

    await typeInto('Lightning', '50');
    // A fiat share relies on the bank account too, which waits for the team's review.
    expect(list).toHaveTextContent("Bank account — entered, waiting for our team's review");
    await userEvent.click(screen.getByRole('button', { name: 'Save split' }));
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'Your information needs to be validated by our team before you can change the payment split',
    );
    expect(calls.find((call) => call.route === 'PUT /api/settings/payout-split')?.body).toEqual({
      fiatPercent: 50,
      onchainPercent: 0,
      lightningPercent: 50,
    });
  });

  it('says the refusal in Spanish', async () => {
    stubServer({
      'GET /api/settings/payout-split': { status: 200, body: { ...settings, fiatPercent: 50, lightningPercent: 50 } },
      'GET /api/settings/mfa': { status: 200, body: { hasMfa: false } },
      'PUT /api/settings/payout-split': refusal,
    });
    await renderSection('admin', 'es');
    await userEvent.click(await screen.findByRole('button', { name: 'Guardar división' }));
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'Nuestro equipo debe validar tu información antes de que puedas cambiar la división de pagos',
    );
    expect(screen.getByText('Cuenta bancaria')).toBeInTheDocument();
  });

  it('asks for the MFA code and sends it in the mfa-code header', async () => {
    const saved = { ...settings, fiatPercent: 50, lightningPercent: 50, verifications: allVerified };
    const calls = stubServer({
      'GET /api/settings/payout-split': { status: 200, body: { ...settings, verifications: allVerified } },
      'GET /api/settings/mfa': { status: 200, body: { hasMfa: true } },
      'PUT /api/settings/payout-split': { status: 200, body: saved },
    });
    await renderSection('admin');
    expect(await screen.findByText('Our team has verified what this split relies on.')).toBeInTheDocument();
    await userEvent.click(screen.getByRole('switch', { name: /Fiat conversion/ }));
    await typeInto('Fiat (GTQ, bank)', '50');
    await typeInto('Lightning', '50');
    await waitFor(() => expect(screen.queryByRole('alert')).toBeNull());
    await userEvent.click(screen.getByRole('button', { name: 'Save split' }));

    const dialog = await screen.findByRole('dialog', { name: 'Confirm the new payment split' });
    await userEvent.type(within(dialog).getByLabelText('Code'), '123456');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Save split' }));
    await waitFor(() => expect(calls.some((call) => call.route === 'PUT /api/settings/payout-split')).toBe(true));
    const put = calls.find((call) => call.route === 'PUT /api/settings/payout-split');
    expect(put?.headers['mfa-code']).toBe('123456');
    expect(await screen.findByLabelText('Fiat (GTQ, bank)')).toHaveValue('50 %');
  });

  it('is read-only for managers', async () => {
    stubServer({
      'GET /api/settings/payout-split': { status: 200, body: { ...settings, fiatPercent: 50, lightningPercent: 50 } },
      'GET /api/settings/mfa': { status: 200, body: { hasMfa: false } },
    });
    await renderSection('manager');
    expect(await screen.findByText('Only an administrator can change the payment split.')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Save split' })).toBeNull();
    expect(screen.getByLabelText('Lightning')).toHaveAttribute('readonly');
    expect(screen.getByRole('switch', { name: /Fiat conversion/ })).toBeDisabled();
  });
});
