import { MantineProvider } from '@mantine/core';
import { cleanNotifications, notifications } from '@mantine/notifications';
import { act, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { DeferredNotifications } from './DeferredNotifications.tsx';

describe('DeferredNotifications', () => {
  afterEach(() => {
    act(() => cleanNotifications());
  });

  it('mounts nothing until a notification is shown, then shows that one', async () => {
    render(
      <MantineProvider>
        <DeferredNotifications />
      </MantineProvider>,
    );
    expect(document.querySelector('[class*="Notifications-root"]')).toBeNull();
    act(() => {
      notifications.show({ message: 'Email copied to clipboard.' });
    });
    expect(await screen.findByText('Email copied to clipboard.')).toBeInTheDocument();
    expect(document.querySelector('[class*="Notifications-root"]')).not.toBeNull();
  });
});
