import { MantineProvider } from '@mantine/core';
import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter } from 'react-router';
import { describe, expect, it } from 'vitest';
import { initI18n } from '../../i18n/index.ts';
import { LoginPage, validateLogin } from './LoginPage.tsx';

describe('validateLogin', () => {
  it('follows SPEC §5', () => {
    expect(validateLogin('', '')).toEqual({ email: 'errors.missingEmail', password: 'errors.missingPassword' });
    expect(validateLogin('   ', 'x')).toEqual({ email: 'errors.missingEmail' });
    expect(validateLogin('nope', 'x')).toEqual({ email: 'errors.invalidEmail' });
    expect(validateLogin('a@b.co', 'x')).toEqual({});
  });
});

async function renderLogin(language: 'en' | 'es') {
  const i18n = initI18n();
  await i18n.changeLanguage(language);
  render(
    <MantineProvider>
      <MemoryRouter>
        <LoginPage />
      </MemoryRouter>
    </MantineProvider>,
  );
}

describe('LoginPage', () => {
  it('shows the missing-field messages in English', async () => {
    await renderLogin('en');
    await userEvent.click(screen.getByRole('button', { name: 'Sign in' }));
    expect(screen.getByText('The email is missing')).toBeInTheDocument();
    expect(screen.getByText('The password is missing')).toBeInTheDocument();
  });

  it('shows an invalid email in Spanish', async () => {
    await renderLogin('es');
    await userEvent.type(screen.getByRole('textbox', { name: 'Correo electrónico' }), 'no-es-correo');
    await userEvent.click(screen.getByRole('button', { name: 'Iniciar sesión' }));
    expect(screen.getByText('El correo electrónico no es válido')).toBeInTheDocument();
  });
});
