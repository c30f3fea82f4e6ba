import { Alert, Paper, SegmentedControl, Stack, Text, Title } from '@mantine/core';
import { type Language, languages } from '@rayo/shared';
import { errorMessage } from '../../api/error-messages.ts';
import { useSaveLanguage } from '../../api/language.ts';
import { notifications } from '../../components/notifications.ts';
import { useTranslation } from '../../i18n/index.ts';
import { sessionStore } from '../../session/session-store.ts';
import { useSession } from '../../session/use-session.ts';

/**
 * Settings → language. The screens switch at once (the session's language drives i18n) and the
 * choice is stored on the user, so every later sign-in answers it; if storing fails, the screens
 * go back to the language the server still has.
 */
export function LanguageSection() {
  const { t, i18n } = useTranslation();
  const { language } = useSession();
  const save = useSaveLanguage();

  const choose = (next: Language) => {
    const previous = language;
    save.reset();
    sessionStore.setLanguage(next);
    save.mutate(next, {
      // Said in the language just chosen: `t` is still the one this screen was rendered in.
      onSuccess: async () =>
        notifications.show({ color: 'teal', message: await i18n.textIn(next, 'settings.language.saved') }),
      onError: () => sessionStore.setLanguage(previous),
    });
  };

  return (
    <Paper withBorder p={{ base: 'md', sm: 'xl' }} maw={560} component="section" aria-labelledby="settings-language">
      <Stack gap="md">
        <div>
          <Title order={2} size="h4" id="settings-language">
            {t('settings.language.title')}
          </Title>
          <Text c="dimmed" size="sm" mt={4}>
            {t('settings.language.description')}
          </Text>
        </div>
        <SegmentedControl
          aria-label={t('settings.language.title')}
          value={language}
          disabled={save.isPending}
          onChange={(value) => choose(value as Language)}
          data={languages.map((code) => ({ value: code, label: t(`language.${code}`) }))}
          style={{ alignSelf: 'flex-start' }}
        />
        {save.isError && (
          <Alert color="red" variant="light" role="alert">
            {errorMessage(t, save.error)}
          </Alert>
        )}
      </Stack>
    </Paper>
  );
}
