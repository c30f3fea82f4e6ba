import { createTheme } from '@mantine/core';
import { MOBILE_MAX_WIDTH_PX } from '@rayo/shared';

const px = (value: number) => `${value / 16}em`;

export const theme = createTheme({
  primaryColor: 'yellow',
  primaryShade: { light: 7, dark: 5 },
  defaultRadius: 'md',
  fontFamily: 'system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif',
  // `sm` is the mobile breakpoint of SPEC §9: below it the sidebar becomes a top menu.
  breakpoints: { xs: px(576), sm: px(MOBILE_MAX_WIDTH_PX), md: px(1100), lg: px(1280), xl: px(1440) },
});
