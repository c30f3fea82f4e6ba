import { Button, Checkbox, Popover, ScrollArea, Stack, Text } from '@mantine/core';
import { IconColumns } from '@tabler/icons-react';
import { useTranslation } from '../../i18n/index.ts';
import { type TransactionColumn, toggleColumn, transactionColumns } from './columns.ts';

/**
 * A drop-down of every column with a checkbox each. It is a popover of real checkboxes rather
 * than a menu, so that it stays open while several columns are picked and each box reads as
 * checked or not to a screen reader.
 */
export function ColumnChooser({
  columns,
  onChange,
}: {
  columns: readonly TransactionColumn[];
  onChange: (columns: TransactionColumn[]) => void;
}) {
  const { t } = useTranslation();
  return (
    <Popover position="bottom-end" shadow="md" withinPortal trapFocus>
      <Popover.Target>
        <Button variant="default" size="xs" leftSection={<IconColumns size={16} />}>
          {t('home.table.columns')}
        </Button>
      </Popover.Target>
      <Popover.Dropdown>
        <Text size="xs" c="dimmed" mb="xs" id="column-chooser-label">
          {t('home.table.chooseColumns')}
        </Text>
        <ScrollArea.Autosize mah={360} type="auto">
          <Stack gap={8} role="group" aria-labelledby="column-chooser-label" pr="sm">
            {transactionColumns.map((column) => {
              const checked = columns.includes(column);
              return (
                <Checkbox
                  key={column}
                  size="xs"
                  label={t(`home.columns.${column}`)}
                  checked={checked}
                  // The last column stays: a table without columns would look like no data.
                  disabled={checked && columns.length === 1}
                  onChange={() => onChange(toggleColumn(columns, column))}
                />
              );
            })}
          </Stack>
        </ScrollArea.Autosize>
      </Popover.Dropdown>
    </Popover>
  );
}
