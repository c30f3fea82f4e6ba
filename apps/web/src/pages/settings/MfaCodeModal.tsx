import { Button, Group, Modal, Stack, Text, TextInput } from '@mantine/core';
import { type FormEvent, useState } from 'react';
import { useReturnFocus } from '../../components/use-return-focus.ts';
import { useTranslation } from '../../i18n/index.ts';

/**
 * Asks for the code a sensitive change needs when MFA is on (DESIGN §6, the `mfa-code` header);
 * a recovery code works too.
 */
export function MfaCodeModal({
  title,
  submitLabel,
  submitColor,
  loading,
  error,
  onSubmit,
  onClose,
}: {
  title: string;
  submitLabel: string;
  /** Red for a change that lowers protection, such as turning MFA off. */
  submitColor?: string;
  loading: boolean;
  /** The server's refusal of the code typed, shown under it so it can be typed again. */
  error?: string | null;
  onSubmit: (code: string) => void;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  useReturnFocus();
  const [code, setCode] = useState('');
  const [missing, setMissing] = useState(false);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    // The dialog renders in a portal, but React bubbles its submit to any form around it.
    event.stopPropagation();
    const value = code.trim();
    setMissing(value === '');
    if (value !== '') onSubmit(value);
  };

  return (
    <Modal opened onClose={onClose} title={title} centered>
      <form onSubmit={submit} noValidate>
        <Stack>
          <Text size="sm">{t('mfa.settings.disableHelp')}</Text>
          <TextInput
            label={t('mfa.settings.disableCodeLabel')}
            autoComplete="one-time-code"
            data-autofocus
            value={code}
            onChange={(event) => setCode(event.currentTarget.value)}
            error={missing ? t('mfa.errors.missingCode') : error}
          />
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose}>
              {t('common.cancel')}
            </Button>
            <Button type="submit" color={submitColor} loading={loading}>
              {submitLabel}
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
