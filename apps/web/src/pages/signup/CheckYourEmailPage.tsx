import { Anchor, Stack, Text, ThemeIcon } from '@mantine/core';
import { IconMailCheck } from '@tabler/icons-react';
import { Link, useSearchParams } from 'react-router';
import { AuthHeading } from '../../components/AuthHeading.tsx';
import { useTranslation } from '../../i18n/index.ts';

export function CheckYourEmailPage() {
  const { t } = useTranslation();
  const [searchParams] = useSearchParams();
  const email = searchParams.get('email');
  return (
    <Stack gap="md">
      <ThemeIcon size={48} radius="xl" variant="light" aria-hidden>
        <IconMailCheck size={28} />
      </ThemeIcon>
      <AuthHeading
        title={t('pages.checkYourEmail')}
        subtitle={email ? t('checkEmail.sentTo', { email }) : t('checkEmail.sent')}
      />
      <Text size="sm">{t('checkEmail.next')}</Text>
      <Text size="sm" c="dimmed">
        {t('checkEmail.noMail')}{' '}
        <Anchor component={Link} to="/signup">
          {t('checkEmail.again')}
        </Anchor>
      </Text>
      <Anchor component={Link} to="/login" size="sm">
        {t('checkEmail.toLogin')}
      </Anchor>
    </Stack>
  );
}
