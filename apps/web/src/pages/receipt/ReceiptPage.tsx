import { Alert, Button, Divider, Group, Loader, Stack, Text, Title } from '@mantine/core';
import type { Language, Receipt } from '@rayo/shared';
import { IconDownload, IconPrinter } from '@tabler/icons-react';
import { useLayoutEffect, useRef, useState } from 'react';
import { useParams } from 'react-router';
import { ApiError } from '../../api/client.ts';
import { publicErrorMessage } from '../../api/error-messages.ts';
import { receiptPdfUrl, usePublicReceipt } from '../../api/receipts.ts';
import { BrandedPanel } from '../../components/BrandedPanel.tsx';
import { BrandedTitle } from '../../components/BrandedTitle.tsx';
import { TimeZoneContext, useDateTimeFormat } from '../../components/date-time.ts';
import { FormatCountryContext, useFormatLocale } from '../../components/format-locale.ts';
import { formatDecimalMoney, formatMsatAsSats } from '../../components/money-format.ts';
import { useTranslation } from '../../i18n/index.ts';
import { useOrganizationLanguage } from '../../session/use-organization-language.ts';

/** An 80 mm roll, of which a receipt printer reaches the middle 72 mm. */
const ROLL_WIDTH_MM = 80;
const ROLL_MARGIN_MM = 4;
const PRINTED_WIDTH_MM = ROLL_WIDTH_MM - 2 * ROLL_MARGIN_MM;
/** A CSS pixel is 1/96 inch. */
const MM_PER_PX = 25.4 / 96;

/**
 * The receipt on an 80 mm thermal roll: one page the roll's width and as long as the receipt,
 * with only the receipt on it (not the layout's header or the buttons). CSS has no page "as long
 * as its content" (`size: 80mm auto` is not valid and browsers fall back to Letter or A4), so the
 * receipt is printed as laid out on screen, scaled down to the printed 72 mm, and the page is
 * that scaled height long. `shown` is the receipt's size on screen, in CSS pixels.
 */
function rollPrintStyle(shown: { width: number; height: number }): string {
  const scale = PRINTED_WIDTH_MM / (shown.width * MM_PER_PX);
  // A millimetre spare so that rounding never pushes the last line onto a second page.
  const pageHeight = Math.ceil(shown.height * MM_PER_PX * scale + 2 * ROLL_MARGIN_MM + 1);
  return `@media print {@page {size:${ROLL_WIDTH_MM}mm ${pageHeight}mm;margin:${ROLL_MARGIN_MM}mm;} html,body {background:#fff !important;} body *:not([data-receipt]):not([data-receipt] *):not(:has([data-receipt])) {display:none !important;} [data-receipt] {position:absolute;inset:0 auto auto 0;width:${shown.width}px;zoom:${scale.toFixed(4)};color:#000 !important;} [data-receipt] > * {border-color:transparent !important;box-shadow:none !important;}}`;
}

/**
 * `/receipts/:token`: a paid sale's receipt, for the customer who scanned it off the paid screen
 * or opened it from the mail. Printing sends only the receipt, on an 80 mm roll
 * (`rollPrintStyle`); the PDF is the server's, on the same roll.
 */
export function ReceiptPage() {
  const { t } = useTranslation();
  const { token = '' } = useParams();
  const receipt = usePublicReceipt(token);
  useOrganizationLanguage(receipt.data?.language);
  const notFound = receipt.error instanceof ApiError && receipt.error.status === 404;
  return (
    <Stack maw={420} w="100%" mx="auto" gap="md">
      {receipt.isPending && <Loader aria-label={t('common.loading')} />}
      {receipt.isError && (
        <Alert color={notFound ? 'yellow' : 'red'} role="alert">
          {notFound ? t('receipt.notFound') : publicErrorMessage(t, receipt.error)}
        </Alert>
      )}
      {receipt.data && (
        <FormatCountryContext.Provider value={receipt.data.countryCode}>
          <TimeZoneContext.Provider value={receipt.data.timeZone}>
            <ReceiptView receipt={receipt.data} token={token} />
          </TimeZoneContext.Provider>
        </FormatCountryContext.Provider>
      )}
    </Stack>
  );
}

function Line({ label, value, strong }: { label: string; value: string; strong?: boolean }) {
  return (
    <Group justify="space-between" wrap="nowrap" gap="md">
      <Text fw={strong ? 700 : undefined}>{label}</Text>
      <Text fw={strong ? 700 : undefined} ta="right" style={{ fontVariantNumeric: 'tabular-nums' }}>
        {value}
      </Text>
    </Group>
  );
}

function ReceiptView({ receipt, token }: { receipt: Receipt; token: string }) {
  const { t, i18n } = useTranslation();
  const locale = useFormatLocale();
  const formatDate = useDateTimeFormat('dateTime');
  const money = (value: string) => formatDecimalMoney(value, receipt.currency, locale);
  const rate = new Intl.NumberFormat(locale, { maximumFractionDigits: 3 }).format(
    receipt.rate as Intl.StringNumericLiteral,
  );
  const roll = useRef<HTMLDivElement>(null);
  const [shown, setShown] = useState<{ width: number; height: number } | null>(null);
  useLayoutEffect(() => {
    const element = roll.current;
    if (!element) return;
    const measure = () => setShown({ width: element.offsetWidth, height: element.offsetHeight });
    measure();
    const observer = new ResizeObserver(measure);
    observer.observe(element);
    return () => observer.disconnect();
  }, []);
  return (
    <Stack gap="md">
      {shown && shown.width > 0 && <style>{rollPrintStyle(shown)}</style>}
      <div data-receipt ref={roll}>
        <BrandedPanel accent={receipt.merchant.accentColor} data-testid="receipt">
          <Stack gap="sm">
            <BrandedTitle name={receipt.merchant.name} branding={receipt.merchant} logoTestId="receipt-logo" />
            <Title order={2} size="h4">
              {t('pageTitles.receipt')}
            </Title>
            <Text c="dimmed" data-testid="receipt-date">
              {formatDate(receipt.settledAt)}
            </Text>
            {receipt.description && <Text style={{ overflowWrap: 'anywhere' }}>{receipt.description}</Text>}
            <Divider variant="dashed" />
            <Line label={t('terminal.bill')} value={money(receipt.billAmount)} />
            <Line label={t('terminal.tipLine')} value={money(receipt.tip)} />
            <Line label={t('home.columns.tax')} value={money(receipt.tax)} />
            <Line label={t('terminal.total')} value={money(receipt.total)} strong />
            <Line label={t('terminal.paid')} value={formatMsatAsSats(receipt.totalMsat, locale)} />
            <Line label={t('home.columns.rate')} value={`${rate} sats/${receipt.currency}`} />
            {receipt.refunds.map((refund) => (
              <Line
                key={refund.paidAt}
                label={t('receipt.refunded', { date: formatDate(refund.paidAt) })}
                value={`−${money(refund.fiatAmount)} (${formatMsatAsSats(refund.amountMsat, locale)})`}
              />
            ))}
            <Divider variant="dashed" />
            {receipt.paymentHash ? (
              <Stack gap={2}>
                <Text size="sm" fw={600}>
                  {t('devnet.hash')}
                </Text>
                <Text size="xs" ff="monospace" style={{ overflowWrap: 'anywhere' }} data-testid="receipt-payment-hash">
                  {receipt.paymentHash}
                </Text>
              </Stack>
            ) : (
              receipt.txids.map((txid) => (
                <Stack gap={2} key={txid}>
                  <Text size="sm" fw={600}>
                    {t('devnet.txid')}
                  </Text>
                  <Text size="xs" ff="monospace" style={{ overflowWrap: 'anywhere' }}>
                    {txid}
                  </Text>
                </Stack>
              ))
            )}
          </Stack>
        </BrandedPanel>
      </div>
      <Group justify="center" gap="sm">
        <Button leftSection={<IconPrinter size={18} />} onClick={() => window.print()}>
          {t('receipt.print')}
        </Button>
        <Button
          component="a"
          href={receiptPdfUrl(token, i18n.language as Language)}
          variant="default"
          leftSection={<IconDownload size={18} />}
        >
          {t('receipt.pdf')}
        </Button>
      </Group>
    </Stack>
  );
}
