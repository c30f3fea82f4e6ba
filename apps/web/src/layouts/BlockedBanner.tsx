import { Alert, Anchor, Text } from '@mantine/core';
import { isOrganizationMember } from '@rayo/shared';
import { IconBan } from '@tabler/icons-react';
import { Link } from 'react-router';
import { usePublicConfig } from '../api/catalog.ts';
import { useCurrentOrganization } from '../api/dashboard.ts';
import { useTranslation } from '../i18n/index.ts';
import { useSession } from '../session/use-session.ts';

/**
 * On every signed-in screen of a blocked organization: that it cannot take payments, why as far
 * as its members are told (SPEC §8's words when information is missing in Settings), and whom to
 * write to.
 */
export function BlockedBanner() {
  const { t } = useTranslation();
  const { role } = useSession();
  const organization = useCurrentOrganization({ enabled: isOrganizationMember(role) });
  const email = usePublicConfig().data?.supportEmail ?? '';
  const reason = organization.data?.blockedReason;
  if (!reason) return null;
  const missingInfo = reason === 'missing_info';
  return (
    <Alert
      color="red"
      variant="filled"
      icon={<IconBan size={18} />}
      title={t(missingInfo ? 'errors.organizationDisabled' : 'blocked.title')}
      mb="lg"
      data-testid="organization-blocked"
    >
      <Text size="sm">
        {t(missingInfo ? 'blocked.missingInfo' : 'blocked.other', { email })}{' '}
        {missingInfo && (
          <Anchor component={Link} to="/settings" c="white" fw={600} underline="always" size="sm">
            {t('blocked.toSettings')}
          </Anchor>
        )}
      </Text>
    </Alert>
  );
}
