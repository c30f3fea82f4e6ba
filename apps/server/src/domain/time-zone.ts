/**
 * The time zone an organization's periods default to: the first zone ICU lists for its country,
 * UTC when the country has none or is unknown.
 */
export function defaultTimeZoneOf(countryCode: string | null | undefined): string {
  if (!countryCode) return 'UTC';
  try {
    const locale = new Intl.Locale(`und-${countryCode.toUpperCase()}`) as Intl.Locale & {
      getTimeZones?: () => string[] | undefined;
    };
    return locale.getTimeZones?.()?.[0] ?? 'UTC';
  } catch {
    return 'UTC';
  }
}
