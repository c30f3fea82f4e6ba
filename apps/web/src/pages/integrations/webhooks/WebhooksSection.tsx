import { Alert, Badge, Button, Checkbox, Code, Group, Paper, Stack, Text, TextInput, Title } from '@mantine/core';
import {
  type CreatedWebhookEndpoint,
  canChangeOrganization,
  WEBHOOK_EVENT_TYPES,
  type WebhookEndpoint,
  type WebhookEventType,
} from '@rayo/shared';
import { type FormEvent, useState } from 'react';
import { ApiError } from '../../../api/client.ts';
import { errorMessage } from '../../../api/error-messages.ts';
import {
  useCreateWebhookEndpoint,
  useDeleteWebhookEndpoint,
  useSendTestWebhook,
  useWebhookEndpoints,
} from '../../../api/webhooks.ts';
import { ConfirmDialog } from '../../../components/ConfirmDialog.tsx';
import { LoadError } from '../../../components/LoadError.tsx';
import { notifications } from '../../../components/notifications.ts';
import { SecretShownOnceModal } from '../../../components/SecretShownOnceModal.tsx';
import { useTranslation } from '../../../i18n/index.ts';
import { useSession } from '../../../session/use-session.ts';
import { MfaCodeModal } from '../../settings/MfaCodeModal.tsx';
import { WebhookDeliveryLog } from './WebhookDeliveryLog.tsx';

/**
 * Integrations → webhooks (docs/api.md "Webhooks"): where the organization's events are POSTed,
 * signed, and how each delivery went. Admins add, test and delete endpoints and redeliver;
 * managers only look.
 */
export function WebhooksSection() {
  const { t } = useTranslation();
  const { role } = useSession();
  const admin = canChangeOrganization(role);
  const endpoints = useWebhookEndpoints();
  return (
    <Paper withBorder p={{ base: 'md', sm: 'xl' }} component="section" aria-labelledby="integrations-webhooks">
      <Stack gap="md">
        <div>
          <Title order={2} size="h4" id="integrations-webhooks">
            {t('webhooks.title')}
          </Title>
          <Text c="dimmed" size="sm" mt={4}>
            {t('webhooks.description')}
          </Text>
        </div>
        {endpoints.isError ? (
          <LoadError error={endpoints.error} onRetry={() => endpoints.refetch()} />
        ) : (
          <EndpointList endpoints={endpoints.data ?? []} loading={endpoints.isPending} admin={admin} />
        )}
        {admin && <AddEndpointForm />}
        <WebhookDeliveryLog admin={admin} />
      </Stack>
    </Paper>
  );
}

/** Refusals of the code itself, answered in the dialog that asked for it. */
const CODE_REFUSALS = new Set(['WrongMfaCode', 'MfaCodeReused']);

function AddEndpointForm() {
  const { t } = useTranslation();
  const create = useCreateWebhookEndpoint();
  const [url, setUrl] = useState('');
  const [events, setEvents] = useState<string[]>(['checkout.paid']);
  const [askingForCode, setAskingForCode] = useState(false);
  const [created, setCreated] = useState<CreatedWebhookEndpoint | null>(null);
  const [invalid, setInvalid] = useState<string | null>(null);
  const refusal = create.error instanceof ApiError ? create.error.code : create.isError ? 'Default' : null;
  const codeRefused = refusal !== null && CODE_REFUSALS.has(refusal);

  // Sent first without a code: the server checks the URL and everything else before it asks for
  // one (MissingMfaCode), so a wrong URL is told before any code is typed.
  const send = (mfaCode?: string) => {
    create.mutate(
      { url: url.trim(), events: events as WebhookEventType[], mfaCode },
      {
        onSuccess: (endpoint) => {
          setAskingForCode(false);
          setUrl('');
          setCreated(endpoint);
        },
        onError: (error) => {
          const code = error instanceof ApiError ? error.code : 'Default';
          setAskingForCode(code === 'MissingMfaCode' || CODE_REFUSALS.has(code));
        },
      },
    );
  };

  const submit = (event: FormEvent) => {
    event.preventDefault();
    create.reset();
    if (!url.trim()) return setInvalid(t('webhooks.form.urlRequired'));
    if (events.length === 0) return setInvalid(t('webhooks.form.eventsRequired'));
    setInvalid(null);
    send();
  };

  return (
    <>
      <form onSubmit={submit} noValidate aria-labelledby="webhooks-add">
        <Stack gap="sm">
          <Title order={3} size="h5" id="webhooks-add">
            {t('webhooks.form.title')}
          </Title>
          <TextInput
            label={t('webhooks.form.url')}
            placeholder="https://shop.example/rayo-webhooks"
            description={t('webhooks.form.urlHint')}
            value={url}
            maxLength={2000}
            type="url"
            onChange={(event) => setUrl(event.currentTarget.value)}
          />
          <Checkbox.Group label={t('webhooks.form.events')} value={events} onChange={setEvents}>
            <Group gap="md" mt={6}>
              {WEBHOOK_EVENT_TYPES.map((type) => (
                <Checkbox key={type} value={type} label={<Code>{type}</Code>} />
              ))}
            </Group>
          </Checkbox.Group>
          {invalid && (
            <Text c="red" size="sm" role="alert">
              {invalid}
            </Text>
          )}
          {create.isError && !askingForCode && (
            <Alert color="red" variant="light" role="alert" title={t('webhooks.form.failed')}>
              {errorMessage(t, create.error)}
            </Alert>
          )}
          <Group>
            <Button type="submit" loading={create.isPending && !askingForCode}>
              {t('webhooks.form.add')}
            </Button>
          </Group>
        </Stack>
      </form>
      {/* Outside the form: a dialog's submit would otherwise bubble, through React's tree, to it. */}
      {askingForCode && (
        <MfaCodeModal
          title={t('webhooks.form.mfaTitle')}
          submitLabel={t('webhooks.form.add')}
          loading={create.isPending}
          error={codeRefused ? errorMessage(t, create.error) : null}
          onSubmit={send}
          onClose={() => {
            create.reset();
            setAskingForCode(false);
          }}
        />
      )}
      {created && (
        // The only time the secret is shown: the list never carries it.
        <SecretShownOnceModal
          title={t('webhooks.secretTitle')}
          help={t('webhooks.secretHelp')}
          secret={created.secret}
          testId="webhook-secret"
          doneLabel={t('webhooks.done')}
          onClose={() => setCreated(null)}
        />
      )}
    </>
  );
}

function EndpointList({
  endpoints,
  loading,
  admin,
}: {
  endpoints: WebhookEndpoint[];
  loading: boolean;
  admin: boolean;
}) {
  const { t } = useTranslation();
  const remove = useDeleteWebhookEndpoint();
  const test = useSendTestWebhook();
  const [deleting, setDeleting] = useState<WebhookEndpoint | null>(null);

  if (loading) return <Text size="sm">{t('common.loading')}</Text>;
  if (endpoints.length === 0) {
    return (
      <Text size="sm" c="dimmed">
        {t('webhooks.empty')}
      </Text>
    );
  }
  const sendTest = (endpoint: WebhookEndpoint) =>
    test.mutate(endpoint.id, {
      onSuccess: () => notifications.show({ color: 'teal', message: t('webhooks.testSent') }),
      onError: (error) => notifications.show({ color: 'red', position: 'top-right', message: errorMessage(t, error) }),
    });
  const confirmDelete = () => {
    if (!deleting) return;
    remove.mutate(deleting.id, {
      onSuccess: () => {
        setDeleting(null);
        notifications.show({ color: 'teal', message: t('webhooks.deleted') });
      },
    });
  };
  return (
    <>
      {/* Rows rather than a table: a URL is long, and the actions must stay in reach on a phone. */}
      <Stack gap="xs" data-testid="webhook-endpoints">
        {endpoints.map((endpoint) => (
          <Paper key={endpoint.id} withBorder p="sm" radius="sm">
            <Group justify="space-between" align="flex-start" gap="xs">
              <Stack gap={6} style={{ flex: '1 1 240px', minWidth: 0 }}>
                <Text size="sm" fw={500} style={{ overflowWrap: 'anywhere' }}>
                  {endpoint.url}
                </Text>
                <Group gap={4} aria-label={t('webhooks.events')}>
                  {endpoint.events.map((type) => (
                    <Badge key={type} variant="light" size="sm" tt="none">
                      {type}
                    </Badge>
                  ))}
                </Group>
              </Stack>
              {admin && (
                <Group gap={4} wrap="nowrap">
                  <Button
                    size="xs"
                    variant="subtle"
                    loading={test.isPending && test.variables === endpoint.id}
                    aria-label={t('webhooks.testLabel', { url: endpoint.url })}
                    onClick={() => sendTest(endpoint)}
                  >
                    {t('webhooks.test')}
                  </Button>
                  <Button
                    size="xs"
                    variant="subtle"
                    color="red"
                    aria-label={t('webhooks.deleteLabel', { url: endpoint.url })}
                    onClick={() => {
                      remove.reset();
                      setDeleting(endpoint);
                    }}
                  >
                    {t('common.delete')}
                  </Button>
                </Group>
              )}
            </Group>
          </Paper>
        ))}
      </Stack>
      <ConfirmDialog
        opened={deleting !== null}
        title={t('webhooks.deleteTitle')}
        message={t('webhooks.deleteText', { url: deleting?.url ?? '' })}
        confirmLabel={t('common.delete')}
        loading={remove.isPending}
        error={remove.isError ? errorMessage(t, remove.error) : null}
        onConfirm={confirmDelete}
        onClose={() => setDeleting(null)}
      />
    </>
  );
}
