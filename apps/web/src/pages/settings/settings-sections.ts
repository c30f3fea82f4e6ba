/**
 * Settings' sections, each at its own address (`/settings/security`), in the order of the side
 * list. `/settings` opens the first. The ids are part of the addresses people bookmark and
 * share, so they do not change with the texts.
 */
export const settingsSections = ['profile', 'security', 'payouts', 'verification', 'branding', 'developers'] as const;
export type SettingsSection = (typeof settingsSections)[number];

export function isSettingsSection(value: string | undefined): value is SettingsSection {
  return settingsSections.includes(value as SettingsSection);
}

export function settingsPath(section: SettingsSection): string {
  return section === settingsSections[0] ? '/settings' : `/settings/${section}`;
}
