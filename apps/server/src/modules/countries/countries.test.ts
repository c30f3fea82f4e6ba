import type { Country } from '@rayo/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/test-app.ts';

describe('GET /api/countries', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t?.close());

  it('lists every country without sign-in, sorted by name', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/api/countries' });
    expect(response.statusCode).toBe(200);
    const countries = response.json<Country[]>();
    expect(countries).toHaveLength(249);
    for (const country of countries) {
      expect(country).toEqual({
        id: expect.any(Number),
        name: expect.any(String),
        code: expect.stringMatching(/^[A-Z]{2}$/),
      });
    }
    expect(countries).toContainEqual({ id: expect.any(Number), name: 'Guatemala', code: 'GT' });
    expect(new Set(countries.map((country) => country.code)).size).toBe(249);

    const names = countries.map((country) => country.name);
    expect(names).toEqual([...names].sort(new Intl.Collator('en').compare));
  });
});
