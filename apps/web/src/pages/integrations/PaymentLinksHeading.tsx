import { Anchor, Group, Title } from '@mantine/core';
import { IconArrowLeft } from '@tabler/icons-react';
import { Link } from 'react-router';
import { useTranslation } from '../../i18n/index.ts';

/** A payment-link screen's way back and its title, naming whose links they are once that is known. */
export function PaymentLinksHeading({ back, name }: { back: { to: string; label: string }; name: string | undefined }) {
  const { t } = useTranslation();
  return (
    <>
      <Anchor component={Link} to={back.to} size="sm">
        <Group gap={4} component="span">
          <IconArrowLeft size={16} />
          {back.label}
        </Group>
      </Anchor>
      <Title order={1} size="h2" mt="xs" mb="lg" style={{ overflowWrap: 'anywhere' }}>
        {name ? t('paymentLinks.titleOf', { name }) : t('paymentLinks.title')}
      </Title>
    </>
  );
}
