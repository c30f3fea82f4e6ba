import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { renderWithProviders } from '../test-render.tsx';
import { DeferredNotifications } from './DeferredNotifications.tsx';
import { notifications } from './notifications.ts';

describe('DeferredNotifications', () => {
  it('mounts nothing until a notification is shown, then shows the ones shown, in order', async () => {
    await renderWithProviders(<DeferredNotifications />);
    expect(document.querySelector('[class*="Notifications-root"]')).toBeNull();
    notifications.show({ message: 'Email copied to clipboard.' });
    notifications.show({ message: 'Account deleted.' });
    const shown = await screen.findAllByText(/Email copied to clipboard\.|Account deleted\./);
    expect(shown.map((node) => node.textContent)).toEqual(['Email copied to clipboard.', 'Account deleted.']);
    expect(document.querySelector('[class*="Notifications-root"]')).not.toBeNull();
  });
});
