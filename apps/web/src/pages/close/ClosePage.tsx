import {
  ActionIcon,
  Alert,
  Button,
  Checkbox,
  Group,
  NativeSelect,
  Paper,
  ScrollArea,
  Stack,
  Table,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import {
  CLOSE_FREQUENCIES,
  type CloseFigures,
  type CloseFrequency,
  closeHourLabel,
  dayAt,
  formatDecimalMoney,
  formatMsatAsSats,
  type Language,
} from '@rayo/shared';
import { IconDownload, IconTrash } from '@tabler/icons-react';
import { type ReactNode, useMemo, useState } from 'react';
import { useBpts } from '../../api/bpts.ts';
import { useAccounts } from '../../api/catalog.ts';
import { useCurrentOrganization } from '../../api/dashboard.ts';
import {
  type CloseFilter,
  downloadClose,
  useAddCloseSchedule,
  useCloseSchedules,
  useDayClose,
  useRemoveCloseSchedule,
} from '../../api/day-close.ts';
import { errorMessage } from '../../api/error-messages.ts';
import { useFormatLocale } from '../../components/format-locale.ts';
import { ScreenTitle } from '../../components/ScreenTitle.tsx';
import { useTranslation } from '../../i18n/index.ts';
import { useSession } from '../../session/use-session.ts';

const ALL = 'all';

type Row = { key: string; label: ReactNode; figures: CloseFigures; strong?: boolean };

function FiguresTable({ rows, currency }: { rows: Row[]; currency: string }) {
  const { t } = useTranslation();
  const locale = useFormatLocale();
  const money = (decimal: string) => formatDecimalMoney(decimal, currency, locale);
  const sats = (msat: number) => formatMsatAsSats(msat, locale);
  return (
    <ScrollArea type="auto">
      <Table striped withTableBorder miw={760} style={{ whiteSpace: 'nowrap' }} data-testid="close-table">
        <Table.Thead>
          <Table.Tr>
            <Table.Th />
            <Table.Th ta="right">{t('home.charts.count')}</Table.Th>
            <Table.Th ta="right">{t('close.gross')}</Table.Th>
            <Table.Th ta="right">{t('home.charts.tips')}</Table.Th>
            <Table.Th ta="right">{t('home.columns.tax')}</Table.Th>
            <Table.Th ta="right">{t('close.refunds')}</Table.Th>
            <Table.Th ta="right">{t('close.gross')}</Table.Th>
            <Table.Th ta="right">{t('close.fees')}</Table.Th>
            <Table.Th ta="right">{t('close.net')}</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {rows.map((row) => (
            <Table.Tr key={row.key} fw={row.strong ? 700 : undefined}>
              <Table.Td>{row.label}</Table.Td>
              <Table.Td ta="right">{row.figures.count}</Table.Td>
              <Table.Td ta="right">{money(row.figures.gross)}</Table.Td>
              <Table.Td ta="right">{money(row.figures.tips)}</Table.Td>
              <Table.Td ta="right">{money(row.figures.tax)}</Table.Td>
              <Table.Td ta="right">{money(row.figures.refunds)}</Table.Td>
              <Table.Td ta="right">{sats(row.figures.grossMsat)}</Table.Td>
              <Table.Td ta="right">{sats(row.figures.feesMsat)}</Table.Td>
              <Table.Td ta="right">{sats(row.figures.netMsat)}</Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </ScrollArea>
  );
}

function Schedules({ accounts }: { accounts: Array<{ value: string; label: string }> }) {
  const { t } = useTranslation();
  const schedules = useCloseSchedules(true);
  const add = useAddCloseSchedule();
  const remove = useRemoveCloseSchedule();
  const [account, setAccount] = useState(ALL);
  const [frequency, setFrequency] = useState<CloseFrequency>('daily');
  const [time, setTime] = useState('18:00');
  const [managers, setManagers] = useState(false);
  const names = new Map(accounts.map((option) => [option.value, option.label]));
  return (
    <Paper withBorder p="md">
      <Stack gap="sm">
        <Title order={2} size="h4">
          {t('close.mail.title')}
        </Title>
        {(schedules.data?.schedules ?? []).map((schedule) => (
          <Group key={schedule.id} justify="space-between" wrap="nowrap">
            <Text size="sm">
              {names.get(schedule.account)} ·{' '}
              {t('close.mail.line', {
                frequency: t(`close.mail.${schedule.frequency}`),
                time: schedule.time,
                email: schedule.email,
              })}
              {schedule.managers ? ` · ${t('close.mail.managers')}` : ''}
            </Text>
            <ActionIcon
              variant="subtle"
              color="red"
              aria-label={t('common.delete')}
              onClick={() => remove.mutate(schedule.id)}
            >
              <IconTrash size={16} />
            </ActionIcon>
          </Group>
        ))}
        <Group align="flex-end" wrap="wrap" gap="sm">
          <NativeSelect
            label={t('home.account')}
            data={accounts}
            value={account}
            onChange={(event) => setAccount(event.currentTarget.value)}
          />
          <NativeSelect
            label={t('close.mail.frequency')}
            data={CLOSE_FREQUENCIES.map((value) => ({ value, label: t(`close.mail.${value}`) }))}
            value={frequency}
            onChange={(event) => setFrequency(event.currentTarget.value as CloseFrequency)}
          />
          <TextInput
            type="time"
            label={t('close.mail.time')}
            value={time}
            onChange={(event) => setTime(event.currentTarget.value)}
          />
          <Checkbox
            label={t('close.mail.managers')}
            checked={managers}
            onChange={(event) => setManagers(event.currentTarget.checked)}
            mb={8}
          />
          <Button
            loading={add.isPending}
            onClick={() => add.mutate({ account, frequency, time: time.slice(0, 5), managers })}
          >
            {t('common.create')}
          </Button>
        </Group>
        {add.isError && <Alert color="red">{errorMessage(t, add.error)}</Alert>}
      </Stack>
    </Paper>
  );
}

/** The end-of-day close of a local day: on screen, as CSV, and mailed on the admins' schedules. */
export function ClosePage() {
  const { t, i18n } = useTranslation();
  const session = useSession();
  const organization = useCurrentOrganization();
  const accounts = useAccounts();
  const bpts = useBpts();
  const timeZone = organization.data?.timeZone ?? null;
  const [chosenDay, setDay] = useState<string | null>(null);
  const [account, setAccount] = useState(ALL);
  const [bpt, setBpt] = useState(ALL);
  const [csv, setCsv] = useState<'idle' | 'running' | 'failed' | string>('idle');
  const day = chosenDay ?? (timeZone ? dayAt(Date.now(), timeZone) : null);
  const filter = useMemo<CloseFilter | null>(() => (day ? { day, account, bpt } : null), [day, account, bpt]);
  const close = useDayClose(filter);
  const accountOptions = [
    { value: ALL, label: t('home.all') },
    ...(accounts.data ?? []).map((a) => ({ value: a.id, label: a.name })),
  ];
  const bptOptions = [
    { value: ALL, label: t('home.all') },
    ...(bpts.data ?? [])
      .filter((b) => account === ALL || b.accountId === account)
      .map((b) => ({ value: b.id, label: b.name })),
  ];
  const data = close.data;
  const rows: Row[] = [];
  if (data) {
    rows.push({ key: 'total', label: t('terminal.total'), figures: data.totals, strong: true });
    for (const a of data.byAccount) {
      rows.push({ key: a.accountId, label: a.name, figures: a.figures, strong: true });
      for (const b of a.byBpt) {
        rows.push({
          key: `${a.accountId}-${b.bptId}`,
          label: <Text pl="md">{b.bptId ? b.name : t('close.none')}</Text>,
          figures: b.figures,
        });
      }
    }
  }
  const download = async (format: 'csv' | 'pdf') => {
    if (!filter) return;
    setCsv('running');
    try {
      setCsv(await downloadClose(filter, format, i18n.language as Language));
    } catch (error) {
      console.error(error);
      setCsv('failed');
    }
  };

  return (
    <Stack gap="lg">
      <Group justify="space-between" align="flex-start" wrap="wrap" gap="sm">
        <ScreenTitle titleKey="pageTitles.close" />
        <Stack gap={4} align="flex-end">
          <Button
            leftSection={<IconDownload size={16} />}
            variant="light"
            onClick={() => download('csv')}
            loading={csv === 'running'}
            disabled={!filter}
          >
            {t('home.csv.download')}
          </Button>
          <Button
            leftSection={<IconDownload size={16} />}
            variant="light"
            onClick={() => download('pdf')}
            loading={csv === 'running'}
            disabled={!filter}
          >
            {t('receipt.pdf')}
          </Button>
          <Text size="xs" c={csv === 'failed' ? 'red' : 'dimmed'} aria-live="polite" data-testid="close-csv-state">
            {csv === 'failed' ? t('home.csv.failed') : csv === 'idle' || csv === 'running' ? '' : csv}
          </Text>
        </Stack>
      </Group>
      <Group align="flex-end" wrap="wrap" gap="sm">
        <TextInput
          type="date"
          label={t('close.day')}
          value={day ?? ''}
          onChange={(event) => setDay(event.currentTarget.value || null)}
        />
        <NativeSelect
          label={t('home.account')}
          data={accountOptions}
          value={account}
          onChange={(event) => {
            setAccount(event.currentTarget.value);
            setBpt(ALL);
          }}
        />
        <NativeSelect
          label={t('pages.terminal')}
          data={bptOptions}
          value={bpt}
          onChange={(event) => setBpt(event.currentTarget.value)}
        />
      </Group>
      {data && (
        <Text size="sm" c="dimmed">
          {data.timeZone}
        </Text>
      )}
      {close.isError && <Alert color="red">{errorMessage(t, close.error)}</Alert>}
      {data && (
        <>
          <FiguresTable rows={rows} currency={data.currency} />
          <Title order={2} size="h4">
            {t('close.method')}
          </Title>
          <FiguresTable
            currency={data.currency}
            rows={(['lightning', 'onchain'] as const).map((method) => ({
              key: method,
              label: t(`checkout.${method}`),
              figures: data.byMethod[method],
            }))}
          />
          <Title order={2} size="h4">
            {t('close.hour')}
          </Title>
          <FiguresTable
            currency={data.currency}
            rows={data.byHour.map((hour) => ({
              key: `${hour.hour}/${hour.fold}`,
              label: closeHourLabel(hour, { first: t('close.firstRun'), second: t('close.secondRun') }),
              figures: hour.figures,
            }))}
          />
        </>
      )}
      {session.role === 'admin' && <Schedules accounts={accountOptions} />}
    </Stack>
  );
}
