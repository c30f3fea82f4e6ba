import type { ErrorCode } from '@rayo/shared';

/** The i18n key of the message a user sees for each error code (SPEC §8). */
const messageKeys: Partial<Record<ErrorCode | 'Network', string>> = {
  WrongAuth: 'errors.wrongAuth',
  MissingEmail: 'errors.missingEmail',
  MissingPassword: 'errors.missingPassword',
  InvalidEmail: 'errors.invalidEmail',
  InvalidPassword: 'errors.invalidPassword',
  UserAlreadyExist: 'errors.userAlreadyExist',
  TooManyRequests: 'errors.tooManyRequests',
  Network: 'errors.network',
};

export function errorMessageKey(code: ErrorCode | 'Network'): string {
  return messageKeys[code] ?? 'errors.default';
}
