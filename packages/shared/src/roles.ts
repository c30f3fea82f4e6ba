// Free of zod, as every module the web app runs before its first screen is: the role's schema
// lives with the bodies that carry it (auth.ts).

export const roles = ['super_admin', 'admin', 'manager', 'back_office'] as const;
export type Role = (typeof roles)[number];

/** Whether a stored or received value names a role. */
export function isRole(value: unknown): value is Role {
  return (roles as readonly unknown[]).includes(value);
}

/** The organization's people: everyone but back office, which belongs to no organization. */
export const organizationRoles = ['super_admin', 'admin', 'manager'] as const satisfies readonly Role[];
/** SPEC §6: only an administrator changes settings, adds accounts and assigns BPTs; managers view. */
export const adminRoles = ['super_admin', 'admin'] as const satisfies readonly Role[];
/** SPEC §2 Back office: its staff and the super admin, across every organization. */
export const backOfficeRoles = ['super_admin', 'back_office'] as const satisfies readonly Role[];

/** Whether the role may change what the server's table gives to `adminRoles`; the web hides the controls otherwise. */
export function canChangeOrganization(role: Role | null): boolean {
  return role !== null && (adminRoles as readonly Role[]).includes(role);
}

export function isOrganizationMember(role: Role | null): boolean {
  return role !== null && (organizationRoles as readonly Role[]).includes(role);
}

export function isBackOfficeRole(role: Role | null): boolean {
  return role !== null && (backOfficeRoles as readonly Role[]).includes(role);
}

/** The sidebar route names of SPEC §2, in the order the sidebar shows them. */
export const navEntries = ['index', 'settings', 'accounts', 'bpts', 'integrations', 'managers', 'back-office'] as const;
export type NavEntry = (typeof navEntries)[number];

/**
 * SPEC §6: which sidebar entries each role sees, the role's home first. Back office also gets
 * Settings, for its own password, language and MFA (a departure, docs/decisions/0003-settings-for-back-office.md).
 */
export const navByRole: Record<Role, readonly NavEntry[]> = {
  super_admin: ['index', 'settings', 'accounts', 'bpts', 'integrations', 'managers', 'back-office'],
  admin: ['index', 'settings', 'accounts', 'bpts', 'integrations', 'managers'],
  back_office: ['back-office', 'settings'],
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
