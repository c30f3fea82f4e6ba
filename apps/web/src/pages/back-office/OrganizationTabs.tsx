import { Tabs, Title } from '@mantine/core';
import { useNavigate } from 'react-router';
import { useOrganizationAdminRecord } from '../../api/back-office.ts';
import { useTranslation } from '../../i18n/index.ts';

type OrganizationTab = 'infos' | 'transactions';

/** The heading of an organization's back-office screens: its name, then the tabs between them. */
export function OrganizationTabs({ organizationId, active }: { organizationId: string; active: OrganizationTab }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const record = useOrganizationAdminRecord(organizationId);
  const path = (tab: OrganizationTab) => `/back-office/${encodeURIComponent(organizationId)}/${tab}`;
  return (
    <>
      <Title order={1} size="h2" mb="md">
        {record.data?.organization.name ?? t('nav.back-office')}
      </Title>
      <Tabs
        value={active}
        onChange={(tab) => {
          if (tab) void navigate(path(tab as OrganizationTab));
        }}
        mb="lg"
      >
        <Tabs.List aria-label={t('backOffice.organizationTabs')}>
          <Tabs.Tab value="infos">{t('backOffice.tabs.infos')}</Tabs.Tab>
          <Tabs.Tab value="transactions">{t('backOffice.tabs.transactions')}</Tabs.Tab>
        </Tabs.List>
      </Tabs>
    </>
  );
}
