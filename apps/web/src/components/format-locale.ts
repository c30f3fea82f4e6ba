import type { Language } from '@rayo/shared';
import { isOrganizationMember } from '@rayo/shared';
import { createContext, useContext } from 'react';
import { useCurrentOrganization } from '../api/dashboard.ts';
import { useTranslation } from '../i18n/index.ts';
import { useSession } from '../session/use-session.ts';

/**
 * The locale numbers, money and dates are written in: Spanish as it is written in the
 * organization's country (es-GT and es-MX write 2,321.94; es-ES writes 2321,94), not Spain's
 * by default. English keeps its own (en, which writes 2,321.94). Without a country, the
 * language alone.
 */
export function formatLocale(language: Language, countryCode: string | null | undefined): string {
  if (language === 'en' || !countryCode || !/^[A-Z]{2}$/.test(countryCode)) return language;
  return `${language}-${countryCode}`;
}

/**
 * The country whose numbers a screen writes, when the screen knows it without a session: the
 * shareable terminal names its organization's. Undefined elsewhere.
 */
export const FormatCountryContext = createContext<string | null | undefined>(undefined);

/**
 * `formatLocale` for the screen: the user's language, and the country the screen names or else
 * the signed-in user's organization's. Back office and visitors without a session have no
 * organization, so they get the language alone.
 */
export function useFormatLocale(): string {
  const { i18n } = useTranslation();
  const named = useContext(FormatCountryContext);
  const { accessToken, role } = useSession();
  const member = accessToken !== null && isOrganizationMember(role);
  const organization = useCurrentOrganization({ enabled: member && named === undefined });
  const country = named !== undefined ? named : member ? organization.data?.countryCode : null;
  return formatLocale(i18n.language as Language, country);
}
