import { Stack, Title } from '@mantine/core';
import { useTranslation } from '../../i18n/index.ts';
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

/** Settings of the signed-in user, one section per subject (SPEC §2). */
export function SettingsPage() {
  const { t } = useTranslation();
  return (
    <>
      <Title order={1} size="h2" mb="lg">
        {t('nav.settings')}
      </Title>
      <Stack gap="lg">
        <PasswordSection />
        <LanguageSection />
        <MfaSection />
        <BankAccountSection />
        <OnchainAddressSection />
        <LightningAddressSection />
        <PaymentSplitSection />
        <PayoutHistorySection />
        <BrandingSection />
        <KybSection />
        <DeveloperTokenSection />
        <CheckoutProtectionSection />
      </Stack>
    </>
  );
}
