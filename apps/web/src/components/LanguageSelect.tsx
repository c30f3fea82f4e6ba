import { SegmentedControl } from '@mantine/core';
import type { Language } from '@rayo/shared';
import { useTranslation } from '../i18n/index.ts';
import { sessionStore } from '../session/session-store.ts';
import { useSession } from '../session/use-session.ts';

export function LanguageSelect() {
  const { t } = useTranslation();
  const { language } = useSession();
  return (
    <SegmentedControl
      size="xs"
      aria-label={t('language.label')}
      value={language}
      onChange={(value) => sessionStore.chooseLanguage(value as Language)}
      data={[
        { value: 'en', label: t('language.en') },
        { value: 'es', label: t('language.es') },
      ]}
    />
  );
}
