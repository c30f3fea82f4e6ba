import { z } from 'zod';

export const CountrySchema = z.object({ id: z.number().int(), name: z.string(), code: z.string() });
export type Country = z.infer<typeof CountrySchema>;
export const CountryListSchema = z.array(CountrySchema);

export const AccountSummarySchema = z.object({ id: z.string(), name: z.string() });
export type AccountSummary = z.infer<typeof AccountSummarySchema>;
export const AccountSummaryListSchema = z.array(AccountSummarySchema);

/** Public facts the web app needs before sign-in. */
export const PublicConfigSchema = z.object({
  supportEmail: z.string(),
  /** True when payments go to the built-in devnet node, whose wallet page can pay them. */
  devnet: z.boolean(),
  /** What the Ecwid app page inside the Ecwid admin loads (SPEC §2 Ecwid app settings layout). */
  ecwid: z.object({ sdkUrl: z.string(), cssUrl: z.string(), appId: z.string() }),
});
export type PublicConfig = z.infer<typeof PublicConfigSchema>;

export const ErrorResponseSchema = z.object({ code: z.string(), message: z.string() });
export type ErrorResponse = z.infer<typeof ErrorResponseSchema>;

export const HealthSchema = z.object({ status: z.literal('ok') });
/** A demo server records its demo's sales after it is ready; `demoData` says how far it is. */
export const DemoDataStateSchema = z.enum(['preparing', 'ready']);
export type DemoDataState = z.infer<typeof DemoDataStateSchema>;
export const ReadinessSchema = z.object({ status: z.literal('ready'), demoData: DemoDataStateSchema.optional() });
export type Readiness = z.infer<typeof ReadinessSchema>;
