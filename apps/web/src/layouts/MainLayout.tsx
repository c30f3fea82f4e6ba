import { AppShell, Burger, Group, NavLink, ScrollArea } from '@mantine/core';
import { useDisclosure, useMediaQuery } from '@mantine/hooks';
import { MOBILE_MAX_WIDTH_PX } from '@rayo/shared';
import { IconExternalLink, IconFlask, IconHelp, IconLogout } from '@tabler/icons-react';
import { logout } from '../api/auth.ts';
import { usePublicConfig } from '../api/catalog.ts';
import { Logo } from '../components/Logo.tsx';
import { notifications } from '../components/notifications.ts';
import { PageOutlet } from '../components/PageOutlet.tsx';
import { useTranslation } from '../i18n/index.ts';
import { OnboardingRedirect } from '../session/OnboardingRedirect.tsx';
import { useSession } from '../session/use-session.ts';
import { BlockedBanner } from './BlockedBanner.tsx';
import { NavLinks } from './nav-links.tsx';
import { MAIN_CONTENT_ID, SkipLink } from './SkipLink.tsx';

const HEADER_HEIGHT = 60;

function ContactUs() {
  const { t } = useTranslation();
  const config = usePublicConfig();
  const copy = async () => {
    if (!config.data) return;
    try {
      await navigator.clipboard.writeText(config.data.supportEmail);
      notifications.show({ message: t('nav.emailCopied'), color: 'teal' });
    } catch {
      // The browser refused the clipboard: the address is what the user came for, so show it.
      notifications.show({
        message: t('nav.emailNotCopied', { email: config.data.supportEmail }),
        color: 'blue',
      });
    }
  };
  return (
    <NavLink
      component="button"
      onClick={copy}
      // Until the public configuration arrives there is no address to copy; a click then
      // would do nothing at all.
      disabled={!config.data}
      label={t('nav.help')}
      title={config.data?.supportEmail}
      leftSection={<IconHelp size={20} stroke={1.6} />}
      c="dimmed"
    />
  );
}

/** On a devnet server, the wallet that pays test invoices, in its own tab beside the terminal. */
function DevnetWalletLink() {
  const { t } = useTranslation();
  const config = usePublicConfig();
  if (!config.data?.devnet) return null;
  return (
    <NavLink
      href="/devnet/wallet"
      target="_blank"
      rel="noopener"
      label={t('nav.devnetWallet')}
      leftSection={<IconFlask size={18} stroke={1.6} />}
      rightSection={<IconExternalLink size={14} stroke={1.6} />}
      c="dimmed"
      fz="sm"
    />
  );
}

/** Sidebar on wide screens; below the mobile width (SPEC §9) a top bar whose menu opens below it. */
export function MainLayout() {
  const { t } = useTranslation();
  const { role } = useSession();
  const [menuOpen, menu] = useDisclosure(false);
  const isMobile = useMediaQuery(`(max-width: ${MOBILE_MAX_WIDTH_PX - 0.02}px)`);
  if (!role) return null;
  return (
    <AppShell
      header={{ height: HEADER_HEIGHT, collapsed: !isMobile }}
      navbar={{ width: 260, breakpoint: 'sm', collapsed: { mobile: !menuOpen } }}
      padding="lg"
    >
      <SkipLink />
      {isMobile && (
        <AppShell.Header px="md">
          <Group h="100%" justify="space-between">
            <Logo size={28} />
            <Burger opened={menuOpen} onClick={menu.toggle} aria-label={t('nav.menu')} size="sm" />
          </Group>
        </AppShell.Header>
      )}
      <AppShell.Navbar p="md">
        <AppShell.Section visibleFrom="sm" mb="lg">
          <Logo />
        </AppShell.Section>
        <AppShell.Section grow component={ScrollArea}>
          <nav aria-label="Main">
            <NavLinks role={role} onNavigate={menu.close} />
          </nav>
        </AppShell.Section>
        <AppShell.Section>
          <DevnetWalletLink />
          <ContactUs />
          <NavLink
            component="button"
            onClick={logout}
            label={t('nav.logout')}
            leftSection={<IconLogout size={20} stroke={1.6} />}
          />
        </AppShell.Section>
      </AppShell.Navbar>
      <AppShell.Main id={MAIN_CONTENT_ID} tabIndex={-1} style={{ outline: 'none' }}>
        {role === 'admin' && <OnboardingRedirect />}
        <BlockedBanner />
        <PageOutlet />
      </AppShell.Main>
    </AppShell>
  );
}
