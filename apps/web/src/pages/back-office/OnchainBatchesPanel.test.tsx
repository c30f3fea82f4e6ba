import { Notifications } from '@mantine/notifications';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { sessionStore } from '../../session/session-store.ts';
import { renderWithProviders } from '../../test-render.tsx';
import { OnchainBatchesPanel } from './OnchainBatchesPanel.tsx';

const batch = (id: string, state: string) => ({
  id,
  createdAt: '2026-11-24T08:00:00.000Z',
  state,
  txid: `${id}`.padEnd(64, '0'),
  outputs: 2,
  amountSats: 2_602_690,
  feeSats: 282,
  vsize: 141,
  confirmations: state === 'confirmed' ? 6 : 0,
  attempts: 0,
  lastError: null,
  feeRate: 2,
  replacedTxids: [] as string[],
  replaceable: state !== 'confirmed',
});

type Call = { route: string; body: unknown };

function stubServer(
  list: unknown[][],
  signed: { status: number; body: unknown },
  bumped: { status: number; body: unknown } = signed,
) {
  const calls: Call[] = [];
  const lists = [...list];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string, init: RequestInit) => {
      const route = `${init.method ?? 'GET'} ${url}`;
      calls.push({ route, body: init.body ? JSON.parse(String(init.body)) : undefined });
      if (route === 'GET /api/back-office/onchain-payouts') {
        return Response.json(lists.length > 1 ? lists.shift() : lists[0]);
      }
      if (route.endsWith('/psbt')) return new Response(new Uint8Array([0x70, 0x73, 0x62, 0x74, 0xff]));
      if (route.endsWith('/signed')) return Response.json(signed.body, { status: signed.status });
      if (route.endsWith('/bump')) return Response.json(bumped.body, { status: bumped.status });
      return Response.json({ code: 'NotFound', message: route }, { status: 404 });
    }),
  );
  return calls;
}

async function renderPanel() {
  sessionStore.signIn({ accessToken: 'access', refreshToken: 'refresh', role: 'back_office', language: 'en' }, true);
  await renderWithProviders(<OnchainBatchesPanel />, { beside: <Notifications /> });
}

describe('OnchainBatchesPanel', () => {
  afterEach(() => {
    vi.unstubAllGlobals();
    sessionStore.logout();
  });

  it('downloads the PSBT of a batch awaiting its signature and broadcasts the signed one', async () => {
    vi.stubGlobal('URL', Object.assign(URL, { createObjectURL: vi.fn(() => 'blob:psbt'), revokeObjectURL: vi.fn() }));
    const waiting = batch('a1', 'awaiting_signature');
    const calls = stubServer(
      [
        [waiting, batch('b2', 'confirmed')],
        [{ ...waiting, state: 'broadcast' }, batch('b2', 'confirmed')],
      ],
      { status: 200, body: { ...waiting, state: 'broadcast' } },
    );
    await renderPanel();
    const table = await screen.findByTestId('onchain-batches');
    expect(within(table).getByText('Awaiting signature')).toBeInTheDocument();
    expect(within(table).getByText('6 confirmations')).toBeInTheDocument();
    // Only the waiting batch offers the PSBT.
    expect(within(table).getAllByRole('button', { name: 'Download PSBT' })).toHaveLength(1);

    await userEvent.click(within(table).getByRole('button', { name: 'Download PSBT' }));
    await waitFor(() =>
      expect(calls.map((call) => call.route)).toContain('GET /api/back-office/onchain-payouts/a1/psbt'),
    );

    await userEvent.click(within(table).getByRole('button', { name: 'Send signed' }));
    const dialog = await screen.findByRole('dialog', { name: 'Send the signed batch' });
    await userEvent.type(within(dialog).getByRole('textbox', { name: /Signed PSBT or transaction/ }), '  cHNidP8B  ');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Broadcast' }));
    await waitFor(() =>
      expect(calls).toContainEqual({
        route: 'POST /api/back-office/onchain-payouts/a1/signed',
        body: { transaction: 'cHNidP8B' },
      }),
    );
    expect(await within(screen.getByTestId('onchain-batches')).findByText('Broadcast')).toBeInTheDocument();
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
  });

  it("keeps the dialog open with the server's reason when the signed batch is refused", async () => {
    stubServer([[batch('c1', 'awaiting_signature')]], {
      status: 409,
      body: { code: 'BatchNotAwaitingSignature', message: 'not waiting' },
    });
    await renderPanel();
    await userEvent.click(await screen.findByRole('button', { name: 'Send signed' }));
    const dialog = await screen.findByRole('dialog', { name: 'Send the signed batch' });
    await userEvent.type(within(dialog).getByRole('textbox', { name: /Signed PSBT or transaction/ }), '0200');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Broadcast' }));
    expect(await within(dialog).findByRole('alert')).toHaveTextContent(
      'This payout batch is not waiting for a signature.',
    );
  });

  it('raises the fee of a batch no block has taken, at the rate typed, and says what replaced it', async () => {
    const stuck = { ...batch('d1', 'broadcast'), feeRate: 1 };
    const replaced = { ...stuck, txid: 'e1'.padEnd(64, '0'), feeRate: 12, replacedTxids: [stuck.txid] };
    const calls = stubServer(
      [
        [stuck, batch('b2', 'confirmed')],
        [replaced, batch('b2', 'confirmed')],
      ],
      {
        status: 200,
        body: replaced,
      },
    );
    await renderPanel();
    const table = await screen.findByTestId('onchain-batches');
    // A confirmed batch cannot be replaced any more.
    expect(within(table).getAllByRole('button', { name: 'Raise fee' })).toHaveLength(1);
    await userEvent.click(within(table).getByRole('button', { name: 'Raise fee' }));
    const dialog = await screen.findByRole('dialog', { name: 'Raise the network fee' });
    expect(dialog).toHaveTextContent('it pays 1 sat/vB');
    await userEvent.type(within(dialog).getByRole('textbox', { name: /New fee rate/ }), '12');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Replace the transaction' }));
    await waitFor(() =>
      expect(calls).toContainEqual({ route: 'POST /api/back-office/onchain-payouts/d1/bump', body: { feeRate: 12 } }),
    );
    expect(await screen.findByText('The batch now pays 12 sat/vB; the replacement was broadcast.')).toBeInTheDocument();
    expect(
      await within(screen.getByTestId('onchain-batches')).findByText('Replaces 1 earlier transaction'),
    ).toBeInTheDocument();
  });

  it('keeps the fee dialog open with the reason when the wallet cannot pay more', async () => {
    stubServer(
      [[batch('f1', 'broadcast')]],
      { status: 200, body: {} },
      {
        status: 409,
        body: { code: 'BatchFeeNotCovered', message: 'cannot' },
      },
    );
    await renderPanel();
    await userEvent.click(await screen.findByRole('button', { name: 'Raise fee' }));
    const dialog = await screen.findByRole('dialog', { name: 'Raise the network fee' });
    await userEvent.click(within(dialog).getByRole('button', { name: 'Replace the transaction' }));
    expect(await within(dialog).findByRole('alert')).toHaveTextContent('The platform wallet cannot pay a higher fee');
  });
});
