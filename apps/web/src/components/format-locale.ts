import { formatLocale, isOrganizationMember, type Language } from '@rayo/shared';
import { createContext, useContext } from 'react';
import { useCurrentOrganization } from '../api/dashboard.ts';
import { useTranslation } from '../i18n/index.ts';
import { useSession } from '../session/use-session.ts';

export { formatLocale };

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
