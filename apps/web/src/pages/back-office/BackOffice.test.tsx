import type {
  BackOfficeOrganizationRow,
  CountryReport,
  OrganizationAdminRecord,
  UnpaidTransaction,
} from '@rayo/shared';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { ReactNode } from 'react';
import { Route, Routes } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { sessionStore } from '../../session/session-store.ts';
import { renderWithProviders } from '../../test-render.tsx';
import { CountryReportPanel } from './CountryReportPanel.tsx';
import { NotificationsPanel } from './NotificationsPanel.tsx';
import { OrganizationInfosPage } from './OrganizationInfosPage.tsx';
import { OrganizationsPanel } from './OrganizationsPanel.tsx';
import { OrganizationTransactionsPage } from './OrganizationTransactionsPage.tsx';

type Answer = { status: number; body?: unknown };

/** Answers each `METHOD /api/path` from `routes` (or 404), and records what was sent. */
function stubServer(routes: Record<string, Answer | Answer[]>) {
  const calls: { route: string; body: unknown }[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string, init: RequestInit) => {
      const route = `${init.method ?? 'GET'} ${url}`;
      calls.push({ route, body: init.body ? JSON.parse(String(init.body)) : undefined });
      const planned = routes[route];
      const answer = Array.isArray(planned) ? (planned.length > 1 ? planned.shift() : planned[0]) : planned;
      if (!answer) return new Response(JSON.stringify({ code: 'NotFound', message: route }), { status: 404 });
      return new Response(answer.body === undefined ? null : JSON.stringify(answer.body), { status: answer.status });
    }),
  );
  return calls;
}

async function renderAt(path: string, element: ReactNode, language: 'en' | 'es' = 'en') {
  sessionStore.signIn({ accessToken: 'access', refreshToken: 'refresh', role: 'back_office', language }, true);
  await renderWithProviders(
    <>
      <Routes>
        <Route path="/back-office/:id/infos" element={element} />
        <Route path="/back-office/:id/transactions" element={element} />
        <Route path="/back-office" element={element} />
      </Routes>
    </>,
    { language, route: path },
  );
}

const ORG = '6f1c1a8e-0000-4000-8000-0000000000a1';
const notice = (id: string, kind: string) => ({
  id,
  organizationId: ORG,
  organizationName: 'Café Quetzal',
  kind,
  payload: {},
  createdAt: '2026-11-20T10:00:00.000Z',
});

describe('NotificationsPanel', () => {
  afterEach(() => {
    vi.unstubAllGlobals();
    sessionStore.logout();
  });

  it('names each kind in Spanish, deletes one once its undo has lapsed, and shows the list reloaded', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    const first = notice('6f1c1a8e-0000-4000-8000-0000000000b1', 'organization.created');
    const second = notice('6f1c1a8e-0000-4000-8000-0000000000b2', 'settings.banking_info_changed');
    const calls = stubServer({
      'GET /api/back-office/notification?page=1&limit=20': [
        { status: 200, body: { notifications: [first, second], total: 2 } },
        { status: 200, body: { notifications: [second], total: 1 } },
      ],
      [`DELETE /api/back-office/notification/${first.id}`]: { status: 204 },
    });
    await renderAt('/back-office', <NotificationsPanel />, 'es');
    const table = await screen.findByTestId('back-office-notifications');
    expect(within(table).getByText('Nueva organización')).toBeTruthy();
    expect(within(table).getByText('Cuenta bancaria cambiada')).toBeTruthy();

    await userEvent.click(within(table).getAllByRole('button', { name: 'Eliminar' })[0] as HTMLElement);
    // Gone from the list at once, but not from the server while it can still be undone.
    expect(within(table).queryByText('Nueva organización')).toBeNull();
    expect(calls.map((c) => c.route)).toEqual(['GET /api/back-office/notification?page=1&limit=20']);
    vi.advanceTimersByTime(6000);
    await waitFor(() =>
      expect(calls.map((c) => c.route)).toEqual([
        'GET /api/back-office/notification?page=1&limit=20',
        `DELETE /api/back-office/notification/${first.id}`,
        'GET /api/back-office/notification?page=1&limit=20',
      ]),
    );
    expect(within(table).queryByText('Nueva organización')).toBeNull();
    vi.useRealTimers();
  });
});

const record: OrganizationAdminRecord = {
  organization: {
    id: ORG,
    name: 'Café Quetzal',
    countryId: null,
    currency: 'GTQ',
    language: 'es',
    timeZone: 'America/Guatemala',
    createdAt: '2026-11-01T10:00:00.000Z',
  },
  users: [{ id: '6f1c1a8e-0000-4000-8000-0000000000c1', name: 'Ana', email: 'ana@example.com', role: 'admin' }],
  bankingInfo: [
    {
      id: '6f1c1a8e-0000-4000-8000-0000000000d1',
      bankingInfoMetadata: { bank: 'BAM' },
      updatedAt: '2026-11-02T10:00:00.000Z',
    },
  ],
  onchainAddress: null,
  lightningAddress: null,
  payoutSplit: { fiatPercent: 0, onchainPercent: 0, lightningPercent: 100 },
  kybDocuments: [],
  verifications: { bank: false, crypto: false, disbursementAddress: false, conversionAddress: false, kyb: false },
  blocked: false,
  blockedReason: null,
};

describe('OrganizationInfosPage', () => {
  afterEach(() => {
    vi.unstubAllGlobals();
    sessionStore.logout();
  });

  it('validates a field after confirmation, and blocks the organization showing the banner', async () => {
    const admin = `/api/back-office/organization/${ORG}`;
    const calls = stubServer({
      [`GET ${admin}/admin`]: { status: 200, body: record },
      'GET /api/countries': { status: 200, body: [] },
      [`PUT ${admin}/verification`]: {
        status: 200,
        body: { ...record, verifications: { ...record.verifications, bank: true } },
      },
      [`PUT ${admin}/blocked`]: {
        status: 200,
        body: {
          ...record,
          verifications: { ...record.verifications, bank: true },
          blocked: true,
          blockedReason: 'missing_info',
        },
      },
    });
    await renderAt(`/back-office/${ORG}/infos`, <OrganizationInfosPage />);
    expect(await screen.findByRole('heading', { name: 'Café Quetzal', level: 1 })).toBeTruthy();
    const bankRow = (await screen.findByTestId('verifications')).querySelector('[data-field="bank"]') as HTMLElement;
    expect(within(bankRow).getByText('To review')).toBeTruthy();
    // Nothing entered for the on-chain address: nothing to validate, and the row says so.
    const cryptoRow = (await screen.findByTestId('verifications')).querySelector(
      '[data-field="crypto"]',
    ) as HTMLElement;
    expect(within(cryptoRow).getByText('Not entered')).toBeTruthy();
    expect(within(cryptoRow).getByText('Nothing to verify yet')).toBeTruthy();
    expect(within(cryptoRow).queryByRole('button')).toBeNull();

    await userEvent.click(within(bankRow).getByRole('button', { name: 'Validate: Bank info' }));
    const dialog = await screen.findByRole('dialog');
    expect(within(dialog).getByText('Validate Bank info of Café Quetzal?')).toBeTruthy();
    await userEvent.click(within(dialog).getByRole('button', { name: 'Confirm' }));
    await waitFor(() => expect(within(bankRow).getByText('Verified')).toBeTruthy());
    expect(calls.find((c) => c.route === `PUT ${admin}/verification`)?.body).toEqual({ field: 'bank', verified: true });

    expect(screen.queryByTestId('blocked-banner')).toBeNull();
    await userEvent.click(screen.getByRole('button', { name: 'Block organization' }));
    const blocking = await screen.findByRole('dialog');
    // What the merchant will be told is chosen before anything is blocked.
    expect(within(blocking).getByRole('button', { name: 'Confirm' })).toBeDisabled();
    await userEvent.click(within(blocking).getByRole('radio', { name: 'Information is missing in Settings' }));
    await userEvent.click(within(blocking).getByRole('button', { name: 'Confirm' }));
    expect(await screen.findByTestId('blocked-banner')).toHaveTextContent(
      'Its members are told information is missing in Settings.',
    );
    expect(calls.find((c) => c.route === `PUT ${admin}/blocked`)?.body).toEqual({
      blocked: true,
      reason: 'missing_info',
    });
    expect(screen.getByRole('button', { name: 'Unblock organization' })).toBeTruthy();
  });

  it('shows why a verification was refused', async () => {
    const admin = `/api/back-office/organization/${ORG}`;
    // The page shows a document the merchant deletes before back office confirms.
    const withDocument: OrganizationAdminRecord = {
      ...record,
      kybDocuments: [
        {
          id: '6f1c1a8e-0000-4000-8000-0000000000e1',
          fileName: 'acta.pdf',
          contentType: 'application/pdf',
          size: 2048,
          sha256: '0'.repeat(64),
          createdAt: '2026-11-02T10:00:00.000Z',
        },
      ],
    };
    stubServer({
      [`GET ${admin}/admin`]: { status: 200, body: withDocument },
      'GET /api/countries': { status: 200, body: [] },
      [`PUT ${admin}/verification`]: { status: 409, body: { code: 'NothingToVerify', message: 'nothing' } },
    });
    await renderAt(`/back-office/${ORG}/infos`, <OrganizationInfosPage />);
    const kybRow = (await screen.findByTestId('verifications')).querySelector('[data-field="kyb"]') as HTMLElement;
    await userEvent.click(within(kybRow).getByRole('button', { name: 'Validate: KYB' }));
    await userEvent.click(within(await screen.findByRole('dialog')).getByRole('button', { name: 'Confirm' }));
    expect(await screen.findByText('There is nothing entered to verify yet')).toBeTruthy();
  });
});

describe('money in back office', () => {
  afterEach(() => {
    vi.unstubAllGlobals();
    sessionStore.logout();
  });

  const organization = (name: string, currency: string, pendingFiat: string): BackOfficeOrganizationRow => ({
    id: `6f1c1a8e-0000-4000-8000-00000000${currency === 'GTQ' ? '0e01' : '0e02'}`,
    name,
    countryId: null,
    currency,
    createdAt: '2026-11-01T10:00:00.000Z',
    blocked: false,
    verificationsToReview: 0,
    verificationsNotEntered: 0,
    transactionsCount: 3,
    unpaidFiatCount: 2,
    pendingFiat,
  });

  for (const language of ['en', 'es'] as const) {
    it(`writes the pending fiat of a Guatemalan and a Mexican organization in one style (${language})`, async () => {
      stubServer({
        'GET /api/back-office/organizations?country=-1&page=1&limit=10': {
          status: 200,
          body: {
            organizations: [
              organization('Demo Café', 'GTQ', '9114.24'),
              organization('Librería Aurora', 'MXN', '41615.38'),
            ],
            total: 2,
          },
        },
      });
      await renderAt('/back-office', <OrganizationsPanel countryId={-1} countryName={() => ''} />, language);
      const table = await screen.findByTestId('back-office-organizations');
      expect(within(table).getByText('GTQ 9,114.24')).toBeTruthy();
      expect(within(table).getByText('MXN 41,615.38')).toBeTruthy();
    });
  }

  it('says no fiat was paid in the country report, rather than a bare 0', async () => {
    const report: CountryReport = {
      rows: [
        {
          organizationId: ORG,
          organizationName: 'Café Quetzal',
          paidFiat: [],
          paidMsat: '0',
          paidTransactionsCount: 0,
          pendingTransactionsCount: 1,
          feeUsdEarned: '0.05',
          transactions: [{ id: '6f1c1a8e-0000-4000-8000-0000000000f1' }],
          hasBankAccount: true,
        },
      ],
      totals: {
        pendingTransactions: 1,
        paidTransactions: 0,
        organizations: 1,
        activeOrganizations: 1,
        paidSats: '0',
        paidFiat: [],
        feeUsd: '0.05',
      },
    };
    stubServer({ 'GET /api/back-office/country/-1/report': { status: 200, body: report } });
    await renderAt('/back-office', <CountryReportPanel countryId={-1} />, 'es');
    const totals = await screen.findByTestId('country-report-totals');
    const paidFiat = within(totals).getByText('Fiat pagado').parentElement as HTMLElement;
    expect(within(paidFiat).getByText('Nada')).toBeTruthy();
    expect(within(paidFiat).queryByText('0')).toBeNull();
    const row = screen.getByRole('row', { name: /Café Quetzal/ });
    const cells = within(row).getAllByRole('cell');
    expect(cells[2]?.textContent).toBe('Nada');
    expect(cells[6]?.textContent).toBe('USD\u00a00.05');
  });

  it('says none is selected, not a sum of 0, until a sale is checked', async () => {
    const unpaid = (id: string, fiatIncome: string) =>
      ({
        id,
        transactionId: `${id.slice(-4)}-lightning-payment-hash`,
        settledAt: '2026-11-20T10:00:00.000Z',
        currency: 'GTQ',
        billAmount: fiatIncome,
        fiatIncome,
        fiatIncomeMinor: fiatIncome.replace('.', ''),
        fiatPercentage: 100,
        totalMsatCharged: 16_000_000,
      }) as unknown as UnpaidTransaction;
    const admin = `/api/back-office/organization/${ORG}`;
    stubServer({
      [`GET ${admin}/unpaid-transactions`]: {
        status: 200,
        body: [
          unpaid('6f1c1a8e-0000-4000-8000-0000000000f1', '120.50'),
          unpaid('6f1c1a8e-0000-4000-8000-0000000000f2', '30.00'),
        ],
      },
      [`GET ${admin}/admin`]: { status: 200, body: record },
    });
    await renderAt(`/back-office/${ORG}/transactions`, <OrganizationTransactionsPage />);
    const summary = await screen.findByTestId('selection-summary');
    await waitFor(() => expect(summary.textContent).toBe('None of 2 selected'));
    await userEvent.click(screen.getAllByRole('checkbox', { name: /^Select transaction / })[0] as HTMLElement);
    expect(summary.textContent).toBe('1 of 2 selected · GTQ\u00a0120.50');
  });
});
