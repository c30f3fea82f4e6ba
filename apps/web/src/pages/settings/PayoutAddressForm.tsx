import { Alert, Button, Group, Text, TextInput } from '@mantine/core';
import { canChangeOrganization } from '@rayo/shared';
import type { UseMutationResult } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { errorMessage } from '../../api/error-messages.ts';
import { useMfaStatus } from '../../api/mfa.ts';
import { notifications } from '../../components/notifications.ts';
import { useTranslation } from '../../i18n/index.ts';
import { useSession } from '../../session/use-session.ts';
import { MfaCodeModal } from './MfaCodeModal.tsx';

type AddressMutation = UseMutationResult<unknown, Error, { address: string; mfaCode?: string }>;

/**
 * One address and its save button, for the on-chain and Lightning sections: the MFA code when
 * MFA is on, the server's refusal in the user's language, and no button for managers.
 */
export function PayoutAddressForm({
  texts,
  saved,
  save,
  placeholder,
}: {
  /** The key under `payoutDestinations` of the section's texts. */
  texts: 'onchain' | 'lightning';
  saved: string | null;
  save: AddressMutation;
  placeholder: string;
}) {
  const { t } = useTranslation();
  const { role } = useSession();
  const editable = canChangeOrganization(role);
  const hasMfa = useMfaStatus().data?.hasMfa ?? false;
  const [address, setAddress] = useState(saved ?? '');
  const [missing, setMissing] = useState(false);
  const [askingForCode, setAskingForCode] = useState<string | null>(null);

  const send = (value: string, mfaCode?: string) => {
    setAskingForCode(null);
    save.mutate(
      { address: value, ...(mfaCode ? { mfaCode } : {}) },
      { onSuccess: () => notifications.show({ color: 'teal', message: t(`payoutDestinations.${texts}.saved`) }) },
    );
  };

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const value = address.trim();
    setMissing(value === '');
    if (value === '') return;
    if (hasMfa) setAskingForCode(value);
    else send(value);
  };

  return (
    <>
      <form onSubmit={submit} noValidate>
        <TextInput
          label={t(`payoutDestinations.${texts}.label`)}
          value={address}
          onChange={(event) => {
            save.reset();
            setMissing(false);
            setAddress(event.currentTarget.value);
          }}
          placeholder={editable ? placeholder : undefined}
          disabled={!editable}
          error={missing && t(`payoutDestinations.${texts}.missing`)}
          autoComplete="off"
          spellCheck={false}
          styles={{ input: { fontFamily: 'var(--mantine-font-family-monospace)' } }}
        />
        {save.isError && (
          <Alert color="red" variant="light" role="alert" mt="md">
            {errorMessage(t, save.error)}
          </Alert>
        )}
        {editable ? (
          <Group justify="space-between" mt="md" gap="xs">
            <Text size="xs" c="dimmed" maw={300}>
              {t('payoutDestinations.reverification')}
            </Text>
            <Button type="submit" loading={save.isPending}>
              {t(`payoutDestinations.${texts}.save`)}
            </Button>
          </Group>
        ) : (
          <Text size="sm" c="dimmed" mt="md">
            {t('payoutDestinations.readOnly')}
          </Text>
        )}
      </form>
      {askingForCode && (
        <MfaCodeModal
          title={t(`payoutDestinations.${texts}.mfaTitle`)}
          submitLabel={t(`payoutDestinations.${texts}.save`)}
          loading={save.isPending}
          onSubmit={(code) => send(askingForCode, code)}
          onClose={() => setAskingForCode(null)}
        />
      )}
    </>
  );
}
