import { Alert, Button, Group, Stack, Text } from '@mantine/core';
import { DatePickerInput, type DatesRangeValue } from '@mantine/dates';
import 'dayjs/locale/es';
import { IconDownload } from '@tabler/icons-react';
import { useState } from 'react';
import { downloadAuditCsv } from '../../api/back-office.ts';
import { errorMessage } from '../../api/error-messages.ts';
import { useTranslation } from '../../i18n/index.ts';
import { auditPeriod } from './audit-period.ts';

function day(value: string | Date | null): string | null {
  if (value === null) return null;
  return typeof value === 'string' ? value.slice(0, 10) : value.toISOString().slice(0, 10);
}

/** The audit log of a chosen period, as a CSV file. */
export function AuditPanel() {
  const { t, i18n } = useTranslation();
  const [range, setRange] = useState<DatesRangeValue>([null, null]);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const from = day(range[0]);
  const to = day(range[1]);
  const period = from && to ? auditPeriod(from, to) : null;

  const download = async () => {
    if (!period) return;
    setBusy(true);
    setError(null);
    try {
      await downloadAuditCsv(period.start, period.end);
    } catch (failure) {
      setError(errorMessage(t, failure));
    } finally {
      setBusy(false);
    }
  };

  return (
    <Stack gap="sm" maw={420}>
      <Text size="sm" c="dimmed">
        {t('backOffice.audit.description')}
      </Text>
      <DatePickerInput
        type="range"
        label={t('backOffice.audit.period')}
        placeholder={t('home.customRangePlaceholder')}
        locale={i18n.language}
        ariaLabels={{
          previousMonth: t('home.calendar.previousMonth'),
          nextMonth: t('home.calendar.nextMonth'),
          previousYear: t('home.calendar.previousYear'),
          nextYear: t('home.calendar.nextYear'),
          previousDecade: t('home.calendar.previousDecade'),
          nextDecade: t('home.calendar.nextDecade'),
        }}
        value={range}
        onChange={setRange}
        maxDate={new Date()}
        clearable
        error={from && to && !period ? t('backOffice.audit.invalidRange') : undefined}
      />
      {error && (
        <Alert color="red" role="alert">
          {error}
        </Alert>
      )}
      <Group>
        <Button leftSection={<IconDownload size={16} />} disabled={!period} loading={busy} onClick={download}>
          {t('backOffice.audit.download')}
        </Button>
      </Group>
    </Stack>
  );
}
