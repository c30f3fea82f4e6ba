import {
  type CSSVariablesResolver,
  createTheme,
  DEFAULT_THEME,
  type DefaultMantineColor,
  type MantineColorsTuple,
  type MantineThemeOverride,
  mergeThemeOverrides,
} from '@mantine/core';
import { MOBILE_MAX_WIDTH_PX } from '@rayo/shared';
import type { TFunction } from './i18n/index.ts';

const px = (value: number) => `${value / 16}em`;

/** Mantine's palette with some shades replaced. */
function palette(name: DefaultMantineColor, shades: Record<number, string>): MantineColorsTuple {
  const shadesOf: readonly string[] = DEFAULT_THEME.colors[name] ?? [];
  return shadesOf.map((shade, index) => shades[index] ?? shade) as unknown as MantineColorsTuple;
}

// WCAG AA asks 4.5:1 for text. Shade 9 is the text of light badges, alerts and buttons, drawn on
// shades 1 and 2: Mantine's are too pale for that, so each is darkened until it reads.
const colors = {
  yellow: palette('yellow', { 9: '#a35400' }),
  orange: palette('orange', { 9: '#ab390c' }),
  teal: palette('teal', { 9: '#077050' }),
  green: palette('green', { 9: '#237133' }),
  // Red and blue fill buttons with white text: their filled shade (7) and its hover (8) are dark
  // enough for it.
  red: palette('red', { 7: '#c92a2a', 8: '#af2525', 9: '#962020' }),
  blue: palette('blue', { 7: '#1971c2', 8: '#1864ab', 9: '#165b9c' }),
};

export const theme = createTheme({
  // Rayo's orange, as in the logo; buttons filled with it carry dark text, as the logo's bolt sits on dark.
  primaryColor: 'yellow',
  primaryShade: { light: 7, dark: 5 },
  colors,
  // A filled colour gets black or white text, whichever contrasts more: below this luminance
  // white does, above it black (both then reach at least 4.58:1).
  autoContrast: true,
  luminanceThreshold: 0.179,
  defaultRadius: 'md',
  components: {
    // A link inside a sentence is told apart by more than its colour (WCAG 1.4.1).
    Anchor: { defaultProps: { underline: 'always' } },
  },
  fontFamily: 'system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif',
  // `sm` is the mobile breakpoint of SPEC §9: below it the sidebar becomes a top menu.
  breakpoints: { xs: px(576), sm: px(MOBILE_MAX_WIDTH_PX), md: px(1100), lg: px(1280), xl: px(1440) },
});

/** Captions and placeholders: still a step quieter than the text, but legible (6:1 on white). */
const DIMMED_TEXT = '#5c636a';

/** The colours whose filled shade (7) is too light for text on white: their text is shade 9. */
const BRIGHT_COLORS = ['yellow', 'orange', 'teal', 'green'] as const;

/**
 * Links, dimmed text and field errors, which Mantine draws in shades too pale to read on white;
 * and the text (`c="teal"`) and outline badges and buttons of the bright colours.
 */
export const cssVariablesResolver: CSSVariablesResolver = (resolved) => ({
  variables: {},
  light: {
    '--mantine-color-anchor': `var(--mantine-color-${resolved.primaryColor}-9)`,
    '--mantine-color-dimmed': DIMMED_TEXT,
    '--mantine-color-placeholder': DIMMED_TEXT,
    '--mantine-color-error': 'var(--mantine-color-red-8)',
    ...Object.fromEntries(
      BRIGHT_COLORS.flatMap((color) => [
        [`--mantine-color-${color}-text`, `var(--mantine-color-${color}-9)`],
        [`--mantine-color-${color}-outline`, `var(--mantine-color-${color}-9)`],
      ]),
    ),
  },
  dark: {},
});

/** The theme with the names of Mantine's own icon buttons, in the language shown. */
export function localizedTheme(t: TFunction): MantineThemeOverride {
  return mergeThemeOverrides(theme, {
    components: {
      Modal: { defaultProps: { closeButtonProps: { 'aria-label': t('common.close') } } },
      Notification: { defaultProps: { closeButtonProps: { 'aria-label': t('common.close') } } },
      ColorInput: { defaultProps: { eyeDropperButtonProps: { 'aria-label': t('common.pickColor') } } },
      // A table wider than a phone scrolls sideways: the keyboard can scroll it once it has focus.
      TableScrollContainer: { defaultProps: { scrollAreaProps: { viewportProps: { tabIndex: 0 } } } },
      // The reveal button is reachable by keyboard; `aria-pressed` says whether the password shows.
      PasswordInput: {
        defaultProps: {
          visibilityToggleFocusable: true,
          visibilityToggleButtonProps: { 'aria-label': t('common.showPassword') },
        },
      },
    },
  });
}
