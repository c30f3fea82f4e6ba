/**
 * Where a country spans several zones, the one most of its people and businesses keep: ICU
 * lists a country's zones alphabetically, which would put Mexico on Bahía de Banderas and the
 * United States on Adak.
 */
const MAIN_TIME_ZONE: Readonly<Record<string, string>> = {
  AR: 'America/Argentina/Buenos_Aires',
  AU: 'Australia/Sydney',
  BR: 'America/Sao_Paulo',
  CA: 'America/Toronto',
  CL: 'America/Santiago',
  EC: 'America/Guayaquil',
  ES: 'Europe/Madrid',
  MX: 'America/Mexico_City',
  PT: 'Europe/Lisbon',
  US: 'America/New_York',
};

/**
 * The time zone an organization's periods default to: the country's main zone, else the first
 * zone ICU lists for it, UTC when the country has none or is unknown.
 */
export function defaultTimeZoneOf(countryCode: string | null | undefined): string {
  if (!countryCode) return 'UTC';
  const code = countryCode.toUpperCase();
  const main = MAIN_TIME_ZONE[code];
  if (main) return main;
  try {
    const locale = new Intl.Locale(`und-${code}`) as Intl.Locale & { getTimeZones?: () => string[] | undefined };
    return locale.getTimeZones?.()?.[0] ?? 'UTC';
  } catch {
    return 'UTC';
  }
}
