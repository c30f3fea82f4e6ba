import { Button, SimpleGrid } from '@mantine/core';
import { IconBackspace } from '@tabler/icons-react';
import type { ReactNode } from 'react';
import { useFormatLocale } from '../../components/format-locale.ts';
import { useTranslation } from '../../i18n/index.ts';
import { decimalSeparator, type KeypadKey } from './keypad.ts';

const DIGITS: KeypadKey[] = ['1', '2', '3', '4', '5', '6', '7', '8', '9'];

/**
 * A phone-style keypad that fills its column. The point key is there only when the currency
 * has decimals; otherwise its place goes to 00 and the row below widens.
 */
export function Keypad({ decimals, onKey }: { decimals: boolean; onKey: (key: KeypadKey) => void }) {
  const { t } = useTranslation();
  const locale = useFormatLocale();
  const keys: { key: KeypadKey; label: ReactNode; name?: string; span?: number }[] = [
    ...DIGITS.map((key) => ({ key, label: key })),
    ...(decimals
      ? [
          { key: '.' as const, label: decimalSeparator(locale), name: t('terminal.point') },
          { key: '0' as const, label: '0' },
          { key: '00' as const, label: '00' },
          { key: 'clear' as const, label: t('terminal.clear') },
          { key: 'backspace' as const, label: <IconBackspace size={26} />, name: t('terminal.backspace'), span: 2 },
        ]
      : [
          { key: '00' as const, label: '00' },
          { key: '0' as const, label: '0' },
          { key: 'backspace' as const, label: <IconBackspace size={26} />, name: t('terminal.backspace') },
          { key: 'clear' as const, label: t('terminal.clear'), span: 3 },
        ]),
  ];
  return (
    <SimpleGrid cols={3} spacing="xs" verticalSpacing="xs" role="group" aria-label={t('terminal.keypad')}>
      {keys.map(({ key, label, name, span }) => (
        <Button
          key={key}
          variant="default"
          h={64}
          fz={key === 'clear' ? 'md' : 26}
          fw={500}
          aria-label={name}
          onClick={() => onKey(key)}
          style={span ? { gridColumn: `span ${span}` } : undefined}
          c={key === 'clear' ? 'red.7' : undefined}
        >
          {label}
        </Button>
      ))}
    </SimpleGrid>
  );
}
