import {
  Alert,
  Button,
  Code,
  Group,
  Paper,
  Radio,
  Stack,
  Table,
  Text,
  TextInput,
  Title,
  VisuallyHidden,
} from '@mantine/core';
import {
  type CreatedDeveloperToken,
  canChangeOrganization,
  DEVELOPER_TOKEN_LIMIT,
  DEVELOPER_TOKEN_SCOPES,
  type DeveloperToken,
  type DeveloperTokenScope,
} from '@rayo/shared';
import { type FormEvent, useState } from 'react';
import { useCreateDeveloperToken, useDeveloperTokens, useRevokeDeveloperToken } from '../../api/developer-tokens.ts';
import { errorMessage } from '../../api/error-messages.ts';
import { useMfaStatus } from '../../api/mfa.ts';
import { ConfirmDialog } from '../../components/ConfirmDialog.tsx';
import { useDateTimeFormat } from '../../components/date-time.ts';
import { LoadError } from '../../components/LoadError.tsx';
import { notifications } from '../../components/notifications.ts';
import { SecretShownOnceModal } from '../../components/SecretShownOnceModal.tsx';
import { useTranslation } from '../../i18n/index.ts';
import { useSession } from '../../session/use-session.ts';
import { MfaCodeModal } from './MfaCodeModal.tsx';

/**
 * Settings → developer token (SPEC §2, §9): admins create tokens for their own programs, each
 * with what it may do (store checkouts by default, the narrowest), see each once, and revoke
 * them. Managers get no section: the tokens act as an admin.
 */
export function DeveloperTokenSection() {
  const { role } = useSession();
  return canChangeOrganization(role) ? <DeveloperTokens /> : null;
}

function DeveloperTokens() {
  const { t } = useTranslation();
  const tokens = useDeveloperTokens(true);
  const hasMfa = useMfaStatus().data?.hasMfa ?? false;
  const create = useCreateDeveloperToken();
  const [name, setName] = useState('');
  const [scope, setScope] = useState<DeveloperTokenScope>('checkouts');
  const [askingForCode, setAskingForCode] = useState(false);
  const [created, setCreated] = useState<CreatedDeveloperToken | null>(null);

  const send = (mfaCode?: string) => {
    setAskingForCode(false);
    create.mutate(
      { name: name.trim() || undefined, scope, mfaCode },
      {
        onSuccess: (token) => {
          setName('');
          setScope('checkouts');
          setCreated(token);
        },
      },
    );
  };

  const submit = (event: FormEvent) => {
    event.preventDefault();
    create.reset();
    if (hasMfa) setAskingForCode(true);
    else send();
  };

  return (
    <Paper withBorder p={{ base: 'md', sm: 'xl' }} maw={720} component="section" aria-labelledby="settings-developer">
      <Stack gap="md">
        <div>
          <Title order={2} size="h4" id="settings-developer">
            {t('settings.developerTokens.title')}
          </Title>
          <Text c="dimmed" size="sm" mt={4}>
            {t('settings.developerTokens.description')}
          </Text>
          <Text c="dimmed" size="sm" mt={4}>
            {t('settings.developerTokens.usage')} <Code>POST /api/auth/refresh-access-token</Code>
          </Text>
        </div>
        {tokens.isError ? (
          <LoadError error={tokens.error} onRetry={() => tokens.refetch()} />
        ) : (
          <TokenList tokens={tokens.data ?? []} loading={tokens.isPending} />
        )}
        <form onSubmit={submit} noValidate>
          <Radio.Group
            label={t('settings.developerTokens.scopeLabel')}
            value={scope}
            onChange={(value) => setScope(value as DeveloperTokenScope)}
            mb="sm"
          >
            <Stack gap="xs" mt="xs">
              {DEVELOPER_TOKEN_SCOPES.map((option) => (
                <Radio
                  key={option}
                  value={option}
                  label={t(`settings.developerTokens.scopes.${option}`)}
                  description={t(`settings.developerTokens.scopeHelp.${option}`)}
                />
              ))}
            </Stack>
          </Radio.Group>
          <Group align="flex-end" gap="sm">
            <TextInput
              label={t('settings.developerTokens.nameLabel')}
              placeholder={t('settings.developerTokens.namePlaceholder')}
              value={name}
              maxLength={100}
              onChange={(event) => setName(event.currentTarget.value)}
              style={{ flex: '1 1 220px' }}
            />
            <Button type="submit" loading={create.isPending}>
              {t('settings.developerTokens.create')}
            </Button>
          </Group>
        </form>
        <Text size="xs" c="dimmed">
          {t('settings.developerTokens.limit', { limit: DEVELOPER_TOKEN_LIMIT })}
        </Text>
        {create.isError && (
          <Alert color="red" variant="light" role="alert" title={t('errors.tokenFailed')}>
            {errorMessage(t, create.error)}
          </Alert>
        )}
      </Stack>
      {askingForCode && (
        <MfaCodeModal
          title={t('settings.developerTokens.mfaTitle')}
          submitLabel={t('settings.developerTokens.create')}
          loading={create.isPending}
          onSubmit={send}
          onClose={() => setAskingForCode(false)}
        />
      )}
      {created && (
        // The only time the token is shown: the server keeps just its hash.
        <SecretShownOnceModal
          title={t('settings.developerTokens.createdTitle')}
          help={t('settings.developerTokens.createdHelp')}
          secret={created.token}
          testId="developer-token"
          doneLabel={t('settings.developerTokens.done')}
          onClose={() => setCreated(null)}
        />
      )}
    </Paper>
  );
}

function TokenList({ tokens, loading }: { tokens: DeveloperToken[]; loading: boolean }) {
  const { t } = useTranslation();
  const revoke = useRevokeDeveloperToken();
  const [revoking, setRevoking] = useState<DeveloperToken | null>(null);
  const date = useDateTimeFormat();
  const labelOf = (token: DeveloperToken) => token.name ?? t('settings.developerTokens.unnamed');

  if (loading) return <Text size="sm">{t('common.loading')}</Text>;
  if (tokens.length === 0) {
    return (
      <Text size="sm" c="dimmed">
        {t('settings.developerTokens.empty')}
      </Text>
    );
  }
  const confirmRevoke = () => {
    if (!revoking) return;
    revoke.mutate(revoking.id, {
      onSuccess: () => {
        setRevoking(null);
        notifications.show({ color: 'teal', message: t('settings.developerTokens.revoked') });
      },
    });
  };
  return (
    <>
      <Table.ScrollContainer minWidth={280}>
        <Table verticalSpacing="xs">
          <Table.Thead>
            <Table.Tr>
              <Table.Th>{t('settings.developerTokens.name')}</Table.Th>
              {/* On a phone the access goes under the name and the creation date gives way, so that revoking stays in reach. */}
              <Table.Th visibleFrom="sm">{t('settings.developerTokens.scope')}</Table.Th>
              <Table.Th visibleFrom="xs">{t('settings.developerTokens.created')}</Table.Th>
              <Table.Th>{t('settings.developerTokens.lastUsed')}</Table.Th>
              <Table.Th>
                <VisuallyHidden>{t('common.actions')}</VisuallyHidden>
              </Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {tokens.map((token) => (
              <Table.Tr key={token.id}>
                <Table.Td>
                  <div>{labelOf(token)}</div>
                  <Text size="xs" c="dimmed" hiddenFrom="sm">
                    {t(`settings.developerTokens.scopes.${token.scope}`)}
                  </Text>
                </Table.Td>
                <Table.Td visibleFrom="sm">{t(`settings.developerTokens.scopes.${token.scope}`)}</Table.Td>
                <Table.Td visibleFrom="xs">{date(token.createdAt)}</Table.Td>
                <Table.Td>{token.lastUsedAt ? date(token.lastUsedAt) : t('settings.developerTokens.never')}</Table.Td>
                <Table.Td ta="right">
                  <Button
                    size="xs"
                    variant="subtle"
                    color="red"
                    aria-label={t('settings.developerTokens.revokeLabel', { name: labelOf(token) })}
                    onClick={() => {
                      revoke.reset();
                      setRevoking(token);
                    }}
                  >
                    {t('settings.developerTokens.revoke')}
                  </Button>
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>
      <ConfirmDialog
        opened={revoking !== null}
        title={t('settings.developerTokens.revokeTitle')}
        message={t('settings.developerTokens.revokeText', { name: revoking ? labelOf(revoking) : '' })}
        confirmLabel={t('settings.developerTokens.revoke')}
        loading={revoke.isPending}
        error={revoke.isError ? errorMessage(t, revoke.error) : null}
        onConfirm={confirmRevoke}
        onClose={() => setRevoking(null)}
      />
    </>
  );
}
