import { MantineProvider } from '@mantine/core';
import { type ReactNode, useMemo } from 'react';
import { useTranslation } from '../i18n/index.ts';
import { cssVariablesResolver, localizedTheme } from '../theme.ts';

/** Mantine with Rayo's theme, its icon buttons named in the language shown. */
export function ThemeProvider({ children }: { children: ReactNode }) {
  const { t } = useTranslation();
  const theme = useMemo(() => localizedTheme(t), [t]);
  return (
    <MantineProvider theme={theme} cssVariablesResolver={cssVariablesResolver}>
      {children}
    </MantineProvider>
  );
}
