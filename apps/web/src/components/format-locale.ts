import type { Language } from '@rayo/shared';
import { isOrganizationMember } from '@rayo/shared';
import { createContext, useContext } from 'react';
import { useCurrentOrganization } from '../api/dashboard.ts';
import { useTranslation } from '../i18n/index.ts';
import { useSession } from '../session/use-session.ts';

/**
 * The locale numbers, money and dates are written in: Spanish as it is written in the
 * organization's country (es-GT and es-MX write 2,321.94; es-ES writes 2321,94), not Spain's
 * by default. English keeps its own (en, which writes 2,321.94). Without a country (back
 * office, a visitor), Spanish as Latin America writes it (es-419: "MXN 41,615.38"), as the
 * organizations it serves do, rather than Spain's "41.615,38 MXN" beside them.
 */
export function formatLocale(language: Language, countryCode: string | null | undefined): string {
  if (language === 'en') return language;
  if (!countryCode || !/^[A-Z]{2}$/.test(countryCode)) return LATIN_AMERICAN_SPANISH;
  return `${language}-${countryCode}`;
}

const LATIN_AMERICAN_SPANISH = 'es-419';

/**
 * The country whose numbers a screen writes, when the screen knows it without a session: the
 * shareable terminal names its organization's. Undefined elsewhere.
 */
export const FormatCountryContext = createContext<string | null | undefined>(undefined);

/**
 * `formatLocale` for the screen: the user's language, and the country the screen names or else
 * the signed-in user's organization's. Back office and visitors without a session have no
 * organization, so they get the language's own (es-419 for Spanish).
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
