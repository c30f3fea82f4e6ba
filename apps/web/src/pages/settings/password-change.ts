import { newPasswordErrorKeys } from '../../components/credentials.ts';

export type PasswordChangeForm = { currentPassword: string; newPassword: string; confirmation: string };
export type PasswordChangeErrors = Partial<Record<keyof PasswordChangeForm, string>>;

/** SPEC §5: both passwords are required, the new one follows the rule and the confirmation matches it. */
export function validatePasswordChange(form: PasswordChangeForm): PasswordChangeErrors {
  const errors: PasswordChangeErrors = {};
  if (form.currentPassword === '') errors.currentPassword = 'errors.missingPassword';
  const fresh = newPasswordErrorKeys(form.newPassword, form.confirmation);
  if (fresh.password) errors.newPassword = fresh.password;
  if (fresh.confirmation) errors.confirmation = fresh.confirmation;
  return errors;
}
