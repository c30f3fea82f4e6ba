import { isEmail, isStrongPassword } from '@rayo/shared';

/** SPEC §5: the i18n key of what is wrong with an email, if anything. */
export function emailErrorKey(email: string): string | undefined {
  if (email.trim() === '') return 'errors.missingEmail';
  if (!isEmail(email.trim())) return 'errors.invalidEmail';
  return undefined;
}

/** SPEC §5: a new password follows the rule, and its confirmation matches it. */
export function newPasswordErrorKeys(
  password: string,
  confirmation: string,
): { password?: string; confirmation?: string } {
  const errors: { password?: string; confirmation?: string } = {};
  if (password === '') errors.password = 'errors.missingPassword';
  else if (!isStrongPassword(password)) errors.password = 'errors.invalidPassword';
  if (confirmation !== password) errors.confirmation = 'errors.passwordsDontMatch';
  return errors;
}
