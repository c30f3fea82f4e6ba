import type { Role } from '@rayo/shared';

/**
 * Settings' sections, each at its own address (`/settings/security`), in the order of the side
 * list. `/settings` opens the first. The ids are part of the addresses people bookmark and
 * share, so they do not change with the texts.
 */
export const settingsSections = ['profile', 'security', 'payouts', 'verification', 'branding', 'developers'] as const;
export type SettingsSection = (typeof settingsSections)[number];

/**
 * Back office belongs to no organization, so its Settings hold only what is its own: the
 * profile (password, language) and security (MFA).
 */
const backOfficeSections: readonly SettingsSection[] = ['profile', 'security'];

/** The sections a role's Settings show, in side-list order. */
export function settingsSectionsOf(role: Role | null): readonly SettingsSection[] {
  return role === 'back_office' ? backOfficeSections : settingsSections;
}

export function settingsPath(section: SettingsSection): string {
  return section === settingsSections[0] ? '/settings' : `/settings/${section}`;
}
