import { describe, expect, it } from 'vitest';
import { initI18n } from '../../i18n/index.ts';
import { channelLabel, channelValue } from './channels.ts';

describe('channels', () => {
  it('shows suggested channels in the current language and stores them by name', async () => {
    const i18n = initI18n();
    await i18n.changeLanguage('es');
    const t = i18n.t;
    expect(channelLabel(t, 'store')).toBe('Tienda');
    expect(channelLabel(t, 'Feria de verano')).toBe('Feria de verano');
    expect(channelValue(t, ' Tienda ')).toBe('store');
    expect(channelValue(t, 'en línea')).toBe('online');
    expect(channelValue(t, 'event')).toBe('event');
    expect(channelValue(t, ' Feria de verano ')).toBe('Feria de verano');
  });
});
