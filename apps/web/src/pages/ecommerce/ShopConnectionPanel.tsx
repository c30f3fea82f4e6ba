import {
  Alert,
  Button,
  Code,
  CopyButton,
  Group,
  Paper,
  PasswordInput,
  Select,
  Stack,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import type { ShopConnection, ShopPlatform } from '@rayo/shared';
import { canChangeOrganization } from '@rayo/shared';
import { type FormEvent, type ReactNode, useState } from 'react';
import { errorMessage } from '../../api/error-messages.ts';
import { useMfaStatus } from '../../api/mfa.ts';
import { useDisconnectShop, useShopConnection } from '../../api/shops.ts';
import { useVirtualBpts } from '../../api/virtual-bpts.ts';
import { ConfirmDialog } from '../../components/ConfirmDialog.tsx';
import { LoadError } from '../../components/LoadError.tsx';
import { notifications } from '../../components/notifications.ts';
import { useTranslation } from '../../i18n/index.ts';
import { useSession } from '../../session/use-session.ts';
import { MfaCodeModal } from '../settings/MfaCodeModal.tsx';

export type ShopField = {
  name: string;
  label: string;
  placeholder: string;
  description?: string;
  /** A token or secret: typed hidden, never shown again once saved. */
  secret?: boolean;
};

type Connect = {
  mutate: (
    variables: { values: Record<string, string>; virtualBptId: string; mfaCode: string | undefined },
    options: { onSuccess: () => void },
  ) => void;
  reset: () => void;
  isPending: boolean;
  isError: boolean;
  error: unknown;
};

/**
 * A shop platform's connection, for the Shopify and Ecwid screens: the connected store with the
 * address the shop sends shoppers to, or the form that connects one. Only admins connect and
 * disconnect; the secret is typed once and never shown again.
 */
export function ShopConnectionPanel(props: {
  platform: ShopPlatform;
  fields: ShopField[];
  connect: Connect;
  /** What the merchant pastes into the shop once connected (a link snippet, a payment URL). */
  connectedHelp: (connection: ShopConnection) => ReactNode;
}) {
  const { t } = useTranslation();
  const { role } = useSession();
  const state = useShopConnection(props.platform);
  if (!canChangeOrganization(role)) {
    return <Alert color="gray">{t('shops.adminOnly')}</Alert>;
  }
  if (state.isError) return <LoadError error={state.error} onRetry={() => state.refetch()} />;
  if (state.isPending) return <Text size="sm">{t('common.loading')}</Text>;
  const connection = state.data.connection;
  return connection ? (
    <Connected connection={connection} help={props.connectedHelp(connection)} />
  ) : (
    <ConnectForm {...props} />
  );
}

function Connected({ connection, help }: { connection: ShopConnection; help: ReactNode }) {
  const { t } = useTranslation();
  const disconnect = useDisconnectShop(connection.platform);
  const bpts = useVirtualBpts();
  const [confirming, setConfirming] = useState(false);
  const vbpt = bpts.data?.find((candidate) => candidate.id === connection.virtualBptId);
  return (
    <Paper withBorder p={{ base: 'md', sm: 'xl' }} component="section" aria-labelledby="shop-connected">
      <Stack gap="sm">
        <Title order={2} size="h4" id="shop-connected">
          {t('shops.connected')}
        </Title>
        <Text size="sm" data-testid="shop-connected-name">
          {connection.shopName ? `${connection.shopName} (${connection.shop})` : connection.shop}
        </Text>
        {vbpt && (
          <Text size="sm" c="dimmed">
            {t('shops.sellsThrough', { name: vbpt.name, currency: vbpt.currency })}
          </Text>
        )}
        <Text size="sm" fw={500}>
          {t(connection.platform === 'shopify' ? 'shops.shopify.entryLabel' : 'shops.ecwid.entryLabel')}
        </Text>
        <Group gap="xs" wrap="nowrap" align="flex-start">
          <Code
            block
            style={{ flex: 1, minWidth: 0, overflowWrap: 'anywhere', whiteSpace: 'pre-wrap' }}
            data-testid="shop-entry-url"
          >
            {connection.entryUrl}
          </Code>
          <CopyButton value={connection.entryUrl}>
            {({ copied, copy }) => (
              <Button variant="light" size="xs" onClick={copy}>
                {copied ? t('common.copied') : t('common.copy')}
              </Button>
            )}
          </CopyButton>
        </Group>
        {help}
        <Group>
          <Button color="red" variant="light" onClick={() => setConfirming(true)}>
            {t('shops.disconnect')}
          </Button>
        </Group>
      </Stack>
      <ConfirmDialog
        opened={confirming}
        title={t('shops.disconnectTitle')}
        message={t('shops.disconnectMessage')}
        confirmLabel={t('shops.disconnect')}
        loading={disconnect.isPending}
        error={disconnect.isError ? errorMessage(t, disconnect.error) : null}
        onConfirm={() =>
          disconnect.mutate(undefined, {
            onSuccess: () => {
              setConfirming(false);
              notifications.show({ color: 'teal', message: t('shops.disconnected') });
            },
          })
        }
        onClose={() => setConfirming(false)}
      />
    </Paper>
  );
}

function ConnectForm({ fields, connect }: { fields: ShopField[]; connect: Connect }) {
  const { t } = useTranslation();
  const hasMfa = useMfaStatus().data?.hasMfa ?? false;
  const bpts = useVirtualBpts();
  const [values, setValues] = useState<Record<string, string>>({});
  const [virtualBptId, setVirtualBptId] = useState<string | null>(null);
  const [invalid, setInvalid] = useState<string | null>(null);
  const [askingForCode, setAskingForCode] = useState(false);

  const send = (mfaCode?: string) => {
    setAskingForCode(false);
    const trimmed = Object.fromEntries(fields.map((field) => [field.name, (values[field.name] ?? '').trim()]));
    connect.mutate(
      { values: trimmed, virtualBptId: virtualBptId ?? '', mfaCode },
      { onSuccess: () => notifications.show({ color: 'teal', message: t('shops.saved') }) },
    );
  };
  const submit = (event: FormEvent) => {
    event.preventDefault();
    connect.reset();
    if (fields.some((field) => !(values[field.name] ?? '').trim()) || !virtualBptId) {
      return setInvalid(t('shops.required'));
    }
    setInvalid(null);
    if (hasMfa) setAskingForCode(true);
    else send();
  };
  const options = (bpts.data ?? []).map((vbpt) => ({ value: vbpt.id, label: `${vbpt.name} (${vbpt.currency})` }));

  return (
    <Paper withBorder p={{ base: 'md', sm: 'xl' }} component="section" aria-labelledby="shop-connect">
      <form onSubmit={submit} noValidate>
        <Stack gap="sm">
          <Title order={2} size="h4" id="shop-connect">
            {t('shops.connectTitle')}
          </Title>
          {fields.map((field) => {
            const Input = field.secret ? PasswordInput : TextInput;
            return (
              <Input
                key={field.name}
                label={field.label}
                placeholder={field.placeholder}
                description={field.description}
                value={values[field.name] ?? ''}
                maxLength={255}
                autoComplete="off"
                onChange={(event) => setValues({ ...values, [field.name]: event.currentTarget.value })}
              />
            );
          })}
          <Select
            label={t('shops.virtualBpt')}
            description={options.length === 0 && !bpts.isPending ? t('shops.noVirtualBpt') : undefined}
            data={options}
            value={virtualBptId}
            onChange={setVirtualBptId}
            allowDeselect={false}
          />
          {invalid && (
            <Text c="red" size="sm" role="alert">
              {invalid}
            </Text>
          )}
          {connect.isError && (
            <Alert color="red" variant="light" role="alert" title={t('shops.failed')}>
              {errorMessage(t, connect.error)}
            </Alert>
          )}
          <Group>
            <Button type="submit" loading={connect.isPending}>
              {t('shops.connect')}
            </Button>
          </Group>
        </Stack>
      </form>
      {askingForCode && (
        <MfaCodeModal
          title={t('shops.mfaTitle')}
          submitLabel={t('shops.connect')}
          loading={connect.isPending}
          onSubmit={send}
          onClose={() => setAskingForCode(false)}
        />
      )}
    </Paper>
  );
}
