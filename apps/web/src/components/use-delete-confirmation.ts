import type { UseMutationResult } from '@tanstack/react-query';
import { useState } from 'react';
import { errorMessage } from '../api/error-messages.ts';
import { useTranslation } from '../i18n/index.ts';
import { notifications } from './notifications.ts';

/**
 * Deleting a row after a confirmation: `ask(row)` opens the dialog, `dialog` is what
 * `ConfirmDialog` needs. The row stays named while the dialog closes, so `target` outlives
 * `dialog.opened`.
 */
export function useDeleteConfirmation<Row extends { id: string }>(
  remove: UseMutationResult<unknown, Error, string>,
  deletedMessage: string,
) {
  const { t } = useTranslation();
  const [target, setTarget] = useState<Row | null>(null);
  const [opened, setOpened] = useState(false);
  const close = () => {
    setOpened(false);
    remove.reset();
  };
  return {
    target,
    ask: (row: Row) => {
      setTarget(row);
      setOpened(true);
    },
    dialog: {
      opened,
      loading: remove.isPending,
      error: remove.error ? errorMessage(t, remove.error) : null,
      onClose: close,
      onConfirm: () => {
        if (!target) return;
        remove.mutate(target.id, {
          onSuccess: () => {
            notifications.show({ color: 'teal', message: deletedMessage });
            close();
          },
        });
      },
    },
  };
}
