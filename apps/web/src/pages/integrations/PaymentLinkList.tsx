import { ActionIcon, Badge, Button, CopyButton, Group, Modal, Paper, Stack, Text, Tooltip } from '@mantine/core';
import { type PaymentLink, parseAmount } from '@rayo/shared';
import { IconCopy, IconExternalLink, IconLink, IconQrcode, IconTrash } from '@tabler/icons-react';
import type { UseQueryResult } from '@tanstack/react-query';
import { useState } from 'react';
import { paymentLinkUrl, useDeletePaymentLink } from '../../api/payment-links.ts';
import { ConfirmDialog } from '../../components/ConfirmDialog.tsx';
import { useDateTimeFormat } from '../../components/date-time.ts';
import { useFormatLocale } from '../../components/format-locale.ts';
import { ListStatus } from '../../components/ListStatus.tsx';
import { formatDecimalMoney, formatMoney } from '../../components/money-format.ts';
import { notifications } from '../../components/notifications.ts';
import { QrCode } from '../../components/QrCode.tsx';
import { useDeleteConfirmation } from '../../components/use-delete-confirmation.ts';
import { useTranslation } from '../../i18n/index.ts';
import { statusLabel } from './payment-link-status.ts';

/** The payment links, or while they load, or when there are none, what to know instead. */
export function PaymentLinkList({
  query,
  emptyText,
  deletable,
  showVirtualBpt = false,
}: {
  query: UseQueryResult<PaymentLink[]>;
  emptyText: string;
  deletable: boolean;
  showVirtualBpt?: boolean;
}) {
  const { t } = useTranslation();
  return (
    <>
      <ListStatus
        query={query}
        empty={{ icon: <IconLink size={32} />, title: t('paymentLinks.emptyTitle'), text: emptyText }}
      />
      {query.data && query.data.length > 0 && (
        <PaymentLinkCards links={query.data} deletable={deletable} showVirtualBpt={showVirtualBpt} />
      )}
    </>
  );
}

/**
 * Payment links as cards, which fit a phone: description, amount and status, then copy the
 * public link, show its QR code, open it, and (for admins) delete it.
 */
function PaymentLinkCards({
  links,
  deletable,
  showVirtualBpt,
}: {
  links: PaymentLink[];
  deletable: boolean;
  showVirtualBpt: boolean;
}) {
  const { t } = useTranslation();
  const locale = useFormatLocale();
  const date = useDateTimeFormat();
  const remove = useDeletePaymentLink();
  const confirmation = useDeleteConfirmation<PaymentLink>(remove, t('paymentLinks.deleted'));
  const [qrOf, setQrOf] = useState<PaymentLink | null>(null);

  return (
    <Stack gap="sm" data-testid="payment-links">
      {links.map((link) => {
        const status = statusLabel(link);
        const url = paymentLinkUrl(link.id);
        return (
          <Paper key={link.id} withBorder p="md" data-testid="payment-link">
            <Stack gap="xs">
              <Group justify="space-between" align="flex-start" wrap="nowrap" gap="sm">
                <div style={{ minWidth: 0 }}>
                  <Text fw={600} style={{ overflowWrap: 'anywhere' }}>
                    {link.description}
                  </Text>
                  <Text size="sm" c="dimmed">
                    {formatMoney(parseAmount(link.amount.value, link.amount.currency), link.amount.currency, locale)}
                    {showVirtualBpt && ` · ${link.virtualBptName}`}
                  </Text>
                  {link.paidAt && link.paidVia && (
                    <Text size="sm" c="dimmed" data-testid="payment-link-paid">
                      {t(`paymentLinks.paidVia.${link.paidVia}`, { when: date(link.paidAt) })}
                    </Text>
                  )}
                  {link.underpaid && (
                    <Text size="sm" c="orange.9" data-testid="payment-link-underpaid">
                      {t('paymentLinks.underpaidAmounts', {
                        received: formatDecimalMoney(link.underpaid.received.value, link.amount.currency, locale),
                        amount: formatDecimalMoney(link.amount.value, link.amount.currency, locale),
                        missing: formatDecimalMoney(link.underpaid.missing.value, link.amount.currency, locale),
                      })}
                    </Text>
                  )}
                </div>
                <Stack gap={4} align="flex-end" style={{ flexShrink: 0 }}>
                  <Badge color={status.color} variant="light">
                    {t(status.key)}
                  </Badge>
                  {link.extraPayment && (
                    <Badge color="orange" variant="outline" size="sm">
                      {t('paymentLinks.extraPayment')}
                    </Badge>
                  )}
                </Stack>
              </Group>
              <Group gap="xs">
                <CopyButton value={url}>
                  {({ copy }) => (
                    <Button
                      variant="light"
                      size="xs"
                      leftSection={<IconCopy size={16} />}
                      onClick={() => {
                        copy();
                        notifications.show({ color: 'teal', message: t('paymentLinks.copied') });
                      }}
                    >
                      {t('paymentLinks.copy')}
                    </Button>
                  )}
                </CopyButton>
                <Button
                  variant="default"
                  size="xs"
                  leftSection={<IconQrcode size={16} />}
                  onClick={() => setQrOf(link)}
                >
                  {t('paymentLinks.qr')}
                </Button>
                <Tooltip label={t('paymentLinks.open')}>
                  <ActionIcon
                    component="a"
                    href={url}
                    target="_blank"
                    rel="noopener"
                    variant="subtle"
                    color="gray"
                    size="md"
                    aria-label={t('paymentLinks.openLabel', { description: link.description })}
                  >
                    <IconExternalLink size={16} />
                  </ActionIcon>
                </Tooltip>
                {deletable && (
                  <ActionIcon
                    variant="subtle"
                    color="red"
                    size="md"
                    aria-label={t('paymentLinks.deleteLabel', { description: link.description })}
                    onClick={() => confirmation.ask(link)}
                  >
                    <IconTrash size={16} />
                  </ActionIcon>
                )}
              </Group>
            </Stack>
          </Paper>
        );
      })}
      <Modal opened={qrOf !== null} onClose={() => setQrOf(null)} title={qrOf?.description} centered>
        {qrOf && (
          <Stack gap="sm">
            <QrCode value={paymentLinkUrl(qrOf.id)} alt={t('paymentLinks.qrAlt')} size={280} />
            <Text size="xs" c="dimmed" ta="center" style={{ overflowWrap: 'anywhere' }}>
              {paymentLinkUrl(qrOf.id)}
            </Text>
          </Stack>
        )}
      </Modal>
      {deletable && (
        <ConfirmDialog
          {...confirmation.dialog}
          title={t('paymentLinks.deleteTitle')}
          message={t('paymentLinks.deleteText', { description: confirmation.target?.description })}
          confirmLabel={t('common.delete')}
        />
      )}
    </Stack>
  );
}
