import {
  Alert,
  Button,
  Group,
  List,
  NumberInput,
  Paper,
  SimpleGrid,
  Skeleton,
  Stack,
  Switch,
  Text,
  ThemeIcon,
  Title,
} from '@mantine/core';
import {
  canChangeOrganization,
  missingVerifications,
  type PayoutSplitSettings,
  type SplitPercents,
  VERIFICATIONS,
} from '@rayo/shared';
import { type FormEvent, useState } from 'react';
import { errorMessage } from '../../api/error-messages.ts';
import { useMfaStatus } from '../../api/mfa.ts';
import { usePayoutSplit, useSetPayoutSplit } from '../../api/payout-split.ts';
import { LoadError } from '../../components/LoadError.tsx';
import { notifications } from '../../components/notifications.ts';
import { useTranslation } from '../../i18n/index.ts';
import { useSession } from '../../session/use-session.ts';
import { MfaCodeModal } from './MfaCodeModal.tsx';
import { checkSplitForm, SPLIT_FIELDS, type SplitForm } from './payout-split-form.ts';

/**
 * Settings → payment split and fiat conversion (SPEC §2): three whole percentages that add up to
 * 100. Fiat conversion is the fiat share itself (docs/decisions.md): its switch opens the fiat
 * input, and turning it off sets the share to 0. Managers see it read-only (SPEC §6).
 */
export function PaymentSplitSection() {
  const { t } = useTranslation();
  const settings = usePayoutSplit();
  return (
    <Paper withBorder p={{ base: 'md', sm: 'xl' }} maw={560} component="section" aria-labelledby="settings-split">
      <Stack gap="md">
        <div>
          <Title order={2} size="h4" id="settings-split">
            {t('payoutSplit.title')}
          </Title>
          <Text c="dimmed" size="sm" mt={4}>
            {t('payoutSplit.description')}
          </Text>
        </div>
        {settings.isPending && <Skeleton h={180} />}
        {settings.isError && <LoadError error={settings.error} onRetry={() => settings.refetch()} />}
        {settings.data && <SplitEditor key={JSON.stringify(settings.data)} settings={settings.data} />}
      </Stack>
    </Paper>
  );
}

function formOf(settings: PayoutSplitSettings): SplitForm {
  return {
    fiatPercent: settings.fiatPercent,
    onchainPercent: settings.onchainPercent,
    lightningPercent: settings.lightningPercent,
  };
}

function SplitEditor({ settings }: { settings: PayoutSplitSettings }) {
  const { t } = useTranslation();
  const { role } = useSession();
  const editable = canChangeOrganization(role);
  const hasMfa = useMfaStatus().data?.hasMfa ?? false;
  const save = useSetPayoutSplit();
  const [form, setForm] = useState<SplitForm>(() => formOf(settings));
  const [conversion, setConversion] = useState(settings.fiatPercent > 0);
  const [askingForCode, setAskingForCode] = useState<SplitPercents | null>(null);
  const check = checkSplitForm(form);
  const missing = missingVerifications(settings.verifications);

  const set = (field: keyof SplitForm, value: number | string) => {
    save.reset();
    setForm((current) => ({ ...current, [field]: value }));
  };

  // Turning conversion off gives its share to Lightning, so the split still adds up.
  const toggleConversion = (on: boolean) => {
    setConversion(on);
    if (!on) {
      const fiat = typeof form.fiatPercent === 'number' ? form.fiatPercent : 0;
      const lightning = typeof form.lightningPercent === 'number' ? form.lightningPercent : 0;
      setForm({ ...form, fiatPercent: 0, lightningPercent: lightning + fiat });
    }
  };

  const send = (split: SplitPercents, mfaCode?: string) => {
    setAskingForCode(null);
    save.mutate(
      { split, ...(mfaCode ? { mfaCode } : {}) },
      { onSuccess: () => notifications.show({ color: 'teal', message: t('payoutSplit.saved') }) },
    );
  };

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (check.error) return;
    if (hasMfa) setAskingForCode(check.split);
    else send(check.split);
  };

  const labels: Record<keyof SplitForm, string> = {
    fiatPercent: t('payoutSplit.fiat', { currency: settings.currency }),
    onchainPercent: t('payoutSplit.onchain'),
    lightningPercent: t('payoutSplit.lightning'),
  };

  return (
    <>
      <form onSubmit={submit} noValidate>
        <Stack gap="md">
          <Switch
            label={t('payoutSplit.conversion')}
            description={t('payoutSplit.conversionHint', {
              currency: settings.currency,
              fee: settings.conversionFeePercent,
            })}
            checked={conversion}
            disabled={!editable}
            onChange={(event) => toggleConversion(event.currentTarget.checked)}
          />
          <SimpleGrid cols={{ base: 1, xs: 3 }} spacing="sm">
            {SPLIT_FIELDS.map((field) => (
              <NumberInput
                key={field}
                label={labels[field]}
                value={form[field]}
                onChange={(value) => set(field, value)}
                min={0}
                max={100}
                allowDecimal={false}
                allowNegative={false}
                clampBehavior="strict"
                suffix=" %"
                readOnly={!editable}
                disabled={field === 'fiatPercent' && !conversion}
                error={check.error !== undefined}
              />
            ))}
          </SimpleGrid>
          {check.error && (
            <Text size="sm" c="red" role="alert">
              {t(check.error.key, check.error.values)}
            </Text>
          )}
          <Verifications missing={missing} />
          {save.isError && (
            <Alert color="red" variant="light" role="alert">
              {errorMessage(t, save.error)}
            </Alert>
          )}
          {editable ? (
            <Group justify="flex-end">
              <Button type="submit" loading={save.isPending}>
                {t('payoutSplit.save')}
              </Button>
            </Group>
          ) : (
            <Text size="sm" c="dimmed">
              {t('payoutSplit.readOnly')}
            </Text>
          )}
        </Stack>
      </form>
      {askingForCode && (
        <MfaCodeModal
          title={t('payoutSplit.mfaTitle')}
          submitLabel={t('payoutSplit.save')}
          loading={save.isPending}
          onSubmit={(code) => send(askingForCode, code)}
          onClose={() => setAskingForCode(null)}
        />
      )}
    </>
  );
}

/** SPEC §4: the split changes only once every field is verified; this says which are not yet. */
function Verifications({ missing }: { missing: readonly string[] }) {
  const { t } = useTranslation();
  return (
    <Stack gap={6}>
      <Text size="sm" fw={500}>
        {t(missing.length === 0 ? 'payoutSplit.allVerified' : 'payoutSplit.needsVerification')}
      </Text>
      <List spacing={4} size="sm" center>
        {VERIFICATIONS.map((name) => {
          const verified = !missing.includes(name);
          return (
            <List.Item
              key={name}
              icon={
                <ThemeIcon color={verified ? 'teal' : 'gray'} variant="light" size={20} radius="xl" aria-hidden>
                  {verified ? '✓' : '·'}
                </ThemeIcon>
              }
            >
              {t(`payoutSplit.verifications.${name}`)}
              <Text span size="sm" c={verified ? 'teal' : 'dimmed'}>
                {' — '}
                {t(verified ? 'payoutSplit.verified' : 'payoutSplit.notVerified')}
              </Text>
            </List.Item>
          );
        })}
      </List>
    </Stack>
  );
}
