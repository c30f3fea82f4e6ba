import { Alert, Button, Group, Select, SimpleGrid, Skeleton, Text, TextInput } from '@mantine/core';
import type { BankingFieldTemplate, BankingInfo, BankingInfoMetadata, BankingInfoTemplate } from '@rayo/shared';
import { canChangeOrganization } from '@rayo/shared';
import { type FormEvent, useState } from 'react';
import { errorMessage } from '../../api/error-messages.ts';
import { useMfaStatus } from '../../api/mfa.ts';
import {
  useBankingInfo,
  useBankingTemplate,
  usePayoutAddresses,
  useSaveBankingInfo,
} from '../../api/payout-destinations.ts';
import { LoadError } from '../../components/LoadError.tsx';
import { notifications } from '../../components/notifications.ts';
import { useTranslation } from '../../i18n/index.ts';
import { useSession } from '../../session/use-session.ts';
import {
  type BankAccountErrors,
  type BankAccountValues,
  bankAccountMetadata,
  checkBankAccount,
  initialBankAccountValues,
} from './bank-account-form.ts';
import { MfaCodeModal } from './MfaCodeModal.tsx';
import { PayoutDestinationCard, verificationOf } from './PayoutDestinationCard.tsx';

/**
 * Settings → bank account (SPEC §2), where the fiat part of the payout split is paid. Its fields
 * are those of the organization's country (the banking-info template); SPEC §3 uses the first
 * entry of the list. Managers see it read-only (SPEC §6).
 */
export function BankAccountSection() {
  const { t } = useTranslation();
  const template = useBankingTemplate();
  const list = useBankingInfo();
  const addresses = usePayoutAddresses();
  const entry = list.data?.[0];
  const failed = [template, list].find((query) => query.isError);
  return (
    <PayoutDestinationCard
      id="settings-bank-account"
      title={t('payoutDestinations.bank.title')}
      description={t('payoutDestinations.bank.description')}
      state={list.data && addresses.data ? verificationOf(entry, addresses.data.bankVerified) : undefined}
    >
      {(template.isPending || list.isPending) && !failed && <Skeleton h={220} />}
      {failed && <LoadError error={failed.error} onRetry={() => Promise.all([template.refetch(), list.refetch()])} />}
      {template.data && list.data && (
        <BankAccountForm
          key={entry ? `${entry.id}-${entry.updatedAt}` : 'new'}
          template={template.data}
          entry={entry}
        />
      )}
    </PayoutDestinationCard>
  );
}

function BankAccountForm({ template, entry }: { template: BankingInfoTemplate; entry: BankingInfo | undefined }) {
  const { t } = useTranslation();
  const { role } = useSession();
  const editable = canChangeOrganization(role);
  const hasMfa = useMfaStatus().data?.hasMfa ?? false;
  const save = useSaveBankingInfo(() =>
    notifications.show({ color: 'teal', message: t('payoutDestinations.bank.saved') }),
  );
  const [values, setValues] = useState<BankAccountValues>(() =>
    initialBankAccountValues(template, entry?.bankingInfoMetadata),
  );
  const [errors, setErrors] = useState<BankAccountErrors>({});
  const [askingForCode, setAskingForCode] = useState<BankingInfoMetadata | null>(null);

  const set = (name: string, value: string) => {
    save.reset();
    setErrors(({ [name]: _, ...rest }) => rest);
    setValues((current) => ({ ...current, [name]: value }));
  };

  const send = (metadata: BankingInfoMetadata, mfaCode?: string) => {
    setAskingForCode(null);
    save.mutate({ ...(entry ? { id: entry.id } : {}), metadata, ...(mfaCode ? { mfaCode } : {}) });
  };

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const found = checkBankAccount(template, values);
    setErrors(found);
    if (Object.keys(found).length > 0) return;
    const metadata = bankAccountMetadata(template, values);
    if (hasMfa) setAskingForCode(metadata);
    else send(metadata);
  };

  const fieldError = (field: BankingFieldTemplate) => {
    const error = errors[field.name];
    return error && t(`payoutDestinations.bank.${error}`);
  };

  const optionLabel = (field: BankingFieldTemplate, option: string) =>
    field.name === 'accountType' ? t(`payoutDestinations.bank.accountTypes.${option}`) : option;

  return (
    <>
      <form onSubmit={submit} noValidate>
        <SimpleGrid cols={{ base: 1, xs: 2 }} spacing="sm">
          {template.fields.map((field) => {
            const label = t(`payoutDestinations.bank.fields.${field.label}`);
            const wide = field.name === 'accountNumber' || field.name === 'bank' || field.name === 'accountName';
            return field.input === 'select' ? (
              <Select
                key={field.name}
                label={label}
                data={(field.options ?? []).map((option) => ({ value: option, label: optionLabel(field, option) }))}
                value={values[field.name] || null}
                onChange={(value) => set(field.name, value ?? '')}
                allowDeselect={false}
                withAsterisk={field.required}
                disabled={!editable}
                error={fieldError(field)}
              />
            ) : (
              <TextInput
                key={field.name}
                label={label}
                style={wide ? { gridColumn: '1 / -1' } : undefined}
                value={values[field.name] ?? ''}
                onChange={(event) => set(field.name, event.currentTarget.value)}
                placeholder={editable ? field.example : undefined}
                maxLength={field.maxLength}
                withAsterisk={field.required}
                disabled={!editable}
                error={fieldError(field)}
                autoComplete="off"
                spellCheck={false}
              />
            );
          })}
        </SimpleGrid>
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
              {t('payoutDestinations.bank.save')}
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
          title={t('payoutDestinations.bank.mfaTitle')}
          submitLabel={t('payoutDestinations.bank.save')}
          loading={save.isPending}
          onSubmit={(code) => send(askingForCode, code)}
          onClose={() => setAskingForCode(null)}
        />
      )}
    </>
  );
}
