import { Button, Group, Progress, Stack, Text } from '@mantine/core';
import { IconDownload } from '@tabler/icons-react';
import { useState } from 'react';
import {
  type DashboardFilter,
  downloadTransactionsCsv,
  type SaleNarrowing,
  useTransactionPage,
} from '../../api/dashboard.ts';
import { useFormatLocale } from '../../components/format-locale.ts';
import { useTranslation } from '../../i18n/index.ts';

type State =
  | { kind: 'idle' }
  | { kind: 'running'; rows: number }
  | { kind: 'done'; rows: number; file: string }
  | { kind: 'failed' };

/**
 * Downloads the filtered period as CSV. The expected row count is the table's total for the
 * same filter (already cached), so the bar shows how far along the stream is.
 */
export function CsvDownload({ filter, narrowing }: { filter: DashboardFilter | null; narrowing: SaleNarrowing }) {
  const { t } = useTranslation();
  const locale = useFormatLocale();
  const [state, setState] = useState<State>({ kind: 'idle' });
  const expected = useTransactionPage(filter, 1, 10, undefined, narrowing).data?.total ?? 0;
  const number = new Intl.NumberFormat(locale);

  const download = async () => {
    if (!filter) return;
    setState({ kind: 'running', rows: 0 });
    try {
      const result = await downloadTransactionsCsv(filter, narrowing, (progress) =>
        setState({ kind: 'running', rows: progress.rows }),
      );
      setState({ kind: 'done', ...result });
    } catch (error) {
      console.error(error);
      setState({ kind: 'failed' });
    }
  };

  const running = state.kind === 'running';
  return (
    <Stack gap={4} miw={200} align="flex-end">
      <Button
        leftSection={<IconDownload size={16} />}
        onClick={download}
        loading={running}
        disabled={!filter}
        variant="light"
      >
        {t('home.csv.download')}
      </Button>
      <Group gap="xs" aria-live="polite" w="100%" justify="flex-end">
        {running && (
          <Stack gap={2} w="100%">
            <Progress
              value={expected > 0 ? Math.min(100, (state.rows / expected) * 100) : 100}
              animated={expected === 0}
              size="sm"
              aria-label={t('home.csv.downloading', { rows: number.format(state.rows) })}
            />
            <Text size="xs" c="dimmed" ta="right">
              {t('home.csv.downloading', { rows: number.format(state.rows) })}
            </Text>
          </Stack>
        )}
        {state.kind === 'done' && (
          <Text size="xs" c="dimmed" data-testid="csv-done">
            {t('home.csv.done', { rows: number.format(state.rows), file: state.file })}
          </Text>
        )}
        {state.kind === 'failed' && (
          <Text size="xs" c="red">
            {t('home.csv.failed')}
          </Text>
        )}
      </Group>
    </Stack>
  );
}
