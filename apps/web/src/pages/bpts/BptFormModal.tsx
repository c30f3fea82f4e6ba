import { Alert, Anchor, Autocomplete, Modal, Select, Stack, Switch, Text, TextInput } from '@mantine/core';
import { type Bpt, parsePercentToBps, SATS } from '@rayo/shared';
import { type FormEvent, useState } from 'react';
import { Link } from 'react-router';
import { useCreateBpt, useCurrencies, useUpdateBpt } from '../../api/bpts.ts';
import { useAccounts } from '../../api/catalog.ts';
import { ApiError } from '../../api/client.ts';
import { FormFooter } from '../../components/FormFooter.tsx';
import { LoadError } from '../../components/LoadError.tsx';
import { notifications } from '../../components/notifications.ts';
import { useReturnFocus } from '../../components/use-return-focus.ts';
import { useTranslation } from '../../i18n/index.ts';
import { channelLabel, channelValue, suggestedChannels } from './channels.ts';

type Form = {
  name: string;
  accountId: string | null;
  channel: string;
  currency: string | null;
  shareable: boolean;
  tipEnabled: boolean;
  /** As typed: a percentage the form cannot read is refused, never rounded or clamped into one. */
  taxPercentage: string;
};
type Errors = Partial<Record<keyof Form, string>>;

/**
 * The tax as the server reads it (0 to 100, at most two decimals), with a decimal comma taken as
 * the point it stands for; null for anything else ("abc", "-1", "12.345", "101", "1,000.5").
 */
export function parseTaxInput(text: string): number | null {
  const trimmed = text.trim().replace(/\s*%$/, '');
  if ((trimmed.match(/[.,]/g) ?? []).length > 1) return null;
  try {
    return parsePercentToBps(trimmed.replace(',', '.')) / 100;
  } catch {
    return null;
  }
}

function validate(form: Form): Errors {
  const errors: Errors = {};
  if (!form.name.trim()) errors.name = 'bpts.nameRequired';
  if (!form.accountId) errors.accountId = 'bpts.accountRequired';
  if (!form.channel.trim()) errors.channel = 'bpts.channelRequired';
  if (!form.currency) errors.currency = 'bpts.currencyRequired';
  if (parseTaxInput(form.taxPercentage) === null) errors.taxPercentage = 'bpts.taxInvalid';
  return errors;
}

/** SPEC §5: a BPT needs at least one account first. */
function AccountNeeded({ onClose }: { onClose: () => void }) {
  const { t } = useTranslation();
  return (
    <Alert color="yellow" title={t('bpts.accountNeededTitle')} role="alert">
      <Stack gap="sm">
        <Text size="sm">{t('errors.accountRequired')}</Text>
        <Anchor component={Link} to="/accounts" onClick={onClose} fw={600}>
          {t('bpts.goToAccounts')}
        </Anchor>
      </Stack>
    </Alert>
  );
}

/** Creates a BPT (`bpt` null) or edits one. */
export function BptFormModal({ bpt, onClose }: { bpt: Bpt | null; onClose: () => void }) {
  useReturnFocus();
  const { t, i18n } = useTranslation();
  const accounts = useAccounts();
  const currencies = useCurrencies();
  const create = useCreateBpt();
  const update = useUpdateBpt();
  const mutation = bpt ? update : create;
  const [form, setForm] = useState<Form>({
    name: bpt?.name ?? '',
    accountId: bpt?.accountId ?? null,
    channel: channelLabel(t, bpt?.channel ?? 'store'),
    currency: bpt?.currency ?? null,
    shareable: bpt?.shareable ?? false,
    tipEnabled: bpt?.tipEnabled ?? false,
    taxPercentage: String(bpt?.taxPercentage ?? 0),
  });
  const [errors, setErrors] = useState<Errors>({});
  const set = <K extends keyof Form>(key: K, value: Form[K]) => {
    setForm((current) => ({ ...current, [key]: value }));
    setErrors((current) => ({ ...current, [key]: undefined }));
  };

  const currencyNames = new Intl.DisplayNames(i18n.language, { type: 'currency', fallback: 'code' });
  const currencyOptions = (currencies.data ?? []).map(({ code }) => ({
    value: code,
    label: code === SATS ? t('bpts.sats') : `${code} · ${currencyNames.of(code)}`,
  }));
  const accountNeeded =
    (!bpt && accounts.data?.length === 0) ||
    (mutation.error instanceof ApiError && mutation.error.code === 'AccountRequired');

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const found = validate(form);
    setErrors(found);
    if (Object.keys(found).length > 0 || !form.accountId || !form.currency) return;
    const request = {
      name: form.name.trim(),
      accountId: form.accountId,
      channel: channelValue(t, form.channel),
      currency: form.currency,
      shareable: form.shareable,
      tipEnabled: form.tipEnabled,
      taxPercentage: parseTaxInput(form.taxPercentage) ?? 0,
    };
    try {
      if (bpt) await update.mutateAsync({ id: bpt.id, ...request });
      else await create.mutateAsync(request);
      notifications.show({ color: 'teal', message: t(bpt ? 'bpts.saved' : 'bpts.created') });
      onClose();
    } catch {
      // The mutation's error is shown in the form.
    }
  };

  return (
    <Modal opened onClose={onClose} title={t(bpt ? 'bpts.editTitle' : 'bpts.createTitle')} centered>
      {accountNeeded ? (
        <AccountNeeded onClose={onClose} />
      ) : (
        <form onSubmit={submit} noValidate>
          <Stack>
            <TextInput
              label={t('bpts.name')}
              value={form.name}
              onChange={(event) => set('name', event.currentTarget.value)}
              error={errors.name && t(errors.name)}
              required
              maxLength={100}
              data-autofocus
            />
            <Select
              label={t('bpts.account')}
              data={(accounts.data ?? []).map((account) => ({ value: account.id, label: account.name }))}
              value={form.accountId}
              onChange={(value) => set('accountId', value)}
              error={errors.accountId && t(errors.accountId)}
              required
              searchable
              allowDeselect={false}
            />
            <Autocomplete
              label={t('bpts.channel')}
              description={t('bpts.channelHint')}
              data={suggestedChannels.map((channel) => channelLabel(t, channel))}
              value={form.channel}
              onChange={(value) => set('channel', value)}
              error={errors.channel && t(errors.channel)}
              required
              maxLength={50}
            />
            <Select
              label={t('bpts.currency')}
              data={currencyOptions}
              value={form.currency}
              onChange={(value) => set('currency', value)}
              error={errors.currency && t(errors.currency)}
              required
              searchable
              allowDeselect={false}
            />
            <TextInput
              label={t('bpts.taxPercentage')}
              description={t('bpts.taxHint')}
              inputMode="decimal"
              autoComplete="off"
              value={form.taxPercentage}
              onChange={(event) => set('taxPercentage', event.currentTarget.value)}
              onBlur={() =>
                parseTaxInput(form.taxPercentage) === null &&
                setErrors((current) => ({ ...current, taxPercentage: 'bpts.taxInvalid' }))
              }
              error={errors.taxPercentage && t(errors.taxPercentage)}
              rightSection="%"
            />
            <Switch
              label={t('bpts.tip')}
              description={t('bpts.tipHint')}
              checked={form.tipEnabled}
              onChange={(event) => set('tipEnabled', event.currentTarget.checked)}
            />
            <Switch
              label={t('bpts.shareable')}
              description={t('bpts.shareableHint')}
              checked={form.shareable}
              onChange={(event) => set('shareable', event.currentTarget.checked)}
            />
            {(accounts.isError || currencies.isError) && (
              <LoadError
                error={accounts.error ?? currencies.error}
                onRetry={() => {
                  if (accounts.isError) accounts.refetch();
                  if (currencies.isError) currencies.refetch();
                }}
              />
            )}
            <FormFooter editing={bpt !== null} error={mutation.error} saving={mutation.isPending} onCancel={onClose} />
          </Stack>
        </form>
      )}
    </Modal>
  );
}
