import { Modal, Stack, TextInput } from '@mantine/core';
import type { Account } from '@rayo/shared';
import { type FormEvent, useState } from 'react';
import { useCreateAccount, useUpdateAccount } from '../../api/accounts.ts';
import { FormFooter } from '../../components/FormFooter.tsx';
import { notifications } from '../../components/notifications.ts';
import { useReturnFocus } from '../../components/use-return-focus.ts';
import { useTranslation } from '../../i18n/index.ts';

/** Creates an account, or renames one and changes its internal code (SPEC §5: the code is optional). */
export function AccountFormModal({ account, onClose }: { account: Account | null; onClose: () => void }) {
  useReturnFocus();
  const { t } = useTranslation();
  const create = useCreateAccount();
  const update = useUpdateAccount();
  const [name, setName] = useState(account?.name ?? '');
  const [internalCode, setInternalCode] = useState(account?.internalCode ?? '');
  const [nameError, setNameError] = useState<string | null>(null);
  const mutation = account ? update : create;

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (!name.trim()) {
      setNameError(t('accounts.nameRequired'));
      return;
    }
    const request = { name: name.trim(), internalCode: internalCode.trim() || null };
    try {
      if (account) await update.mutateAsync({ id: account.id, ...request });
      else await create.mutateAsync(request);
      notifications.show({ color: 'teal', message: t(account ? 'accounts.saved' : 'accounts.created') });
      onClose();
    } catch {
      // The mutation's error is shown in the form.
    }
  };

  return (
    <Modal opened onClose={onClose} title={t(account ? 'accounts.editTitle' : 'accounts.createTitle')} centered>
      <form onSubmit={submit} noValidate>
        <Stack>
          <TextInput
            label={t('accounts.name')}
            value={name}
            onChange={(event) => {
              setName(event.currentTarget.value);
              setNameError(null);
            }}
            error={nameError}
            required
            maxLength={100}
            data-autofocus
          />
          <TextInput
            label={t('accounts.internalCode')}
            description={t('accounts.internalCodeHint')}
            value={internalCode}
            onChange={(event) => setInternalCode(event.currentTarget.value)}
            maxLength={50}
          />
          <FormFooter
            editing={account !== null}
            error={mutation.error}
            saving={mutation.isPending}
            onCancel={onClose}
          />
        </Stack>
      </form>
    </Modal>
  );
}
