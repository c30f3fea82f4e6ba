import {
  DEFAULT_THEME,
  defaultCssVariablesResolver,
  defaultVariantColorsResolver,
  type MantineTheme,
  mergeMantineTheme,
} from '@mantine/core';
import { describe, expect, it } from 'vitest';
import { cssVariablesResolver, theme } from './theme.ts';

// WCAG 2.1 §1.4.3: text needs 4.5:1 against what is behind it.
const AA_TEXT = 4.5;

/** Relative luminance of an sRGB colour written #rgb or #rrggbb, as WCAG 2.1 defines it. */
function relativeLuminance(hex: string): number {
  const match = /^#([0-9a-f]{3}|[0-9a-f]{6})$/i.exec(hex);
  if (!match?.[1]) throw new Error(`not a #rrggbb colour: ${hex}`);
  const digits = match[1].length === 3 ? [...match[1]].map((digit) => digit + digit).join('') : match[1];
  const value = Number.parseInt(digits, 16);
  const [r, g, b] = [value >> 16, (value >> 8) & 0xff, value & 0xff].map((channel) => {
    const c = channel / 255;
    return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  }) as [number, number, number];
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
}

function contrast(a: string, b: string): number {
  const [light, dark] = [relativeLuminance(a), relativeLuminance(b)].sort((x, y) => y - x) as [number, number];
  return (light + 0.05) / (dark + 0.05);
}

const full: MantineTheme = mergeMantineTheme(DEFAULT_THEME, theme);
const ours = cssVariablesResolver(full);
const mantine = defaultCssVariablesResolver(full);
/** The light colour scheme's CSS variables as the page gets them: Mantine's, then ours on top. */
const variables: Record<string, string> = {
  ...mantine.variables,
  ...mantine.light,
  ...ours.variables,
  ...ours.light,
};

/** A CSS colour value with its `var(--…)` references followed to the colour they stand for. */
function resolve(value: string): string {
  const reference = /^var\((--[\w-]+)\)$/.exec(value.trim());
  if (!reference?.[1]) return value.trim().toLowerCase();
  const next = variables[reference[1]];
  if (next === undefined) throw new Error(`no CSS variable ${reference[1]}`);
  return resolve(next);
}

// The colours the app's buttons, badges and alerts are drawn in.
const colors = [...new Set([full.primaryColor, 'red', 'teal', 'green', 'orange', 'gray', 'blue', 'yellow'])];
const white = resolve('var(--mantine-color-white)');
// Panels, striped and hovered rows sit on these light greys.
const pageBackgrounds = [white, full.colors.gray[0], full.colors.gray[1]];

describe('theme contrast (WCAG AA)', () => {
  it.each(colors)('filled %s buttons and badges: their text reads at 4.5:1, also under the pointer', (color) => {
    const filled = defaultVariantColorsResolver({ color, theme: full, variant: 'filled' });
    const text = resolve(filled.color);
    expect(contrast(text, resolve(filled.background))).toBeGreaterThanOrEqual(AA_TEXT);
    expect(contrast(text, resolve(filled.hover))).toBeGreaterThanOrEqual(AA_TEXT);
  });

  it.each(colors)('light %s buttons, badges and alerts: their text reads at 4.5:1', (color) => {
    const light = defaultVariantColorsResolver({ color, theme: full, variant: 'light' });
    const text = resolve(light.color);
    expect(contrast(text, resolve(light.background))).toBeGreaterThanOrEqual(AA_TEXT);
    expect(contrast(text, resolve(light.hover))).toBeGreaterThanOrEqual(AA_TEXT);
    // Subtle buttons (icon buttons) draw the same text colour straight on the page.
    for (const background of pageBackgrounds) expect(contrast(text, background)).toBeGreaterThanOrEqual(AA_TEXT);
  });

  it.each(colors)('outline %s badges and buttons, and text in that colour, read at 4.5:1 on the page', (color) => {
    const outline = defaultVariantColorsResolver({ color, theme: full, variant: 'outline' });
    for (const background of pageBackgrounds) {
      expect(contrast(resolve(outline.color), background)).toBeGreaterThanOrEqual(AA_TEXT);
      expect(contrast(resolve(`var(--mantine-color-${color}-text)`), background)).toBeGreaterThanOrEqual(AA_TEXT);
    }
  });

  it.each(pageBackgrounds)('links, dimmed captions, placeholders and error texts read at 4.5:1 on %s', (background) => {
    const names = [
      '--mantine-color-anchor',
      '--mantine-color-dimmed',
      '--mantine-color-placeholder',
      '--mantine-color-error',
    ];
    for (const name of names) {
      expect(contrast(resolve(`var(${name})`), background), name).toBeGreaterThanOrEqual(AA_TEXT);
    }
  });

  it('the primary colour stays Rayo’s orange: its filled shade is the logo’s warm yellow-orange', () => {
    const filled = resolve(
      defaultVariantColorsResolver({ color: full.primaryColor, theme: full, variant: 'filled' }).background,
    );
    expect(full.colors[full.primaryColor]?.[7]).toBe(filled);
    const value = Number.parseInt(filled.slice(1), 16);
    const [r, g, b] = [value >> 16, (value >> 8) & 0xff, value & 0xff];
    // Red high, blue low, green between: an orange, not a brown or a red.
    expect(r).toBeGreaterThan(0xe0);
    expect(b).toBeLessThan(0x40);
    expect(g).toBeGreaterThan(0x80);
  });
});
