import { z } from 'zod';
import type { ErrorCode } from '../errors.ts';

/** A path naming one resource by its UUID. */
export const IdParamsSchema = z.object({ id: z.uuid() });

/** A change that needs a code in the `mfa-code` header when the caller has MFA on. */
export const mfaRefusals = [
  'MissingMfaCode',
  'WrongMfaCode',
  'MfaCodeReused',
  'TooManyRequests',
] as const satisfies readonly ErrorCode[];
