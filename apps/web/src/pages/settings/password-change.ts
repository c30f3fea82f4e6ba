import { isStrongPassword } from '@rayo/shared';

export type PasswordChangeForm = { currentPassword: string; newPassword: string; confirmation: string };
export type PasswordChangeErrors = Partial<Record<keyof PasswordChangeForm, string>>;

/** SPEC §5: both passwords are required, the new one follows the rule and the confirmation matches it. */
export function validatePasswordChange(form: PasswordChangeForm): PasswordChangeErrors {
  const errors: PasswordChangeErrors = {};
  if (form.currentPassword === '') errors.currentPassword = 'errors.missingPassword';
  if (form.newPassword === '') errors.newPassword = 'errors.missingPassword';
  else if (!isStrongPassword(form.newPassword)) errors.newPassword = 'errors.invalidPassword';
  if (form.confirmation !== form.newPassword) errors.confirmation = 'errors.passwordsDontMatch';
  return errors;
}
