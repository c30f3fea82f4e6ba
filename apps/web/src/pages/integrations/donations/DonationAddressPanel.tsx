import {
  ActionIcon,
  Alert,
  Button,
  Code,
  CopyButton,
  Group,
  Select,
  Stack,
  Text,
  TextInput,
  Title,
  Tooltip,
} from '@mantine/core';
import type { DonationLink } from '@rayo/shared';
import { IconCheck, IconCopy } from '@tabler/icons-react';
import { type FormEvent, useState } from 'react';
import { useDonationAddress, useRemoveDonationAddress, useSetDonationAddress } from '../../../api/donations.ts';
import { errorMessage } from '../../../api/error-messages.ts';
import { LoadError } from '../../../components/LoadError.tsx';
import { notifications } from '../../../components/notifications.ts';
import { useTranslation } from '../../../i18n/index.ts';

/** The organization's Lightning address (LUD-16), `name@host`, paying one donation link. */
export function DonationAddressPanel({ links, canChange }: { links: DonationLink[]; canChange: boolean }) {
  const { t } = useTranslation();
  const current = useDonationAddress();
  const set = useSetDonationAddress();
  const remove = useRemoveDonationAddress();
  const [username, setUsername] = useState<string | null>(null);
  const [linkId, setLinkId] = useState<string | null>(null);
  const address = current.data?.address ?? null;
  const name = username ?? address?.username ?? '';
  const chosenLink = linkId ?? address?.donationLinkId ?? links[0]?.id ?? null;

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!chosenLink) return;
    set.mutate(
      { username: name.trim(), donationLinkId: chosenLink },
      {
        onSuccess: () => {
          setUsername(null);
          setLinkId(null);
          notifications.show({ color: 'teal', message: t('donations.address.saved') });
        },
      },
    );
  };

  return (
    <Stack gap="sm" component="section" aria-labelledby="donation-address">
      <div>
        <Title order={3} size="h5" id="donation-address">
          {t('donations.address.title')}
        </Title>
        <Text size="sm" c="dimmed" mt={4}>
          {t('donations.address.description')}
        </Text>
      </div>
      {current.isError && <LoadError error={current.error} onRetry={() => current.refetch()} />}
      {address ? (
        <Group gap="xs" wrap="nowrap">
          <Code fz="md" style={{ overflowWrap: 'anywhere' }} data-testid="donation-address">
            {address.address}
          </Code>
          <CopyButton value={address.address} timeout={2000}>
            {({ copied, copy }) => (
              <Tooltip label={t(copied ? 'donations.address.copied' : 'donations.address.copy')}>
                <ActionIcon
                  variant="subtle"
                  color={copied ? 'teal' : undefined}
                  onClick={copy}
                  aria-label={t('donations.address.copy')}
                >
                  {copied ? <IconCheck size={18} /> : <IconCopy size={18} />}
                </ActionIcon>
              </Tooltip>
            )}
          </CopyButton>
        </Group>
      ) : (
        current.isSuccess && (
          <Text size="sm" c="dimmed">
            {t('donations.address.none')}
          </Text>
        )
      )}
      {canChange && links.length > 0 && (
        <form onSubmit={submit} noValidate>
          <Stack gap="sm">
            <Group align="flex-start" gap="sm" wrap="wrap">
              <TextInput
                label={t('donations.address.nameLabel')}
                description={t('donations.address.nameHint')}
                value={name}
                maxLength={64}
                onChange={(event) => setUsername(event.currentTarget.value)}
                style={{ flex: '1 1 200px' }}
                autoCapitalize="none"
                spellCheck={false}
              />
              <Select
                label={t('donations.address.linkLabel')}
                data={links.map((link) => ({ value: link.id, label: link.title }))}
                value={chosenLink}
                onChange={setLinkId}
                allowDeselect={false}
                style={{ flex: '1 1 200px' }}
              />
            </Group>
            {(set.isError || remove.isError) && (
              <Alert color="red" role="alert">
                {errorMessage(t, set.error ?? remove.error)}
              </Alert>
            )}
            <Group gap="sm">
              <Button type="submit" loading={set.isPending} disabled={!name.trim()}>
                {t('donations.address.save')}
              </Button>
              {address && (
                <Button variant="default" color="red" loading={remove.isPending} onClick={() => remove.mutate()}>
                  {t('donations.address.remove')}
                </Button>
              )}
            </Group>
          </Stack>
        </form>
      )}
    </Stack>
  );
}
