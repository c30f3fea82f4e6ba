import { NavLink } from '@mantine/core';
import { type NavEntry, navByRole, navHighlightOf, type Role } from '@rayo/shared';
import {
  IconAdjustments,
  IconBuildingBank,
  IconDeviceMobile,
  IconHome,
  IconPlugConnected,
  IconShieldCheck,
  IconUsers,
} from '@tabler/icons-react';
import { Link } from 'react-router';
import { useRouteNames } from '../components/NamedRoutes.tsx';
import { useTranslation } from '../i18n/index.ts';
import { navPaths } from '../session/routes.ts';

const icons: Record<NavEntry, typeof IconHome> = {
  index: IconHome,
  settings: IconAdjustments,
  accounts: IconBuildingBank,
  bpts: IconDeviceMobile,
  integrations: IconPlugConnected,
  managers: IconUsers,
  'back-office': IconShieldCheck,
};

/**
 * SPEC §2's detail routes, plus the routes the design adds under an entry: the signed-in
 * terminal of a BPT belongs to BPTs.
 */
const highlightOf: Record<string, NavEntry> = { ...navHighlightOf, 'bpt-terminal-signed-in': 'bpts' };

/** The sidebar entry the current route belongs to, from the route's `handle.name` (SPEC §2). */
function useActiveEntry(): NavEntry | undefined {
  const names = useRouteNames();
  for (const name of [...names].reverse()) {
    if (name in navPaths) return name as NavEntry;
    if (highlightOf[name]) return highlightOf[name];
  }
  return undefined;
}

export function NavLinks({ role, onNavigate }: { role: Role; onNavigate?: () => void }) {
  const { t } = useTranslation();
  const active = useActiveEntry();
  return navByRole[role].map((entry) => {
    const Icon = icons[entry];
    return (
      <NavLink
        key={entry}
        component={Link}
        to={navPaths[entry]}
        label={t(`nav.${entry}`)}
        leftSection={<Icon size={20} stroke={1.6} />}
        active={entry === active}
        aria-current={entry === active ? 'page' : undefined}
        data-nav={entry}
        onClick={onNavigate}
      />
    );
  });
}
