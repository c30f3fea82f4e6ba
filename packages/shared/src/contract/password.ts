import { ChangePasswordRequestSchema, ChangePasswordResponseSchema } from '../auth.ts';
import { defineCalls } from './call.ts';

/** The signed-in user's own password (SPEC §2 Settings). */
export const passwordCalls = defineCalls({
  'POST /api/settings/password': {
    operationId: 'changePassword',
    tags: ['settings'],
    summary: "Changes the caller's password, ends their other sessions and answers this one's new access token",
    description:
      'The refresh token sent along keeps this session; every access token signed before the change is refused from then on. Attempts are limited per user.',
    body: ChangePasswordRequestSchema,
    answer: ChangePasswordResponseSchema,
    who: 'signed-in',
    refusals: ['WrongCurrentPassword', 'TooManyRequests'],
  },
});
