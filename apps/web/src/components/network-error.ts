import type { TFunction } from '../i18n/index.ts';
import { notifications } from './notifications.ts';

/** SPEC §8: a red snackbar at the top that stays until dismissed. */
export function showNetworkError(t: TFunction): void {
  notifications.show({
    id: 'network-error',
    color: 'red',
    position: 'top-right',
    message: t('errors.network'),
    autoClose: false,
  });
}
