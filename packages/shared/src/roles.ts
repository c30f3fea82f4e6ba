import { z } from 'zod';

export const roles = ['super_admin', 'admin', 'manager', 'back_office'] as const;
export const RoleSchema = z.enum(roles);
export type Role = z.infer<typeof RoleSchema>;

/** The sidebar route names of SPEC §2, in the order the sidebar shows them. */
export const navEntries = ['index', 'settings', 'accounts', 'bpts', 'integrations', 'managers', 'back-office'] as const;
export type NavEntry = (typeof navEntries)[number];

/** SPEC §6: which sidebar entries each role sees. */
export const navByRole: Record<Role, readonly NavEntry[]> = {
  super_admin: ['index', 'settings', 'accounts', 'bpts', 'integrations', 'managers', 'back-office'],
  admin: ['index', 'settings', 'accounts', 'bpts', 'integrations', 'managers'],
  back_office: ['back-office'],
  manager: ['index', 'settings', 'accounts', 'bpts', 'integrations'],
};

/** Detail routes that highlight a sidebar entry other than their own (SPEC §2). */
export const navHighlightOf: Record<string, NavEntry> = {
  'back-office-id-infos': 'back-office',
  'back-office-id-transactions': 'back-office',
  'account-links': 'accounts',
  'payment-link-vbpt': 'integrations',
};

/** The route a role lands on after sign-in: its first sidebar entry. */
export function homeEntryOf(role: Role): NavEntry {
  return navByRole[role][0] as NavEntry;
}
