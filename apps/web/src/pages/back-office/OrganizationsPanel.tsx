import {
  Badge,
  Card,
  Group,
  SegmentedControl,
  SimpleGrid,
  Stack,
  Table,
  Text,
  TextInput,
  UnstyledButton,
} from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import type { BackOfficeOrganizationRow } from '@rayo/shared';
import { IconSearch } from '@tabler/icons-react';
import { useState } from 'react';
import { Link } from 'react-router';
import { useBackOfficeOrganizations } from '../../api/back-office.ts';
import { useDateTimeFormat } from '../../components/date-time.ts';
import { useFormatLocale } from '../../components/format-locale.ts';
import { formatDecimalMoney } from '../../components/money-format.ts';
import { PagedList } from '../../components/PagedList.tsx';
import { useTranslation } from '../../i18n/index.ts';

const PAGE_SIZE = 10;

type View = 'table' | 'dashboard';

/** What waits for back office's review, apart from what the merchant has not entered yet. */
function VerificationBadge({ organization }: { organization: BackOfficeOrganizationRow }) {
  const { t } = useTranslation();
  const { verificationsToReview: toReview, verificationsNotEntered: notEntered } = organization;
  if (toReview === 0 && notEntered === 0) {
    return (
      <Badge color="teal" variant="light">
        {t('backOffice.allVerified')}
      </Badge>
    );
  }
  return (
    <Group gap={4} wrap="wrap">
      {toReview > 0 && (
        <Badge color="yellow" variant="light">
          {t('backOffice.toReview', { count: toReview })}
        </Badge>
      )}
      {notEntered > 0 && (
        <Badge color="gray" variant="light">
          {t('backOffice.notEnteredCount', { count: notEntered })}
        </Badge>
      )}
    </Group>
  );
}

function BlockedBadge({ organization }: { organization: BackOfficeOrganizationRow }) {
  const { t } = useTranslation();
  return organization.blocked ? (
    <Badge color="red" variant="filled">
      {t('backOffice.blocked')}
    </Badge>
  ) : null;
}

function infosPath(organization: BackOfficeOrganizationRow): string {
  return `/back-office/${organization.id}/infos`;
}

/** Every organization of the chosen country, by name: a table, or a card each with what waits on back office. */
export function OrganizationsPanel({
  countryId,
  countryName,
}: {
  countryId: number;
  countryName: (id: number | null) => string;
}) {
  const { t } = useTranslation();
  const locale = useFormatLocale();
  const [search, setSearch] = useState('');
  const [debounced] = useDebouncedValue(search.trim(), 300);
  const [view, setView] = useState<View>('table');
  const [page, setPage] = useState(1);
  const list = useBackOfficeOrganizations({ search: debounced, country: countryId, page, limit: PAGE_SIZE });
  const date = useDateTimeFormat('date');
  const money = (organization: BackOfficeOrganizationRow) =>
    formatDecimalMoney(organization.pendingFiat, organization.currency, locale);

  return (
    <Stack gap="md">
      <Group align="flex-end" justify="space-between">
        <TextInput
          label={t('backOffice.search')}
          placeholder={t('backOffice.searchPlaceholder')}
          leftSection={<IconSearch size={16} />}
          value={search}
          onChange={(event) => {
            setSearch(event.currentTarget.value);
            setPage(1);
          }}
          w={{ base: '100%', xs: 320 }}
        />
        <SegmentedControl
          aria-label={t('backOffice.view.label')}
          value={view}
          onChange={(value) => setView(value as View)}
          data={[
            { value: 'table', label: t('backOffice.view.table') },
            { value: 'dashboard', label: t('backOffice.view.dashboard') },
          ]}
        />
      </Group>
      <PagedList query={list} pageSize={PAGE_SIZE} page={page} onPage={setPage} empty={t('backOffice.noOrganizations')}>
        {(data) =>
          view === 'table' ? (
            <Table.ScrollContainer minWidth={760}>
              <Table verticalSpacing="xs" highlightOnHover data-testid="back-office-organizations">
                <Table.Thead>
                  <Table.Tr>
                    <Table.Th>{t('backOffice.columns.name')}</Table.Th>
                    <Table.Th>{t('backOffice.columns.country')}</Table.Th>
                    <Table.Th>{t('backOffice.columns.created')}</Table.Th>
                    <Table.Th>{t('backOffice.columns.verification')}</Table.Th>
                    <Table.Th ta="right">{t('backOffice.columns.transactions')}</Table.Th>
                    <Table.Th ta="right">{t('backOffice.columns.unpaidFiat')}</Table.Th>
                    <Table.Th ta="right">{t('backOffice.columns.pendingFiat')}</Table.Th>
                  </Table.Tr>
                </Table.Thead>
                <Table.Tbody>
                  {data.organizations.map((organization) => (
                    <Table.Tr key={organization.id}>
                      <Table.Td>
                        <Group gap="xs" wrap="nowrap">
                          <Link to={infosPath(organization)}>{organization.name}</Link>
                          <BlockedBadge organization={organization} />
                        </Group>
                      </Table.Td>
                      <Table.Td>{countryName(organization.countryId)}</Table.Td>
                      <Table.Td style={{ whiteSpace: 'nowrap' }}>{date(organization.createdAt)}</Table.Td>
                      <Table.Td>
                        <VerificationBadge organization={organization} />
                      </Table.Td>
                      <Table.Td ta="right">{organization.transactionsCount.toLocaleString(locale)}</Table.Td>
                      <Table.Td ta="right">{organization.unpaidFiatCount.toLocaleString(locale)}</Table.Td>
                      <Table.Td ta="right" style={{ whiteSpace: 'nowrap' }}>
                        {money(organization)}
                      </Table.Td>
                    </Table.Tr>
                  ))}
                </Table.Tbody>
              </Table>
            </Table.ScrollContainer>
          ) : (
            <SimpleGrid cols={{ base: 1, sm: 2, lg: 3 }} data-testid="back-office-organization-cards">
              {data.organizations.map((organization) => (
                <UnstyledButton key={organization.id} component={Link} to={infosPath(organization)}>
                  <Card withBorder padding="md" h="100%">
                    <Stack gap="xs">
                      <Group justify="space-between" wrap="nowrap" align="flex-start">
                        <Text fw={600} lineClamp={2}>
                          {organization.name}
                        </Text>
                        <BlockedBadge organization={organization} />
                      </Group>
                      <Text size="xs" c="dimmed">
                        {countryName(organization.countryId)} · {date(organization.createdAt)}
                      </Text>
                      <VerificationBadge organization={organization} />
                      <SimpleGrid cols={2} spacing="xs">
                        <Stat
                          label={t('backOffice.columns.transactions')}
                          value={organization.transactionsCount.toLocaleString(locale)}
                        />
                        <Stat
                          label={t('backOffice.columns.unpaidFiat')}
                          value={organization.unpaidFiatCount.toLocaleString(locale)}
                        />
                      </SimpleGrid>
                      <Stat label={t('backOffice.columns.pendingFiat')} value={money(organization)} />
                    </Stack>
                  </Card>
                </UnstyledButton>
              ))}
            </SimpleGrid>
          )
        }
      </PagedList>
    </Stack>
  );
}

function Stat({ label, value }: { label: string; value: string }) {
  return (
    <Stack gap={0}>
      <Text size="xs" c="dimmed">
        {label}
      </Text>
      <Text size="sm" fw={600} style={{ overflowWrap: 'anywhere' }}>
        {value}
      </Text>
    </Stack>
  );
}
