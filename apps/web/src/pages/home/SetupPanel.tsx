import { Alert, Anchor, List, Paper, Progress, Stack, Text, ThemeIcon, Title, VisuallyHidden } from '@mantine/core';
import { canChangeOrganization } from '@rayo/shared';
import { IconCheck, IconCircleDashed, IconInfoCircle } from '@tabler/icons-react';
import { Link } from 'react-router';
import { useAccountList } from '../../api/accounts.ts';
import { useBpts } from '../../api/bpts.ts';
import { useKybDocuments } from '../../api/kyb.ts';
import { useMfaStatus } from '../../api/mfa.ts';
import { useBankingInfo, usePayoutAddresses } from '../../api/payout-destinations.ts';
import { usePayoutSplit } from '../../api/payout-split.ts';
import { useTranslation } from '../../i18n/index.ts';
import { useSession } from '../../session/use-session.ts';
import { settingsPath } from '../settings/settings-sections.ts';
import { missingPayoutAddresses, type SetupStep, setupSteps } from './setup-steps.ts';

const stepPaths: Record<SetupStep, string> = {
  account: '/accounts',
  bpt: '/bpts',
  payoutDestination: settingsPath('payouts'),
  bankDetails: settingsPath('payouts'),
  kyb: settingsPath('verification'),
  mfa: settingsPath('security'),
};

/**
 * What home says about the organization's setup, below the metric cards: an administrator's
 * checklist of what a new organization still lacks, until nothing does; and, for every member,
 * why bitcoin waits to be paid out when the split sends a share to an address that is not set.
 */
export function SetupPanel({ bitcoinToDisburse }: { bitcoinToDisburse: number }) {
  const admin = canChangeOrganization(useSession().role);
  return (
    <>
      {bitcoinToDisburse > 0 && <UnpaidBitcoinNotice />}
      {admin && <SetupChecklist />}
    </>
  );
}

function SetupChecklist() {
  const { t } = useTranslation();
  const accounts = useAccountList();
  const bpts = useBpts();
  const addresses = usePayoutAddresses();
  const banking = useBankingInfo();
  const kyb = useKybDocuments(true);
  const mfa = useMfaStatus();
  const queries = [accounts, bpts, addresses, banking, kyb, mfa];
  // Shown only once every answer is in: a step counted as missing while it loads would flash.
  if (queries.some((query) => !query.data)) return null;
  const steps = setupSteps({
    accounts: accounts.data?.length ?? 0,
    bpts: bpts.data?.length ?? 0,
    addresses: addresses.data ?? null,
    bankAccounts: banking.data?.length ?? 0,
    kybDocuments: kyb.data?.length ?? 0,
    mfa: mfa.data?.hasMfa ?? false,
  });
  const done = steps.filter((step) => step.done).length;
  if (done === steps.length) return null;
  return (
    <Paper withBorder p="md" radius="md" component="section" aria-labelledby="setup-checklist">
      <Stack gap="sm">
        <Title order={2} size="h4" id="setup-checklist">
          {t('home.setup.title')}
        </Title>
        <Text size="sm" c="dimmed">
          {t('home.setup.progress', { done, total: steps.length })}
        </Text>
        <Progress value={(done / steps.length) * 100} size="sm" aria-hidden />
        <List spacing="xs" center>
          {steps.map((step) => (
            <List.Item
              key={step.id}
              data-step={step.id}
              data-done={step.done}
              icon={
                <ThemeIcon size={22} radius="xl" color={step.done ? 'teal' : 'gray'} variant="light">
                  {step.done ? <IconCheck size={14} /> : <IconCircleDashed size={14} />}
                </ThemeIcon>
              }
            >
              {step.done ? (
                <Text size="sm" c="dimmed" td="line-through">
                  {t(`home.setup.steps.${step.id}`)}
                  <VisuallyHidden> — {t('home.setup.done')}</VisuallyHidden>
                </Text>
              ) : (
                <Anchor component={Link} to={stepPaths[step.id]} size="sm">
                  {t(`home.setup.steps.${step.id}`)}
                </Anchor>
              )}
            </List.Item>
          ))}
        </List>
      </Stack>
    </Paper>
  );
}

/**
 * The period's "Bitcoin to disburse" (the cards' figure, which home passes down rather than asking
 * again) counts shares that cannot be paid out while their address is missing: say so.
 */
function UnpaidBitcoinNotice() {
  const { t } = useTranslation();
  const addresses = usePayoutAddresses();
  const split = usePayoutSplit();
  if (!addresses.data || !split.data) return null;
  const missing = missingPayoutAddresses(split.data, addresses.data);
  if (missing.length === 0) return null;
  return (
    <Alert color="yellow" icon={<IconInfoCircle size={20} />} role="status" data-testid="unpaid-bitcoin-notice">
      {missing.map((kind) => (
        <Text key={kind} size="sm">
          {t(`home.setup.missingAddress.${kind}`)}{' '}
          <Anchor component={Link} to={settingsPath('payouts')} size="sm">
            {t('home.setup.addAddress')}
          </Anchor>
        </Text>
      ))}
    </Alert>
  );
}
