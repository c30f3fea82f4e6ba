import { Button, Group, Stack, Title } from '@mantine/core';
import type { ReactNode } from 'react';
import { Link, Navigate, useParams } from 'react-router';
import { useTranslation } from '../../i18n/index.ts';
import { useSession } from '../../session/use-session.ts';
import { BankAccountSection } from './BankAccountSection.tsx';
import { BrandingSection } from './BrandingSection.tsx';
import { CheckoutProtectionSection } from './CheckoutProtectionSection.tsx';
import { DeveloperTokenSection } from './DeveloperTokenSection.tsx';
import { KybSection } from './KybSection.tsx';
import { LanguageSection } from './LanguageSection.tsx';
import { LightningAddressSection } from './LightningAddressSection.tsx';
import { MfaSection } from './MfaSection.tsx';
import { OnchainAddressSection } from './OnchainAddressSection.tsx';
import { PasswordSection } from './PasswordSection.tsx';
import { PaymentSplitSection } from './PaymentSplitSection.tsx';
import { PayoutHistorySection } from './PayoutHistorySection.tsx';
import { type SettingsSection, settingsPath, settingsSections, settingsSectionsOf } from './settings-sections.ts';

/** What each section shows: SPEC §2's Settings subjects, grouped by what a merchant comes to do. */
const sectionContent: Record<SettingsSection, () => ReactNode> = {
  profile: () => (
    <>
      <PasswordSection />
      <LanguageSection />
    </>
  ),
  security: () => <MfaSection />,
  payouts: () => (
    <>
      <BankAccountSection />
      <OnchainAddressSection />
      <LightningAddressSection />
      <PaymentSplitSection />
      <PayoutHistorySection />
    </>
  ),
  verification: () => <KybSection />,
  branding: () => <BrandingSection />,
  developers: () => (
    <>
      <DeveloperTokenSection />
      <CheckoutProtectionSection />
    </>
  ),
};

/**
 * Settings of the signed-in user (SPEC §2): the sections of the user's role (back office's are
 * only about the person), one at a time at its own address, so that a reload or a shared link
 * opens the same section: a side list on wide screens, a row of links
 * above the section on phones. The links are buttons, which every screen already loads, rather
 * than NavLinks, which would split the sidebar's code out of home's chunks.
 */
export function SettingsPage() {
  const { t } = useTranslation();
  const { section } = useParams();
  const sections = settingsSectionsOf(useSession().role);
  const opened = sections.find((id) => id === section);
  if (section !== undefined && (opened === undefined || opened === settingsSections[0])) {
    return <Navigate to="/settings" replace />;
  }
  const active: SettingsSection = opened ?? settingsSections[0];
  const links = sections.map((id) => (
    <Button
      key={id}
      component={Link}
      to={settingsPath(id)}
      variant={id === active ? 'light' : 'subtle'}
      color={id === active ? undefined : 'gray'}
      justify="flex-start"
      aria-current={id === active ? 'page' : undefined}
    >
      {t(`settings.sections.${id}`)}
    </Button>
  ));
  return (
    <>
      <Title order={1} size="h2" mb="lg">
        {t('nav.settings')}
      </Title>
      <Group component="nav" aria-label={t('settings.sections.label')} hiddenFrom="md" gap={4} mb="lg">
        {links}
      </Group>
      <Group align="flex-start" gap="xl" wrap="nowrap">
        <Stack component="nav" aria-label={t('settings.sections.label')} visibleFrom="md" w={200} gap={4}>
          {links}
        </Stack>
        <Stack gap="lg" style={{ flex: 1, minWidth: 0 }} data-testid="settings-section">
          {sectionContent[active]()}
        </Stack>
      </Group>
    </>
  );
}
