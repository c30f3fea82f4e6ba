import { Box, Button, Container, List, Paper, Stack, Title } from '@mantine/core';
import { useEffect } from 'react';
import { usePublicConfig } from '../api/catalog.ts';
import { Logo } from '../components/Logo.tsx';
import { PageOutlet } from '../components/PageOutlet.tsx';
import { useTranslation } from '../i18n/index.ts';

type EcwidAppSdk = { init: (options: { app_id: string; autoloadedflag: boolean; autoheight: boolean }) => void };

const SDK_SCRIPT_ID = 'ecwid-app-sdk';
const SDK_STYLE_ID = 'ecwid-app-css';

/**
 * Loads Ecwid's app SDK and stylesheet from the configured addresses (the server's CSP allows
 * exactly their origins on this page) and starts the SDK so that the Ecwid admin sizes the
 * frame. Without them (blocked, offline, opened outside Ecwid) the page works the same.
 */
function useEcwidSdk() {
  const config = usePublicConfig().data?.ecwid;
  useEffect(() => {
    if (!config) return;
    if (!document.getElementById(SDK_STYLE_ID)) {
      const link = document.createElement('link');
      link.id = SDK_STYLE_ID;
      link.rel = 'stylesheet';
      link.href = config.cssUrl;
      document.head.appendChild(link);
    }
    if (!document.getElementById(SDK_SCRIPT_ID)) {
      const script = document.createElement('script');
      script.id = SDK_SCRIPT_ID;
      script.src = config.sdkUrl;
      script.async = true;
      script.onload = () => {
        const sdk = (window as { EcwidApp?: EcwidAppSdk }).EcwidApp;
        sdk?.init({ app_id: config.appId, autoloadedflag: true, autoheight: true });
      };
      document.head.appendChild(script);
    }
  }, [config]);
}

/** SPEC §2 Ecwid app settings layout: the Ecwid SDK and styles, the heading, Open App and four setup steps. */
export function EcwidLayout() {
  const { t } = useTranslation();
  useEcwidSdk();
  return (
    <Container size="sm" py="lg">
      <Box mb="lg">
        <Logo />
      </Box>
      <Title order={1} size="h2" mb="md">
        {t('ecwid.heading')}
      </Title>
      <Stack gap="lg">
        <Box>
          {/* Rayo's dashboard does not run inside the Ecwid admin's frame: it opens on its own. */}
          <Button component="a" href="/" target="_blank" rel="noopener">
            {t('ecwid.openApp')}
          </Button>
        </Box>
        <Paper withBorder p={{ base: 'md', sm: 'xl' }} component="section" aria-labelledby="ecwid-steps">
          <Title order={2} size="h4" id="ecwid-steps" mb="sm">
            {t('ecwid.stepsTitle')}
          </Title>
          <List type="ordered" spacing="xs" size="sm">
            <List.Item>{t('ecwid.step1')}</List.Item>
            <List.Item>{t('ecwid.step2')}</List.Item>
            <List.Item>{t('ecwid.step3')}</List.Item>
            <List.Item>{t('ecwid.step4')}</List.Item>
          </List>
        </Paper>
        <PageOutlet />
      </Stack>
    </Container>
  );
}
