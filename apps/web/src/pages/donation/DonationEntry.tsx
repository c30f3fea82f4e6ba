import { Alert, Button, Divider, NumberInput, Stack, Text, Textarea } from '@mantine/core';
import type { DonationInvoice, PublicDonationLink } from '@rayo/shared';
import { type FormEvent, useState } from 'react';
import { useCreateDonationInvoice } from '../../api/donations.ts';
import { publicErrorMessage } from '../../api/error-messages.ts';
import { useFormatLocale } from '../../components/format-locale.ts';
import { formatSats } from '../../components/money-format.ts';
import { QrCode } from '../../components/QrCode.tsx';
import { useTranslation } from '../../i18n/index.ts';

/**
 * The two ways to give: scan the link's LNURL with any wallet, which asks the amount itself, or
 * type an amount (the fixed one when the link has it) and a comment here for an invoice to pay.
 */
export function DonationEntry({
  link,
  onInvoice,
}: {
  link: PublicDonationLink;
  onInvoice: (invoice: DonationInvoice) => void;
}) {
  const { t } = useTranslation();
  const locale = useFormatLocale();
  const create = useCreateDonationInvoice(link.id);
  const [amount, setAmount] = useState<number | string>(link.amountSats ?? '');
  const [comment, setComment] = useState('');
  const [amountError, setAmountError] = useState<string | null>(null);
  const sats = (value: number) => formatSats(BigInt(value), locale);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const value = typeof amount === 'number' ? amount : Number(amount);
    if (!Number.isInteger(value) || value < link.minSats || value > link.maxSats) {
      setAmountError(t('donations.page.amountRange', { min: sats(link.minSats), max: sats(link.maxSats) }));
      return;
    }
    setAmountError(null);
    create.mutate(
      { amountSats: value, ...(comment.trim() ? { comment: comment.trim() } : {}) },
      { onSuccess: onInvoice },
    );
  };

  return (
    <Stack gap="md">
      <QrCode value={`lightning:${link.lnurl}`} alt={t('donations.page.lnurlAlt')} size={240} />
      <Text ta="center" size="sm" c="dimmed">
        {t('donations.page.scanLnurl')}
      </Text>
      <Divider label={t('donations.page.orAmount')} labelPosition="center" />
      <form onSubmit={submit} noValidate>
        <Stack gap="sm">
          {link.amountSats === null ? (
            <NumberInput
              label={t('donations.page.amountLabel')}
              description={t('donations.page.anyAmount')}
              value={amount}
              onChange={setAmount}
              min={link.minSats}
              max={link.maxSats}
              allowDecimal={false}
              allowNegative={false}
              inputMode="numeric"
              error={amountError}
              required
            />
          ) : (
            <div>
              <Text size="sm" fw={500}>
                {t('donations.page.fixedAmount')}
              </Text>
              <Text fz={28} fw={700} data-testid="donation-fixed-amount">
                {sats(link.amountSats)}
              </Text>
            </div>
          )}
          {link.commentAllowed > 0 && (
            <Textarea
              label={t('donations.page.commentLabel')}
              description={t('donations.page.commentHint', { count: link.commentAllowed })}
              value={comment}
              maxLength={link.commentAllowed}
              autosize
              minRows={2}
              onChange={(event) => setComment(event.currentTarget.value)}
            />
          )}
          {create.isError && (
            <Alert color="red" role="alert">
              {publicErrorMessage(t, create.error)}
            </Alert>
          )}
          <Button type="submit" size="lg" color={link.merchant.accentColor ?? undefined} loading={create.isPending}>
            {t('donations.page.donate')}
          </Button>
        </Stack>
      </form>
    </Stack>
  );
}
