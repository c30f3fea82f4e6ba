import { Alert, Box, Button, Loader, Stack, Text, ThemeIcon, Title } from '@mantine/core';
import {
  canChangeOrganization,
  currencyExponent,
  formatMinor,
  type Invoice,
  type InvoiceStatus,
  maxSaleMinor,
  maxTipMinor,
  parsePercentToBps,
  type TerminalInfo,
  type TipChoice,
} from '@rayo/shared';
import { IconClockX } from '@tabler/icons-react';
import { useQueryClient } from '@tanstack/react-query';
import { useDeferredValue, useEffect, useEffectEvent, useMemo, useState } from 'react';
import { useParams } from 'react-router';
import { ApiError } from '../../api/client.ts';
import { currentOrganizationQuery } from '../../api/dashboard.ts';
import { errorMessage, isOrganizationBlocked, publicErrorMessage } from '../../api/error-messages.ts';
import { useInvoiceStatus } from '../../api/invoices.ts';
import { type TerminalSource, terminalKey, useCreateInvoice, useTerminalInfo } from '../../api/terminal.ts';
import { BrandedPanel } from '../../components/BrandedPanel.tsx';
import { BrandedTitle } from '../../components/BrandedTitle.tsx';
import { TimeZoneContext } from '../../components/date-time.ts';
import { FormatCountryContext, useFormatLocale } from '../../components/format-locale.ts';
import { formatMoney } from '../../components/money-format.ts';
import { useTranslation } from '../../i18n/index.ts';
import { useOrganizationLanguage } from '../../session/use-organization-language.ts';
import { useSession } from '../../session/use-session.ts';
import { InvoiceAmount, InvoicePanel } from './InvoicePanel.tsx';
import { Keypad } from './Keypad.tsx';
import { formatTyped, type KeypadKey, pressKeyWithinLimit, quoteTyped, type SaleTerms, tipProblem } from './keypad.ts';
import { LatestTransactions } from './LatestTransactions.tsx';
import { PaidScreen } from './PaidScreen.tsx';
import { SaleSummary } from './SaleSummary.tsx';
import { TipPicker } from './TipPicker.tsx';

type Sale = { bill: string; tip: TipChoice | null };
type Stage =
  | { name: 'entry' }
  | { name: 'invoice'; invoice: Invoice; sale: Sale }
  | { name: 'ended'; invoice: Invoice; sale: Sale; status: 'expired' | 'cancelled' }
  | { name: 'paid'; invoice: Invoice };

const NO_TIP: TipChoice = { kind: 'percent', percent: 0 };

/** Keys of a physical keyboard that work like the keypad, for terminals on a laptop. */
function keypadKeyOf(event: KeyboardEvent): KeypadKey | null {
  if (/^[0-9]$/.test(event.key)) return event.key as KeypadKey;
  if (event.key === '.' || event.key === ',') return '.';
  if (event.key === 'Backspace') return 'backspace';
  if (event.key === 'Escape' || event.key === 'Delete') return 'clear';
  return null;
}

/** Whether a key press belongs to a field being typed in (the tip amount, say) rather than to the keypad. */
function isTextField(target: EventTarget | null): boolean {
  if (target instanceof HTMLInputElement) return !['radio', 'checkbox', 'button', 'submit'].includes(target.type);
  return target instanceof HTMLElement && (target.isContentEditable || /^(TEXTAREA|SELECT)$/.test(target.tagName));
}

/** Types an amount, charges it as a Lightning invoice and follows the invoice until it is paid or ends. */
function Register({ info, source }: { info: TerminalInfo; source: TerminalSource }) {
  const { t } = useTranslation();
  const locale = useFormatLocale();
  const queryClient = useQueryClient();
  const { bpt } = info;
  const exponent = currencyExponent(bpt.currency);
  const terms = useMemo<SaleTerms>(
    () => ({
      currency: bpt.currency,
      taxBps: parsePercentToBps(bpt.taxPercentage),
      rateMinorPerBtc: BigInt(info.rateMinorPerBtc),
    }),
    [bpt.currency, bpt.taxPercentage, info.rateMinorPerBtc],
  );
  const [bill, setBill] = useState('');
  const [tip, setTip] = useState<TipChoice>(NO_TIP);
  const [refused, setRefused] = useState(false);
  const [stage, setStage] = useState<Stage>({ name: 'entry' });
  const createInvoice = useCreateInvoice(source);
  const sale: Sale = { bill, tip: bpt.tipEnabled ? tip : null };
  const figures = quoteTyped(sale.bill, sale.tip, terms);
  const tipWrong = tipProblem(sale.tip, figures.billMinor, bpt.currency);
  const money = (minor: bigint) => formatMoney(minor, bpt.currency, locale);
  // The keypad refuses digits past the limit, but a tip chosen afterwards can still cross it.
  const overLimit = figures.totalMinor > maxSaleMinor(terms.rateMinorPerBtc, bpt.currency);
  const typedAmount = formatTyped(bill, bpt.currency, locale);
  const limitMessage = t('terminal.maxSale', { amount: money(maxSaleMinor(terms.rateMinorPerBtc, bpt.currency)) });

  const typeKey = (key: KeypadKey) => {
    const next = pressKeyWithinLimit(bill, key, sale.tip, terms);
    setBill(next.value);
    setRefused(next.refused);
  };

  const charge = (of: Sale) => {
    const { billMinor, tipMinor, totalMinor } = quoteTyped(of.bill, of.tip, terms);
    if (billMinor === 0n || createInvoice.isPending) return;
    if (tipProblem(of.tip, billMinor, bpt.currency)) return;
    if (totalMinor > maxSaleMinor(terms.rateMinorPerBtc, bpt.currency)) return;
    // The server adds the tax itself; the tip goes as an amount, whichever way it was chosen.
    const request = {
      amount: formatMinor(billMinor, bpt.currency),
      tip: tipMinor > 0n ? formatMinor(tipMinor, bpt.currency) : undefined,
    };
    createInvoice.mutate(request, {
      onSuccess: (invoice) => setStage({ name: 'invoice', invoice, sale: of }),
      // Blocked since the screens last asked: the banner above every screen says so now.
      onError: (error) => {
        if (isOrganizationBlocked(error)) void queryClient.invalidateQueries(currentOrganizationQuery);
      },
    });
  };

  // The status names its invoice: an old invoice's last event can land after "Charge again" has
  // put a new one on screen, and must not end the new one.
  const onStatus = (status: InvoiceStatus, invoiceId: string) =>
    setStage((current) => {
      if (current.name !== 'invoice' && current.name !== 'ended') return current;
      if (current.invoice.id !== invoiceId) return current;
      if (status === 'settled') return { name: 'paid', invoice: current.invoice };
      if (current.name === 'invoice' && (status === 'expired' || status === 'cancelled')) {
        return { ...current, name: 'ended', status };
      }
      return current;
    });
  // An expired invoice is still followed: a payment sent in its last second may yet settle.
  useInvoiceStatus(stage.name === 'invoice' || stage.name === 'ended' ? stage.invoice.id : null, onStatus);

  const paid = stage.name === 'paid';
  useEffect(() => {
    if (paid) void queryClient.invalidateQueries({ queryKey: [...terminalKey(source), 'transactions'] });
  }, [paid, queryClient, source]);

  const chargeTyped = useEffectEvent(() => charge(sale));
  const typeKeyEvent = useEffectEvent(typeKey);
  const typing = stage.name === 'entry';
  useEffect(() => {
    if (!typing) return;
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.ctrlKey || event.metaKey || event.altKey || isTextField(event.target)) return;
      const key = keypadKeyOf(event);
      if (key) {
        event.preventDefault();
        typeKeyEvent(key);
      } else if (event.key === 'Enter' && !(event.target instanceof HTMLButtonElement)) {
        chargeTyped();
      }
    };
    window.addEventListener('keydown', onKeyDown);
    return () => window.removeEventListener('keydown', onKeyDown);
  }, [typing]);

  const newSale = () => {
    setBill('');
    setRefused(false);
    setTip(NO_TIP);
    createInvoice.reset();
    setStage({ name: 'entry' });
  };
  const backToAmount = () => {
    createInvoice.reset();
    setStage({ name: 'entry' });
  };
  const chargeError = createInvoice.error && (
    <Alert color="red" role="alert">
      {(source.kind === 'shared' ? publicErrorMessage : errorMessage)(t, createInvoice.error)}
    </Alert>
  );

  if (stage.name === 'invoice') {
    return (
      <InvoicePanel
        invoice={stage.invoice}
        onStatus={onStatus}
        onTimeUp={() =>
          setStage((current) =>
            current.name === 'invoice' ? { ...current, name: 'ended', status: 'expired' } : current,
          )
        }
        onCancel={backToAmount}
      />
    );
  }
  if (stage.name === 'ended') {
    return (
      <Stack align="center" gap="md" py="md">
        <ThemeIcon size={64} radius={64} variant="light" color="orange">
          <IconClockX size={36} />
        </ThemeIcon>
        <Title order={2} size="h3">
          {t(stage.status === 'cancelled' ? 'terminal.cancelled' : 'terminal.expired')}
        </Title>
        <Text c="dimmed" ta="center">
          {t('terminal.expiredText')}
        </Text>
        <InvoiceAmount invoice={stage.invoice} size={28} />
        {chargeError}
        <Button size="xl" fullWidth loading={createInvoice.isPending} onClick={() => charge(stage.sale)} data-autofocus>
          {t('terminal.chargeAgain')}
        </Button>
        <Button variant="subtle" color="gray" onClick={backToAmount}>
          {t('terminal.changeAmount')}
        </Button>
      </Stack>
    );
  }
  return (
    <Stack gap="md">
      <Box ta="right">
        <Text size="sm" c="dimmed" id="amount-label">
          {t('terminal.amount')}
        </Text>
        <Text
          component="output"
          aria-labelledby="amount-label"
          // A long amount steps down a size on a phone instead of breaking inside its figure.
          fz={{ base: typedAmount.length > 12 ? 30 : 40, xs: 40 }}
          fw={700}
          lh={1.2}
          style={{ overflowWrap: 'anywhere' }}
        >
          {typedAmount}
        </Text>
      </Box>
      {(refused || overLimit) && (
        <Text size="sm" c="red.8" ta="right" role="alert" data-testid="sale-limit">
          {limitMessage}
        </Text>
      )}
      <Keypad decimals={exponent > 0} onKey={typeKey} />
      {bpt.tipEnabled && (
        <TipPicker
          value={tip}
          onChange={setTip}
          currency={bpt.currency}
          exponent={exponent}
          error={
            tipWrong === 'tooLarge'
              ? t('terminal.tipTooLarge', { amount: money(maxTipMinor(figures.billMinor)) })
              : tipWrong && t(tipWrong === 'negative' ? 'terminal.tipNegative' : 'terminal.tipNotAmount')
          }
        />
      )}
      <SaleSummary
        figures={figures}
        currency={bpt.currency}
        showTip={bpt.tipEnabled}
        taxPercentage={bpt.taxPercentage}
      />
      {chargeError}
      {/* Kept in view at the bottom of a phone's screen, however long the sale above it grows. */}
      <Box pos="sticky" bottom={0} py="xs" bg="var(--mantine-color-body)" style={{ zIndex: 1 }}>
        <Button
          size="xl"
          fullWidth
          color={info.branding.accentColor ?? undefined}
          disabled={figures.billMinor === 0n || tipWrong !== null || overLimit}
          loading={createInvoice.isPending}
          onClick={() => charge(sale)}
          styles={{ label: { whiteSpace: 'normal', textAlign: 'center' } }}
        >
          {t('terminal.charge', { amount: money(figures.totalMinor) })}
        </Button>
      </Box>
      {stage.name === 'paid' && <PaidScreen invoice={stage.invoice} onNewSale={newSale} />}
    </Stack>
  );
}

function LoadProblem({ error, onRetry }: { error: unknown; onRetry: () => void }) {
  const { t } = useTranslation();
  // A link with a malformed token is refused as invalid input; to its holder it is just as broken.
  const notFound = error instanceof ApiError && (error.status === 404 || error.status === 400);
  return (
    <Alert color="red" role="alert">
      <Stack gap="sm" align="flex-start">
        <Text size="sm">{notFound ? t('terminal.notFound') : errorMessage(t, error)}</Text>
        {!notFound && (
          <Button size="xs" variant="white" color="red" onClick={onRetry}>
            {t('common.retry')}
          </Button>
        )}
      </Stack>
    </Alert>
  );
}

/** The terminal of one BPT (SPEC §2 "BPTs": invoice QR, NFC reading, tip and tax, latest transactions). */
export function TerminalPage({ source, canCharge }: { source: TerminalSource; canCharge: boolean }) {
  const { t } = useTranslation();
  const info = useTerminalInfo(source);
  useOrganizationLanguage(info.data?.language);
  // Drawn in a transition, in slices, rather than in one long task as the answer lands (CheckoutPage).
  const shown = useDeferredValue(info.data);
  return (
    // Numbers are written as the organization's country writes them, with or without a session.
    <FormatCountryContext.Provider value={shown?.countryCode}>
      <TimeZoneContext.Provider value={shown?.timeZone}>
        <Stack gap="xl">
          <Stack maw={480} w="100%" mx="auto" gap="md">
            <BrandedTitle
              name={shown?.bpt.name ?? t('pages.terminal')}
              branding={shown?.branding}
              logoTestId="terminal-logo"
            />
            {!shown && !info.isError && <Loader aria-label={t('common.loading')} />}
            {info.isError && !shown && <LoadProblem error={info.error} onRetry={() => info.refetch()} />}
            {shown && (
              <BrandedPanel
                accent={shown.branding.accentColor}
                p={{ base: 'sm', xs: 'lg' }}
                data-testid="terminal-panel"
              >
                {canCharge ? (
                  <Register info={shown} source={source} />
                ) : (
                  <Text c="dimmed">{t('terminal.viewOnly')}</Text>
                )}
              </BrandedPanel>
            )}
          </Stack>
          {shown && (
            <Box maw={760} w="100%" mx="auto">
              <LatestTransactions source={source} />
            </Box>
          )}
        </Stack>
      </TimeZoneContext.Provider>
    </FormatCountryContext.Provider>
  );
}

export function SignedInTerminalPage() {
  const { id = '' } = useParams();
  const { role } = useSession();
  const source = useMemo<TerminalSource>(() => ({ kind: 'bpt', id }), [id]);
  // SPEC §6: managers view; charging is the administrator's (or anyone's with the share link).
  return <TerminalPage key={id} source={source} canCharge={canChangeOrganization(role)} />;
}

export function SharedTerminalPage() {
  const { bptToken = '' } = useParams();
  const source = useMemo<TerminalSource>(() => ({ kind: 'shared', token: bptToken }), [bptToken]);
  return <TerminalPage key={bptToken} source={source} canCharge />;
}
