import { isOrganizationMember } from '@rayo/shared';
import { createContext, useContext, useMemo } from 'react';
import { useCurrentOrganization } from '../api/dashboard.ts';
import { useSession } from '../session/use-session.ts';
import { useFormatLocale } from './format-locale.ts';

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

/**
 * One date style per language: every screen writes a day the same way ("Nov 27, 2026",
 * "27 nov 2026"), with or without the time of day; none writes the short numeric form (11/27/26),
 * which reads differently in each country.
 */
export type DateTimeStyle = 'dateTime' | 'dateTimeSeconds' | 'date';

const styles: Record<DateTimeStyle, Intl.DateTimeFormatOptions> = {
  dateTime: { dateStyle: 'medium', timeStyle: 'short' },
  dateTimeSeconds: { dateStyle: 'medium', timeStyle: 'medium' },
  date: { dateStyle: 'medium' },
};

/**
 * A formatter of instants (ISO text, epoch ms or a Date) in a zone. With `showZone`, a time
 * carries the zone's name ("10:30 UTC"), for screens whose zone is not the reader's organization's.
 */
export function dateTimeFormatter(
  locale: string,
  timeZone: string,
  style: DateTimeStyle = 'dateTime',
  showZone = false,
): (value: string | number | Date) => string {
  const options = styles[style];
  const withZone = showZone && style !== 'date';
  // dateStyle/timeStyle cannot be combined with timeZoneName, so the zone is appended.
  const format = new Intl.DateTimeFormat(locale, { ...options, timeZone });
  const zone = withZone
    ? new Intl.DateTimeFormat(locale, { timeZone, timeZoneName: 'short' })
        .formatToParts(0)
        .find((part) => part.type === 'timeZoneName')?.value
    : undefined;
  return (value) => {
    const text = format.format(typeof value === 'string' ? new Date(value) : value);
    return zone ? `${text} ${zone}` : text;
  };
}

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
