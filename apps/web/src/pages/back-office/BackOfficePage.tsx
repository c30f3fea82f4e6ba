import { Select, Stack, Tabs } from '@mantine/core';
import { ALL_COUNTRIES_ID } from '@rayo/shared';
import { Navigate, useNavigate, useParams, useSearchParams } from 'react-router';
import { useCountries } from '../../api/catalog.ts';
import { localizedCountries } from '../../components/country-names.ts';
import { ScreenTitle } from '../../components/ScreenTitle.tsx';
import { useTranslation } from '../../i18n/index.ts';
import { MfaRequiredRedirect } from '../../session/MfaRequiredRedirect.tsx';
import { useSession } from '../../session/use-session.ts';
import { AuditPanel } from './AuditPanel.tsx';
import { CountryReportPanel } from './CountryReportPanel.tsx';
import { NotificationsPanel } from './NotificationsPanel.tsx';
import { OnchainBatchesPanel } from './OnchainBatchesPanel.tsx';
import { OnchainWalletPanel } from './OnchainWalletPanel.tsx';
import { OrganizationsPanel } from './OrganizationsPanel.tsx';

/** The back office's tabs, each at its own address (`/back-office/reports`); `/back-office` opens the first. */
const sections = ['organizations', 'reports', 'notifications', 'audit', 'onchain'] as const;
type Section = (typeof sections)[number];

function sectionPath(section: Section): string {
  return section === sections[0] ? '/back-office' : `/back-office/${section}`;
}

export function BackOfficePage() {
  const { t } = useTranslation();
  const { language } = useSession();
  const countries = useCountries();
  const navigate = useNavigate();
  const { section: sectionParam } = useParams();
  // The country filter is in the address too, so a reload keeps the organizations or reports shown.
  const [search, setSearch] = useSearchParams();
  const country = search.get('country') ?? String(ALL_COUNTRIES_ID);
  const setCountry = (value: string) => {
    const next = new URLSearchParams(search);
    if (value === String(ALL_COUNTRIES_ID)) next.delete('country');
    else next.set('country', value);
    setSearch(next, { replace: true });
  };
  const section: Section = sectionParam === undefined ? sections[0] : (sectionParam as Section);
  const localized = localizedCountries(countries.data ?? [], language);
  const names = new Map(localized.map((c) => [c.id, c.name]));
  const countryName = (id: number | null) => (id === null ? '' : (names.get(id) ?? ''));
  // SPEC §3: a synthetic 'All Countries' entry comes first.
  const options = [
    { value: String(ALL_COUNTRIES_ID), label: t('backOffice.allCountries') },
    ...localized.map((c) => ({ value: String(c.id), label: c.name })),
  ];
  const countryId = Number(country);
  // The country filter applies to the organizations and their reports, not to notices or the log.
  const byCountry = section === 'organizations' || section === 'reports';
  if (sectionParam !== undefined && (!sections.includes(sectionParam as Section) || sectionParam === sections[0])) {
    return <Navigate to="/back-office" replace />;
  }
  return (
    <>
      <MfaRequiredRedirect />
      <ScreenTitle titleKey="nav.back-office" />
      <Tabs
        value={section}
        onChange={(value) => {
          if (value) void navigate({ pathname: sectionPath(value as Section), search: search.toString() });
        }}
        keepMounted={false}
      >
        <Tabs.List mb="md">
          <Tabs.Tab value="organizations">{t('backOffice.sections.organizations')}</Tabs.Tab>
          <Tabs.Tab value="reports">{t('backOffice.sections.reports')}</Tabs.Tab>
          <Tabs.Tab value="notifications">{t('backOffice.sections.notifications')}</Tabs.Tab>
          <Tabs.Tab value="audit">{t('backOffice.sections.audit')}</Tabs.Tab>
          <Tabs.Tab value="onchain">{t('backOffice.sections.onchain')}</Tabs.Tab>
        </Tabs.List>
        <Stack gap="md">
          {byCountry && (
            <Select
              label={t('backOffice.country')}
              data={options}
              value={country}
              onChange={(value) => setCountry(value ?? String(ALL_COUNTRIES_ID))}
              allowDeselect={false}
              searchable
              maw={320}
            />
          )}
          <Tabs.Panel value="organizations">
            <OrganizationsPanel key={country} countryId={countryId} countryName={countryName} />
          </Tabs.Panel>
          <Tabs.Panel value="reports">
            <CountryReportPanel countryId={countryId} />
          </Tabs.Panel>
          <Tabs.Panel value="notifications">
            <NotificationsPanel />
          </Tabs.Panel>
          <Tabs.Panel value="audit">
            <AuditPanel />
          </Tabs.Panel>
          <Tabs.Panel value="onchain">
            <Stack gap="lg">
              <OnchainWalletPanel />
              <OnchainBatchesPanel />
            </Stack>
          </Tabs.Panel>
        </Stack>
      </Tabs>
    </>
  );
}
