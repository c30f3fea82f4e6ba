import { Alert, Loader, Stack, Text, Title } from '@mantine/core';
import type { DonationInvoice, PublicDonationLink } from '@rayo/shared';
import { useDeferredValue, useState } from 'react';
import { useParams } from 'react-router';
import { ApiError } from '../../api/client.ts';
import { usePublicDonationLink } from '../../api/donations.ts';
import { publicErrorMessage } from '../../api/error-messages.ts';
import { BrandedPanel } from '../../components/BrandedPanel.tsx';
import { BrandedTitle } from '../../components/BrandedTitle.tsx';
import { useTranslation } from '../../i18n/index.ts';
import { useOrganizationLanguage } from '../../session/use-organization-language.ts';
import { DonationEntry } from './DonationEntry.tsx';
import { DonationInvoicePanel, DonationThanks } from './DonationInvoicePanel.tsx';

type Stage =
  | { name: 'entry' }
  | { name: 'invoice'; invoice: DonationInvoice }
  | { name: 'paid'; invoice: DonationInvoice }
  | { name: 'expired' };

function Donation({ link }: { link: PublicDonationLink }) {
  const { t } = useTranslation();
  const [stage, setStage] = useState<Stage>({ name: 'entry' });
  const accent = link.merchant.accentColor;
  return (
    <BrandedPanel accent={accent} data-testid="donation-panel">
      <Stack gap="md">
        <div>
          <Title order={2} size="h3" style={{ overflowWrap: 'anywhere' }}>
            {link.title}
          </Title>
          {link.description && (
            <Text c="dimmed" mt={4} style={{ overflowWrap: 'anywhere' }}>
              {link.description}
            </Text>
          )}
        </div>
        {stage.name === 'entry' && (
          <DonationEntry link={link} onInvoice={(invoice) => setStage({ name: 'invoice', invoice })} />
        )}
        {stage.name === 'invoice' && (
          <DonationInvoicePanel
            invoice={stage.invoice}
            onPaid={() => setStage({ name: 'paid', invoice: stage.invoice })}
            onExpired={() => setStage({ name: 'expired' })}
            onBack={() => setStage({ name: 'entry' })}
          />
        )}
        {stage.name === 'paid' && (
          <DonationThanks
            invoice={stage.invoice}
            merchant={link.merchant.name}
            accent={accent}
            onAgain={() => setStage({ name: 'entry' })}
          />
        )}
        {stage.name === 'expired' && (
          <Alert color="yellow" title={t('donations.page.expired')}>
            <Stack gap="xs" align="flex-start">
              <Text size="sm">{t('donations.page.expiredText')}</Text>
              <Text
                component="button"
                type="button"
                c="blue"
                size="sm"
                style={{ background: 'none', border: 0, padding: 0, cursor: 'pointer' }}
                onClick={() => setStage({ name: 'entry' })}
              >
                {t('donations.page.tryAgain')}
              </Text>
            </Stack>
          </Alert>
        )}
      </Stack>
    </BrandedPanel>
  );
}

/** `/donation/:id` (SPEC §2): anyone donates to the link, by scanning its LNURL or typing an amount. */
export function DonationPage() {
  const { t } = useTranslation();
  const { id = '' } = useParams();
  const link = usePublicDonationLink(id);
  useOrganizationLanguage(link.data?.language);
  const notFound = link.error instanceof ApiError && (link.error.status === 404 || link.error.status === 400);
  // Drawn in a transition, in slices, rather than in one long task as the answer lands (CheckoutPage).
  const shown = useDeferredValue(link.data);
  return (
    <Stack maw={480} w="100%" mx="auto" gap="md">
      <BrandedTitle
        name={shown?.merchant.name ?? t('pages.donation')}
        branding={shown?.merchant}
        logoTestId="donation-logo"
      />
      {!shown && !link.isError && <Loader aria-label={t('common.loading')} />}
      {link.isError && (
        <Alert color="red" role="alert">
          {notFound ? t('donations.page.notFound') : publicErrorMessage(t, link.error)}
        </Alert>
      )}
      {shown && <Donation link={shown} />}
    </Stack>
  );
}
