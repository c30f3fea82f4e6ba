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
  type VerificationState,
  verificationState,
  verificationsNeededFor,
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
 * 100. Fiat conversion is the fiat share itself (docs/decisions/0025-payout-split.md): its switch opens the fiat
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

function splitOf(settings: PayoutSplitSettings): SplitPercents {
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
  const [form, setForm] = useState<SplitForm>(() => splitOf(settings));
  const [conversion, setConversion] = useState(settings.fiatPercent > 0);
  const [askingForCode, setAskingForCode] = useState<SplitPercents | null>(null);
  const check = checkSplitForm(form);
  // What the split being typed relies on; while the form does not add up, what the saved one does.
  const chosen = check.split ?? splitOf(settings);

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
          <Verifications settings={settings} split={chosen} />
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

const STATE_COLOR: Record<VerificationState, string> = {
  verified: 'teal',
  awaitingReview: 'yellow',
  notEntered: 'gray',
};
const STATE_MARK: Record<VerificationState, string> = { verified: '✓', awaitingReview: '…', notEntered: '·' };

/**
 * SPEC §4 and §5: the split changes once the team has validated the information it relies on
 * (docs/decisions/0025-payout-split.md). Lists what the split being chosen needs, and of each
 * whether it is verified, waits for the team's review, or has not been entered yet.
 */
function Verifications({ settings, split }: { settings: PayoutSplitSettings; split: SplitPercents }) {
  const { t } = useTranslation();
  const missing = missingVerifications(settings.verifications, split);
  return (
    <Stack gap={6} data-testid="split-verifications">
      <Text size="sm" fw={500}>
        {t(missing.length === 0 ? 'payoutSplit.allVerified' : 'payoutSplit.needsVerification')}
      </Text>
      <List spacing={4} size="sm" center>
        {verificationsNeededFor(split).map((name) => {
          const state = verificationState(name, settings.verifications, settings.entries);
          return (
            <List.Item
              key={name}
              icon={
                <ThemeIcon color={STATE_COLOR[state]} variant="light" size={20} radius="xl" aria-hidden>
                  {STATE_MARK[state]}
                </ThemeIcon>
              }
            >
              {t(`payoutSplit.verifications.${name}`)}
              <Text span size="sm" c={state === 'verified' ? 'teal' : 'dimmed'}>
                {' — '}
                {t(`payoutSplit.states.${state}`)}
              </Text>
            </List.Item>
          );
        })}
      </List>
    </Stack>
  );
}
