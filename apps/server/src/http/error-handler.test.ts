import { describe, expect, it } from 'vitest';
import { validationErrorCode } from './error-handler.ts';

describe('validationErrorCode (SPEC §8)', () => {
  it.each([
    ['email', undefined, 'MissingEmail'],
    ['email', null, 'MissingEmail'],
    ['email', '', 'MissingEmail'],
    ['email', '  \t', 'MissingEmail'],
    ['email', 'not-an-email', 'InvalidEmail'],
    ['email', 42, 'InvalidEmail'],
    ['password', undefined, 'MissingPassword'],
    ['password', 'weak', 'InvalidPassword'],
    ['refreshToken', undefined, 'MissingRefreshToken'],
    ['refreshToken', 'x'.repeat(600), 'InvalidInput'],
    ['newPassword', '', 'MissingPassword'],
    ['newPassword', 'weak', 'InvalidPassword'],
    ['currentPassword', undefined, 'MissingPassword'],
    ['accountId', 'x', 'InvalidInput'],
    ['color', undefined, 'InvalidInput'],
    ['color', 'blue', 'InvalidInput'],
    ['', undefined, 'InvalidInput'],
  ])('maps %s = %j to %s', (field, input, code) => {
    expect(validationErrorCode(field, input)).toBe(code);
  });
});
