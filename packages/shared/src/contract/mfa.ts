import { z } from 'zod';
import { SignInResponseSchema } from '../auth.ts';
import {
  MfaEnrollmentSchema,
  MfaSignInRequestSchema,
  MfaStatusSchema,
  RecoverMfaRequestSchema,
  ValidateMfaRequestSchema,
} from '../mfa.ts';
import { MFA_CODE_HEADER } from '../mfa-code.ts';
import { defineCalls } from './call.ts';
import { mfaRefusals } from './common.ts';

const tags = ['mfa'];

/**
 * The caller's own second factor (TOTP, DESIGN §6), and sign-in's second step. Wrong codes are
 * counted per user over every call that checks one.
 */
export const mfaCalls = defineCalls({
  'GET /api/settings/mfa': {
    operationId: 'getMfaStatus',
    tags,
    summary: 'Whether the caller has MFA on, and whether the platform requires it of them',
    answer: MfaStatusSchema,
    who: 'signed-in',
    refusals: [],
  },
  'POST /api/settings/mfa/enable': {
    operationId: 'startMfaEnrollment',
    tags,
    summary: 'Starts turning MFA on: a new secret and 10 recovery codes, shown once. MFA stays off until validated.',
    description:
      'Starting again replaces the pending secret and codes. Refused while MFA is on: it is turned off first.',
    answer: MfaEnrollmentSchema,
    who: 'signed-in',
    refusals: ['MfaAlreadyEnabled'],
  },
  'POST /api/settings/mfa/validate': {
    operationId: 'confirmMfaEnrollment',
    tags,
    summary: 'Turns MFA on with a first code from the authenticator',
    description: 'The code must come from the secret `POST /api/settings/mfa/enable` answered last.',
    body: ValidateMfaRequestSchema,
    who: 'signed-in',
    refusals: ['TooManyRequests', 'MfaAlreadyEnabled', 'MfaEnrollmentMissing', 'WrongMfaCode'],
  },
  'POST /api/settings/mfa/disable': {
    operationId: 'disableMfa',
    tags,
    summary: `Turns MFA off; needs a code (or a recovery code) in the ${MFA_CODE_HEADER} header`,
    description: `Needs a code (or a recovery code) in the \`${MFA_CODE_HEADER}\` header. 403 \`MfaCannotBeTurnedOff\` when the platform requires MFA of the caller, before any code is checked.`,
    headers: z.object({ [MFA_CODE_HEADER]: z.string().max(64).optional() }),
    who: 'signed-in',
    refusals: ['MfaCannotBeTurnedOff', ...mfaRefusals, 'MfaNotEnabled'],
  },
  'POST /api/auth/signin/mfa': {
    operationId: 'signInWithMfaCode',
    tags: ['auth', ...tags],
    summary: "Sign-in's second step: the challenge from /api/auth/signin and a code",
    description:
      'The MFA challenge `POST /api/auth/signin` answered is the credential; a lapsed one answers `MfaChallengeExpired`, and signing in starts over.',
    body: MfaSignInRequestSchema,
    answer: SignInResponseSchema,
    who: 'public',
    refusals: ['MfaChallengeExpired', 'TooManyRequests', 'WrongMfaCode', 'MfaCodeReused'],
  },
  'POST /api/settings/mfa/recover': {
    operationId: 'signInWithRecoveryCode',
    tags: ['auth', ...tags],
    summary: "Sign-in's second step with a single-use recovery code instead of a code",
    description: 'The MFA challenge `POST /api/auth/signin` answered is the credential; each recovery code works once.',
    body: RecoverMfaRequestSchema,
    answer: SignInResponseSchema,
    who: 'public',
    refusals: ['MfaChallengeExpired', 'TooManyRequests', 'WrongRecoveryCode'],
  },
});
