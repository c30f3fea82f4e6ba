import { type DateTimeStyle, dateTimeFormatter, isOrganizationMember } from '@rayo/shared';
import { createContext, useContext, useMemo } from 'react';
import { useCurrentOrganization } from '../api/dashboard.ts';
import { useSession } from '../session/use-session.ts';
import { useFormatLocale } from './format-locale.ts';

export { type DateTimeStyle, dateTimeFormatter };

/**
 * Every time Rayo shows is read on the organization's clock (DESIGN §9): a sale made at 23:30 in
 * Guatemala is the 15th's sale, whether the merchant looks from Madrid or from a laptop still set
 * to UTC. Screens that know their organization without a session (the shared terminal, a back
 * office page about one organization) name its zone with `TimeZoneContext`; elsewhere it is the
 * signed-in member's organization's. Back office lists across organizations have no
 * organization: they show UTC and say so.
 */
export const TimeZoneContext = createContext<string | undefined>(undefined);

/** The zone times are shown in when no organization names one. */
export const FALLBACK_TIME_ZONE = 'UTC';

/** The zone of the screen: the one it names, else the signed-in member's organization's, else UTC. */
export function useTimeZone(): { timeZone: string; isOrganizations: boolean } {
  const named = useContext(TimeZoneContext);
  const { accessToken, role } = useSession();
  const member = accessToken !== null && isOrganizationMember(role);
  const organization = useCurrentOrganization({ enabled: member && named === undefined });
  const timeZone = named ?? (member ? organization.data?.timeZone : undefined);
  return timeZone ? { timeZone, isOrganizations: true } : { timeZone: FALLBACK_TIME_ZONE, isOrganizations: false };
}

/** `dateTimeFormatter` for the screen: its locale and its organization's zone. */
export function useDateTimeFormat(style: DateTimeStyle = 'dateTime'): (value: string | number | Date) => string {
  const locale = useFormatLocale();
  const { timeZone, isOrganizations } = useTimeZone();
  return useMemo(
    () => dateTimeFormatter(locale, timeZone, style, !isOrganizations),
    [locale, timeZone, style, isOrganizations],
  );
}
