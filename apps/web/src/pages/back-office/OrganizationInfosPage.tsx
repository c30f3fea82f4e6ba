import {
  Alert,
  Anchor,
  Badge,
  Button,
  Group,
  Paper,
  Radio,
  SimpleGrid,
  Stack,
  Table,
  Text,
  Title,
} from '@mantine/core';
import {
  BANKING_FIELDS,
  BLOCK_REASONS,
  type BlockReason,
  type OrganizationAdminRecord,
  VERIFICATIONS,
  type Verification,
  type VerificationEntries,
  type VerificationState,
  verificationState,
} from '@rayo/shared';
import { IconBan, IconLock, IconLockOpen } from '@tabler/icons-react';
import { type ReactNode, useState } from 'react';
import { useParams } from 'react-router';
import {
  downloadOrganizationKybDocument,
  useOrganizationAdminRecord,
  useSetBlocked,
  useSetVerification,
} from '../../api/back-office.ts';
import { useCountries } from '../../api/catalog.ts';
import { errorMessage } from '../../api/error-messages.ts';
import { ConfirmDialog } from '../../components/ConfirmDialog.tsx';
import { localizedCountries } from '../../components/country-names.ts';
import { dateTimeFormatter } from '../../components/date-time.ts';
import { useFormatLocale } from '../../components/format-locale.ts';
import { LoadError } from '../../components/LoadError.tsx';
import { notifications } from '../../components/notifications.ts';
import { useTranslation } from '../../i18n/index.ts';
import { MfaRequiredRedirect } from '../../session/MfaRequiredRedirect.tsx';
import { useSession } from '../../session/use-session.ts';
import { OrganizationTabs } from './OrganizationTabs.tsx';

/** A pending confirmation: a verification to set, or the organization to block or unblock. */
type Pending = { kind: 'verification'; field: Verification; verified: boolean } | { kind: 'blocked'; blocked: boolean };

const STATE_COLOR: Record<VerificationState, string> = {
  verified: 'teal',
  awaitingReview: 'yellow',
  notEntered: 'gray',
};

/** What the merchant has entered, as the record shows it. */
function entriesOfRecord(record: OrganizationAdminRecord): VerificationEntries {
  return {
    bankAccount: record.bankingInfo.length > 0,
    onchainAddress: record.onchainAddress !== null,
    lightningAddress: record.lightningAddress !== null,
    kybDocument: record.kybDocuments.length > 0,
  };
}

function Section({ title, children, action }: { title: string; children: ReactNode; action?: ReactNode }) {
  const id = `section-${title.replace(/\W+/g, '-').toLowerCase()}`;
  return (
    <Paper withBorder radius="md" p="md" component="section" aria-labelledby={id}>
      <Group justify="space-between" mb="sm" wrap="wrap">
        <Title order={2} size="h4" id={id}>
          {title}
        </Title>
        {action}
      </Group>
      {children}
    </Paper>
  );
}

function Field({ label, value }: { label: string; value: ReactNode }) {
  return (
    <Stack gap={0}>
      <Text size="xs" c="dimmed">
        {label}
      </Text>
      <Text size="sm" style={{ overflowWrap: 'anywhere' }}>
        {value}
      </Text>
    </Stack>
  );
}

/** The organization admin record: what it entered, each field's verification, its KYB papers, and blocking. */
export function OrganizationInfosPage() {
  const { id = '' } = useParams();
  const { t } = useTranslation();
  const record = useOrganizationAdminRecord(id);
  return (
    <>
      <MfaRequiredRedirect />
      <OrganizationTabs organizationId={id} active="infos" />
      {record.isError && <LoadError error={record.error} onRetry={() => record.refetch()} />}
      {record.isPending && <Text size="sm">{t('common.loading')}</Text>}
      {record.data && <AdminRecord record={record.data} />}
    </>
  );
}

function AdminRecord({ record }: { record: OrganizationAdminRecord }) {
  const { t } = useTranslation();
  const locale = useFormatLocale();
  const { language } = useSession();
  const countries = useCountries();
  const { organization } = record;
  const verify = useSetVerification(organization.id);
  const block = useSetBlocked(organization.id);
  const [pending, setPending] = useState<Pending | null>(null);
  const [blockReason, setBlockReason] = useState<BlockReason | null>(null);
  const [error, setError] = useState<string | null>(null);
  // Times of this organization are read on its clock, as its own members read them.
  const date = dateTimeFormatter(locale, organization.timeZone);
  const country = localizedCountries(countries.data ?? [], language).find((c) => c.id === organization.countryId);
  const bank = record.bankingInfo[0]?.bankingInfoMetadata;
  const entries = entriesOfRecord(record);
  const notEntered = (
    <Text span size="sm" c="dimmed">
      {t('backOffice.notEntered')}
    </Text>
  );

  const close = () => {
    setPending(null);
    setError(null);
  };
  const confirm = () => {
    if (!pending) return;
    const options = {
      onSuccess: () => {
        notifications.show({ color: 'teal', message: t('backOffice.saved') });
        close();
      },
      onError: (failure: unknown) => setError(errorMessage(t, failure)),
    };
    if (pending.kind === 'verification') verify.mutate({ field: pending.field, verified: pending.verified }, options);
    else if (!pending.blocked) block.mutate({ blocked: false }, options);
    else if (blockReason) block.mutate({ blocked: true, reason: blockReason }, options);
  };
  const fieldName = (field: Verification) => t(`backOffice.fields.${field}`);
  const dialog =
    pending?.kind === 'verification'
      ? {
          title: pending.verified ? t('backOffice.validate') : t('backOffice.invalidate'),
          message: t(pending.verified ? 'backOffice.confirmValidate' : 'backOffice.confirmInvalidate', {
            field: fieldName(pending.field),
            name: organization.name,
          }),
        }
      : pending?.kind === 'blocked'
        ? {
            title: pending.blocked ? t('backOffice.block') : t('backOffice.unblock'),
            message: t(pending.blocked ? 'backOffice.confirmBlock' : 'backOffice.confirmUnblock', {
              name: organization.name,
            }),
          }
        : null;

  return (
    <Stack gap="md">
      {record.blocked && (
        <Alert color="red" icon={<IconBan size={18} />} role="status" data-testid="blocked-banner">
          {t('backOffice.blockedBanner')} {record.blockedReason && t(`backOffice.blockedTold.${record.blockedReason}`)}
        </Alert>
      )}

      <Section
        title={t('backOffice.infos.organization')}
        action={
          record.blocked ? (
            <Button
              variant="light"
              color="teal"
              leftSection={<IconLockOpen size={16} />}
              onClick={() => setPending({ kind: 'blocked', blocked: false })}
            >
              {t('backOffice.unblock')}
            </Button>
          ) : (
            <Button
              variant="light"
              color="red"
              leftSection={<IconLock size={16} />}
              onClick={() => {
                setBlockReason(null);
                setPending({ kind: 'blocked', blocked: true });
              }}
            >
              {t('backOffice.block')}
            </Button>
          )
        }
      >
        <SimpleGrid cols={{ base: 1, xs: 2, md: 3 }} spacing="sm">
          <Field label={t('backOffice.infos.id')} value={organization.id} />
          <Field label={t('backOffice.columns.country')} value={country?.name ?? notEntered} />
          <Field label={t('backOffice.infos.currency')} value={organization.currency} />
          <Field label={t('backOffice.infos.language')} value={t(`language.${organization.language}`)} />
          <Field label={t('backOffice.infos.timeZone')} value={organization.timeZone} />
          <Field label={t('backOffice.infos.created')} value={date(organization.createdAt)} />
        </SimpleGrid>
      </Section>

      <Section title={t('backOffice.infos.verifications')}>
        {/* No scrolling box: on a phone the buttons must stay in sight, so the names wrap instead. */}
        <Table verticalSpacing="xs" data-testid="verifications">
          <Table.Tbody>
            {VERIFICATIONS.map((field) => {
              const state = verificationState(field, record.verifications, entries);
              const verified = state === 'verified';
              return (
                <Table.Tr key={field} data-field={field}>
                  <Table.Td>
                    <Group gap={6}>
                      <Text size="sm">{fieldName(field)}</Text>
                      <Badge color={STATE_COLOR[state]} variant="light" style={{ flexShrink: 0 }}>
                        {t(`backOffice.states.${state}`)}
                      </Badge>
                    </Group>
                  </Table.Td>
                  <Table.Td ta="right">
                    {/* Nothing entered, nothing to validate: the merchant is the one to act. */}
                    {state === 'notEntered' ? (
                      <Text size="xs" c="dimmed">
                        {t('backOffice.waitingForMerchant')}
                      </Text>
                    ) : (
                      <Button
                        size="xs"
                        variant={verified ? 'default' : 'filled'}
                        onClick={() => setPending({ kind: 'verification', field, verified: !verified })}
                        aria-label={`${verified ? t('backOffice.invalidate') : t('backOffice.validate')}: ${fieldName(field)}`}
                      >
                        {verified ? t('backOffice.invalidate') : t('backOffice.validate')}
                      </Button>
                    )}
                  </Table.Td>
                </Table.Tr>
              );
            })}
          </Table.Tbody>
        </Table>
      </Section>

      <SimpleGrid cols={{ base: 1, md: 2 }} spacing="md">
        <Section title={t('backOffice.fields.bank')}>
          {bank ? (
            <SimpleGrid cols={{ base: 1, xs: 2 }} spacing="sm">
              {BANKING_FIELDS.filter((name) => bank[name]).map((name) => (
                <Field
                  key={name}
                  label={t(`payoutDestinations.bank.fields.${name === 'routingNumber' ? 'routingCode' : name}`)}
                  value={bank[name]}
                />
              ))}
            </SimpleGrid>
          ) : (
            notEntered
          )}
          <Text size="xs" c="dimmed" mt="sm">
            {t('backOffice.infos.conversion')}
          </Text>
        </Section>

        <Section title={t('backOffice.infos.payouts')}>
          <Stack gap="sm">
            <Field label={t('backOffice.infos.onchainAddress')} value={record.onchainAddress ?? notEntered} />
            <Field label={t('backOffice.infos.lightningAddress')} value={record.lightningAddress ?? notEntered} />
            <Field
              label={t('backOffice.infos.split')}
              value={t('backOffice.infos.splitValue', {
                fiat: record.payoutSplit.fiatPercent,
                onchain: record.payoutSplit.onchainPercent,
                lightning: record.payoutSplit.lightningPercent,
              })}
            />
          </Stack>
        </Section>
      </SimpleGrid>

      <Section title={t('backOffice.infos.kybDocuments')}>
        {record.kybDocuments.length === 0 ? (
          <Text size="sm" c="dimmed">
            {t('backOffice.infos.noDocuments')}
          </Text>
        ) : (
          <Stack gap="xs" data-testid="kyb-documents">
            {record.kybDocuments.map((document) => (
              <Group key={document.id} justify="space-between" wrap="nowrap">
                <Anchor
                  component="button"
                  type="button"
                  size="sm"
                  style={{ overflowWrap: 'anywhere', textAlign: 'left' }}
                  onClick={() =>
                    downloadOrganizationKybDocument(organization.id, document).catch((failure: unknown) =>
                      notifications.show({ color: 'red', position: 'top-right', message: errorMessage(t, failure) }),
                    )
                  }
                >
                  {document.fileName}
                </Anchor>
                <Text size="xs" c="dimmed" style={{ whiteSpace: 'nowrap' }}>
                  {`${Math.ceil(document.size / 1024).toLocaleString(locale)} KB · ${date(document.createdAt)}`}
                </Text>
              </Group>
            ))}
          </Stack>
        )}
      </Section>

      <Section title={t('backOffice.infos.users')}>
        <Table.ScrollContainer minWidth={420}>
          <Table verticalSpacing="xs">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>{t('backOffice.infos.name')}</Table.Th>
                <Table.Th>{t('backOffice.infos.email')}</Table.Th>
                <Table.Th>{t('backOffice.infos.role')}</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {record.users.map((user) => (
                <Table.Tr key={user.id}>
                  <Table.Td>{user.name}</Table.Td>
                  <Table.Td>{user.email}</Table.Td>
                  <Table.Td>{t(`backOffice.roles.${user.role}`)}</Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      </Section>

      <ConfirmDialog
        opened={dialog !== null}
        title={dialog?.title ?? ''}
        message={dialog?.message ?? ''}
        confirmLabel={t('backOffice.confirm')}
        loading={verify.isPending || block.isPending}
        error={error}
        confirmDisabled={pending?.kind === 'blocked' && pending.blocked && blockReason === null}
        onConfirm={confirm}
        onClose={close}
      >
        {pending?.kind === 'blocked' && pending.blocked && (
          <Radio.Group
            label={t('backOffice.blockReason.label')}
            value={blockReason}
            onChange={(value) => setBlockReason(value as BlockReason)}
          >
            <Stack gap="xs" mt="xs">
              {BLOCK_REASONS.map((reason) => (
                <Radio key={reason} value={reason} label={t(`backOffice.blockReason.${reason}`)} />
              ))}
            </Stack>
          </Radio.Group>
        )}
      </ConfirmDialog>
    </Stack>
  );
}
