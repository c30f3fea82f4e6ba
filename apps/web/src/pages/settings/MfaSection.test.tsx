import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { renderWithProviders } from '../../test-render.tsx';
import { MfaSection } from './MfaSection.tsx';

type Answer = { status: number; body?: unknown };

/** Answers each `METHOD /api/path` from `routes`, and records what was sent. */
function stubServer(routes: Record<string, Answer | Answer[]>) {
  const calls: { route: string; headers: Record<string, string> }[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string, init: RequestInit) => {
      const route = `${init.method ?? 'GET'} ${url}`;
      calls.push({ route, headers: init.headers as Record<string, string> });
      const planned = routes[route];
      const answer = Array.isArray(planned) ? (planned.shift() as Answer) : planned;
      if (!answer) throw new Error(`unexpected ${route}`);
      return new Response(answer.body === undefined ? null : JSON.stringify(answer.body), { status: answer.status });
    }),
  );
  return calls;
}

async function renderSection(language: 'en' | 'es' = 'en') {
  await renderWithProviders(<MfaSection />, { language });
}

const enrollment = {
  secret: 'JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP',
  otpauthUri: 'otpauth://totp/Rayo:a%40b.co?secret=JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP&issuer=Rayo',
  recoveryCodes: Array.from({ length: 10 }, (_, index) => `code-${index}`),
};

describe('MfaSection', () => {
  afterEach(() => vi.unstubAllGlobals());

  it('turns MFA on: shows the key and the recovery codes, and validates the code', async () => {
    const calls = stubServer({
      // Read at first, after the wrong code and after the right one.
      'GET /api/settings/mfa': [
        { status: 200, body: { hasMfa: false } },
        { status: 200, body: { hasMfa: false } },
        { status: 200, body: { hasMfa: true } },
      ],
      'POST /api/settings/mfa/enable': { status: 200, body: enrollment },
      'POST /api/settings/mfa/validate': [
        { status: 400, body: { code: 'WrongMfaCode', message: 'no' } },
        { status: 204 },
      ],
    });
    await renderSection();
    const toggle = await screen.findByRole('switch', { name: 'MFA' });
    expect(toggle).not.toBeChecked();
    await userEvent.click(toggle);

    expect(await screen.findByText('JBSW Y3DP EHPK 3PXP JBSW Y3DP EHPK 3PXP')).toBeInTheDocument();
    expect(within(screen.getByRole('list')).getAllByRole('listitem')).toHaveLength(10);
    expect(toggle).toBeChecked();

    const code = screen.getByLabelText('3. Enter the 6-digit code from the app');
    await userEvent.type(code, '12');
    await userEvent.click(screen.getByRole('button', { name: 'Turn on MFA' }));
    expect(screen.getByText('Enter the 6 digits the app shows')).toBeInTheDocument();

    await userEvent.clear(code);
    await userEvent.type(code, '123456');
    await userEvent.click(screen.getByRole('button', { name: 'Turn on MFA' }));
    expect(await screen.findByText('The code is not correct')).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Turn on MFA' }));
    await waitFor(() => expect(screen.queryByText(/JBSW/)).not.toBeInTheDocument());
    expect(screen.getByText('MFA is on.')).toBeInTheDocument();
    expect(toggle).toBeChecked();
    expect(calls.filter((call) => call.route === 'POST /api/settings/mfa/validate')).toHaveLength(2);
  });

  it('puts the switch back on and says "Error disabling MFA" when the disable fails', async () => {
    const calls = stubServer({
      'GET /api/settings/mfa': { status: 200, body: { hasMfa: true } },
      'POST /api/settings/mfa/disable': { status: 400, body: { code: 'WrongMfaCode', message: 'no' } },
    });
    await renderSection();
    const toggle = await screen.findByRole('switch', { name: 'MFA' });
    await waitFor(() => expect(toggle).toBeChecked());
    await userEvent.click(toggle);
    const dialog = await screen.findByRole('dialog', { name: 'Turn off MFA' });
    expect(toggle).not.toBeChecked();
    await userEvent.type(within(dialog).getByLabelText('Code'), '654321');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Turn off MFA' }));

    expect(await screen.findByText('Error disabling MFA')).toBeInTheDocument();
    expect(screen.getByText('The code is not correct')).toBeInTheDocument();
    expect(toggle).toBeChecked();
    const disable = calls.find((call) => call.route === 'POST /api/settings/mfa/disable');
    expect(disable?.headers['mfa-code']).toBe('654321');
  });

  it('turns MFA off in Spanish', async () => {
    stubServer({
      'GET /api/settings/mfa': [
        { status: 200, body: { hasMfa: true } },
        { status: 200, body: { hasMfa: false } },
      ],
      'POST /api/settings/mfa/disable': { status: 204 },
    });
    await renderSection('es');
    const toggle = await screen.findByRole('switch', { name: 'MFA' });
    await waitFor(() => expect(toggle).toBeChecked());
    await userEvent.click(toggle);
    const dialog = await screen.findByRole('dialog', { name: 'Desactivar MFA' });
    await userEvent.type(within(dialog).getByLabelText('Código'), 'abcd-efgh-ijkl-mnop');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Desactivar MFA' }));
    expect(await screen.findByText('MFA está desactivada.')).toBeInTheDocument();
    expect(toggle).not.toBeChecked();
  });
});
