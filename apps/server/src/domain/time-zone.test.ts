import { describe, expect, it } from 'vitest';
import { defaultTimeZoneOf } from './time-zone.ts';

describe('defaultTimeZoneOf', () => {
  it('takes the zone most people keep in a country of several zones', () => {
    expect(defaultTimeZoneOf('MX')).toBe('America/Mexico_City');
    expect(defaultTimeZoneOf('us')).toBe('America/New_York');
    expect(defaultTimeZoneOf('BR')).toBe('America/Sao_Paulo');
    expect(defaultTimeZoneOf('AR')).toBe('America/Argentina/Buenos_Aires');
  });

  it("takes a one-zone country's only zone", () => {
    expect(defaultTimeZoneOf('GT')).toBe('America/Guatemala');
    expect(defaultTimeZoneOf('CO')).toBe('America/Bogota');
  });

  it('falls back to UTC without a known country', () => {
    expect(defaultTimeZoneOf(null)).toBe('UTC');
    expect(defaultTimeZoneOf('')).toBe('UTC');
    expect(defaultTimeZoneOf('not a country')).toBe('UTC');
  });

  it('gives every main zone a name the runtime knows', () => {
    for (const code of ['AR', 'AU', 'BR', 'CA', 'CL', 'EC', 'ES', 'MX', 'PT', 'US']) {
      expect(() => new Intl.DateTimeFormat('en', { timeZone: defaultTimeZoneOf(code) })).not.toThrow();
    }
  });
});
