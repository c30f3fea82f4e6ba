import {
  Alert,
  Badge,
  Button,
  Group,
  Modal,
  NumberInput,
  SegmentedControl,
  Skeleton,
  Stack,
  Text,
  TextInput,
} from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import { canChangeOrganization, type Refund, type Transaction } from '@rayo/shared';
import { type FormEvent, useState } from 'react';
import { ApiError } from '../../api/client.ts';
import { errorMessage } from '../../api/error-messages.ts';
import { useRefundSale, useSaleRefunds } from '../../api/refunds.ts';
import { useFormatLocale } from '../../components/format-locale.ts';
import { LoadError } from '../../components/LoadError.tsx';
import { formatDecimalMoney, formatMsatAsSats } from '../../components/money-format.ts';
import { QrCode } from '../../components/QrCode.tsx';
import { useTranslation } from '../../i18n/index.ts';
import { useSession } from '../../session/use-session.ts';
import { useRefundTexts } from './refund-texts.ts';

const STATE_COLORS: Record<Refund['state'], string> = { open: 'yellow', paying: 'blue', paid: 'teal' };

type Way = 'link' | 'lightning' | 'bitcoin';

/**
 * A sale's refunds. An admin refunds it in full or in part, and either gets the refund link
 * (LNURL-withdraw) as a QR code for the customer's wallet, has Rayo pay the Lightning invoice
 * or address the customer gave, or has the platform wallet send it to their Bitcoin address;
 * managers only see the refunds (issue 30).
 */
export function RefundModal({ transaction, onClose }: { transaction: Transaction; onClose: () => void }) {
  const { t } = useTranslation();
  const rt = useRefundTexts();
  const locale = useFormatLocale();
  const admin = canChangeOrganization(useSession().role);
  const refunds = useSaleRefunds(transaction.id);
  const refund = useRefundSale(transaction.id);
  // Asked for only once the server says the admin's MFA needs it (MissingMfaCode).
  const [needsCode, setNeedsCode] = useState(false);
  const [idempotencyKey, setIdempotencyKey] = useState(() => crypto.randomUUID());
  const [sats, setSats] = useState<number | string>('');
  const [mfaCode, setMfaCode] = useState('');
  const [way, setWay] = useState<Way>('link');
  const [destination, setDestination] = useState('');
  const [made, setMade] = useState<Refund | null>(null);
  // On a phone the three ways do not fit side by side (and on a desktop only in the wider dialog).
  const narrow = useMediaQuery('(max-width: 30em)');
  const missingDestination = way !== 'link' && destination.trim() === '';
  const refundable = refunds.data?.refundableMsat ?? 0;

  const send = (amountMsat: number) => {
    if (missingDestination) return;
    refund.mutate(
      {
        amountMsat,
        idempotencyKey,
        ...(way !== 'link' ? { destination: destination.trim() } : {}),
        ...(needsCode ? { mfaCode: mfaCode.trim() } : {}),
      },
      {
        onError: (error) => {
          if (error instanceof ApiError && error.code === 'MissingMfaCode') setNeedsCode(true);
        },
        onSuccess: (created) => {
          setMade(created);
          setIdempotencyKey(crypto.randomUUID());
          setSats('');
          setMfaCode('');
          setDestination('');
        },
      },
    );
  };
  const submitPart = (event: FormEvent) => {
    event.preventDefault();
    if (typeof sats === 'number' && sats > 0) send(sats * 1000);
  };

  return (
    <Modal opened onClose={onClose} title={rt('title')} centered size="xl">
      <Stack gap="md">
        {refunds.isPending && <Skeleton h={80} />}
        {refunds.isError && <LoadError error={refunds.error} onRetry={() => refunds.refetch()} />}
        {refunds.data && (
          <>
            <Text size="sm">
              {rt('left', {
                left: formatMsatAsSats(refundable, locale),
                sale: formatMsatAsSats(refunds.data.saleMsat, locale),
              })}
            </Text>
            {refunds.data.refunds.length === 0 ? (
              <Text size="sm" c="dimmed">
                {rt('none')}
              </Text>
            ) : (
              <Stack gap="xs" component="ul" p={0} m={0} style={{ listStyle: 'none' }}>
                {refunds.data.refunds.map((row) => (
                  <Group component="li" key={row.id} justify="space-between" gap="xs">
                    <Stack gap={0}>
                      <Text size="sm" fw={600} style={{ fontVariantNumeric: 'tabular-nums' }}>
                        {formatMsatAsSats(row.amountMsat, locale)} ·{' '}
                        {formatDecimalMoney(row.fiatAmount, row.currency, locale)}
                      </Text>
                      <Text size="xs" c="dimmed">
                        {new Date(row.createdAt).toLocaleString(locale)}
                      </Text>
                    </Stack>
                    <Badge color={STATE_COLORS[row.state]} variant="light" style={{ flexShrink: 0 }}>
                      {rt(`states.${row.state}`)}
                    </Badge>
                  </Group>
                ))}
              </Stack>
            )}
          </>
        )}
        {made?.lnurl && (
          <Stack gap="xs" align="center">
            <Text size="sm" ta="center">
              {rt('linkHelp')}
            </Text>
            <QrCode value={`lightning:${made.lnurl}`} alt={rt('qr')} size={260} />
            <TextInput readOnly w="100%" label={rt('link')} value={made.lnurl} />
          </Stack>
        )}
        {made && made.method !== 'lnurl-withdraw' && (
          <Alert color="blue" variant="light">
            {rt(made.method === 'onchain-address' ? 'sending' : 'paying')}
          </Alert>
        )}
        {admin && refunds.data && refundable > 0 && (
          <form onSubmit={submitPart} noValidate>
            <Stack gap="sm">
              <Stack gap={4}>
                <Text size="sm" fw={500} id="refund-way">
                  {rt('how')}
                </Text>
                <SegmentedControl
                  aria-labelledby="refund-way"
                  fullWidth
                  orientation={narrow ? 'vertical' : 'horizontal'}
                  value={way}
                  onChange={(value) => {
                    setWay(value as Way);
                    setDestination('');
                  }}
                  data={[
                    { value: 'link', label: rt('viaLink') },
                    { value: 'lightning', label: rt('viaLightning') },
                    { value: 'bitcoin', label: rt('viaBitcoin') },
                  ]}
                />
              </Stack>
              {way !== 'link' && (
                <TextInput
                  label={rt(way === 'bitcoin' ? 'addressLabel' : 'destinationLabel')}
                  description={rt(way === 'bitcoin' ? 'addressHelp' : 'destinationHelp')}
                  required
                  autoComplete="off"
                  spellCheck={false}
                  value={destination}
                  onChange={(event) => setDestination(event.currentTarget.value)}
                />
              )}
              <NumberInput
                label={rt('partLabel')}
                description={rt('partHelp')}
                min={1}
                max={Math.floor(refundable / 1000)}
                allowDecimal={false}
                thousandSeparator
                value={sats}
                onChange={setSats}
              />
              {needsCode && (
                <TextInput
                  label={t('mfa.settings.disableCodeLabel')}
                  autoComplete="one-time-code"
                  value={mfaCode}
                  onChange={(event) => setMfaCode(event.currentTarget.value)}
                />
              )}
              {refund.isError && (
                <Alert color="red" variant="light" role="alert">
                  {errorMessage(t, refund.error)}
                </Alert>
              )}
              <Group justify="flex-end" gap="xs">
                <Button
                  type="submit"
                  variant="default"
                  loading={refund.isPending}
                  disabled={sats === '' || missingDestination}
                >
                  {rt('refundPart')}
                </Button>
                <Button
                  color="red"
                  loading={refund.isPending}
                  disabled={missingDestination}
                  onClick={() => send(refundable)}
                >
                  {rt('refundAll', { amount: formatMsatAsSats(refundable, locale) })}
                </Button>
              </Group>
            </Stack>
          </form>
        )}
        {!admin && (
          <Text size="sm" c="dimmed">
            {rt('adminsOnly')}
          </Text>
        )}
      </Stack>
    </Modal>
  );
}
