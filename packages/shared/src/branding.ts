import { z } from 'zod';

// Logo and colour (SPEC §2 Settings "logo and colour customization"): shown on the organization's
// public pages. The limits are shared so that the settings screen refuses what the server would.

/** The largest logo accepted, in bytes. */
export const LOGO_MAX_BYTES = 512 * 1024;

/**
 * The logo types accepted. SVG is refused: a logo is served to anyone, and an SVG is a document
 * that can carry script and external references; see docs/decisions/0026-branding-kyb-checkout-protection.md.
 */
export const LOGO_TYPES = ['image/png', 'image/jpeg'] as const;
export type LogoType = (typeof LOGO_TYPES)[number];

/** `#rrggbb`; any case is accepted and stored in lower case. */
export const ACCENT_COLOR_PATTERN = /^#[0-9a-fA-F]{6}$/;

export const AccentColorSchema = z
  .string()
  .regex(ACCENT_COLOR_PATTERN, 'A colour is # followed by six hexadecimal digits, like #1a2b3c');

export const SetAccentColorRequestSchema = z.object({
  /** Null puts back the product's own colour. */
  accentColor: AccentColorSchema.nullable(),
});
export type SetAccentColorRequest = z.infer<typeof SetAccentColorRequestSchema>;

export const LogoInfoSchema = z.object({
  /** Where anyone can fetch it; the address changes with the logo, so it can be cached for long. */
  url: z.string(),
  contentType: z.enum(LOGO_TYPES),
  size: z.number().int(),
  sha256: z.string(),
});
export type LogoInfo = z.infer<typeof LogoInfoSchema>;

export const BrandingSchema = z.object({
  accentColor: z.string().nullable(),
  logo: LogoInfoSchema.nullable(),
});
export type Branding = z.infer<typeof BrandingSchema>;

/** What a public page (the shareable terminal; later checkout and donation pages) shows. */
export const PublicBrandingSchema = z.object({
  accentColor: z.string().nullable(),
  logoUrl: z.string().nullable(),
});
export type PublicBranding = z.infer<typeof PublicBrandingSchema>;
