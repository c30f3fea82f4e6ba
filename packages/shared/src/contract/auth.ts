import {
  LogoutRequestSchema,
  RefreshAccessTokenRequestSchema,
  RefreshAccessTokenResponseSchema,
  SignInRequestSchema,
  SignInResponseSchema,
  SignInResultSchema,
} from '../auth.ts';
import {
  ConfirmEmailRequestSchema,
  ConfirmForgotPasswordRequestSchema,
  ForgotPasswordRequestSchema,
  SignUpRequestSchema,
} from '../onboarding.ts';
import { defineCalls } from './call.ts';

const tags = ['auth'];

/**
 * Sign-up, email confirmation and password reset: the public calls that send or spend mailed
 * codes. Each is limited per client address, and those naming an email per email too.
 */
export const signUpCalls = defineCalls({
  'POST /api/auth/signup': {
    operationId: 'signUp',
    tags,
    summary: 'Creates an admin account and mails the link that confirms the address',
    description:
      'An address that signed up but never confirmed gets a new link instead; the newest link retires the older ones. The password that counts is the one typed when confirming.',
    body: SignUpRequestSchema,
    who: 'public',
    refusals: ['TooManyRequests', 'UserAlreadyExist', 'ServiceUnavailable'],
  },
  'POST /api/auth/confirm-email': {
    operationId: 'confirmEmail',
    tags,
    summary: 'Confirms the address with the emailed code and signs the user in',
    description: 'Sets the password typed on the page the link opened, and answers a session, ready to onboard.',
    body: ConfirmEmailRequestSchema,
    answer: SignInResponseSchema,
    who: 'public',
    refusals: ['TooManyRequests', 'InvalidCode', 'ServiceUnavailable'],
  },
  'POST /api/auth/forgot-password': {
    operationId: 'requestPasswordReset',
    tags,
    summary: 'Mails a single-use code for a new password',
    description:
      'An unknown address answers `EmailNotFound` (SPEC §8); the rate limits keep that from listing addresses.',
    body: ForgotPasswordRequestSchema,
    who: 'public',
    refusals: ['TooManyRequests', 'EmailNotFound'],
  },
  'POST /api/auth/confirm-forgot-password': {
    operationId: 'resetPassword',
    tags,
    summary: 'Sets a new password with the emailed code and ends every session',
    description:
      "Optionally revokes the user's developer tokens too. Guesses at one user's code are limited per email.",
    body: ConfirmForgotPasswordRequestSchema,
    who: 'public',
    refusals: ['TooManyRequests', 'InvalidCode', 'ServiceUnavailable'],
  },
});

/**
 * Sign-in, the access token's refresh and sign-out. Sign-in failures are limited per address, per
 * email and address and per email; a browser that signed in to the account before counts on its
 * own budget, kept in a cookie sign-in sets.
 */
export const authCalls = defineCalls({
  'POST /api/auth/signin': {
    operationId: 'signIn',
    tags,
    summary: 'Signs in with email and password: a session, or an MFA challenge for a user with MFA on',
    description:
      'A user with MFA on is answered `{ mfaRequired: true, mfaToken }`, exchanged with a code at `POST /api/auth/signin/mfa`. Only failures count against the limits. Sets the cookie that marks this browser as known to the account.',
    body: SignInRequestSchema,
    answer: SignInResultSchema,
    who: 'public',
    refusals: ['TooManyRequests', 'WrongAuth', 'EmailNotConfirmed', 'ServiceUnavailable'],
  },
  'POST /api/auth/refresh-access-token': {
    operationId: 'refreshAccessToken',
    tags,
    summary: 'Exchanges a refresh token, or a developer token, for an access token',
    description:
      'A refresh token works once and is answered with the one that replaces it; one used twice ends its whole session. A developer token does not rotate and is answered with itself. Limited per address.',
    body: RefreshAccessTokenRequestSchema,
    answer: RefreshAccessTokenResponseSchema,
    who: 'public',
    refusals: ['TooManyRequests', 'Unauthorized'],
  },
  'POST /api/auth/logout': {
    operationId: 'logout',
    tags,
    summary: 'Revokes the refresh token sent, if any; the access token lapses on its own',
    // Fastify validates an absent body as null, so `optional()` alone would refuse it.
    body: LogoutRequestSchema.nullish(),
    who: 'public',
    refusals: [],
  },
});
