import { SignInResponseSchema } from '../auth.ts';
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
