import { Modal, MultiSelect, PasswordInput, Select, Stack, TextInput } from '@mantine/core';
import { type Language, languages, type Manager } from '@rayo/shared';
import { type FormEvent, useState } from 'react';
import { useAccounts } from '../../api/catalog.ts';
import { ApiError } from '../../api/client.ts';
import { useCreateManager, useUpdateManager } from '../../api/managers.ts';
import { useMfaStatus } from '../../api/mfa.ts';
import { emailErrorKey, newPasswordErrorKeys } from '../../components/credentials.ts';
import { FormFooter } from '../../components/FormFooter.tsx';
import { LoadError } from '../../components/LoadError.tsx';
import { notifications } from '../../components/notifications.ts';
import { useReturnFocus } from '../../components/use-return-focus.ts';
import { useTranslation } from '../../i18n/index.ts';
import { useSession } from '../../session/use-session.ts';

type FieldErrors = Partial<Record<'name' | 'email' | 'password' | 'confirmation' | 'mfaCode', string>>;

/**
 * Creates a manager with the password the administrator assigns (SPEC §5), or renames one,
 * changes their accounts and, when filled in, sets a new password. The email is their sign-in
 * name and stays as created. With MFA on, a password chosen here needs the admin's code.
 */
export function ManagerFormModal({ manager, onClose }: { manager: Manager | null; onClose: () => void }) {
  useReturnFocus();
  const { t } = useTranslation();
  const accounts = useAccounts();
  const create = useCreateManager();
  const update = useUpdateManager();
  const [name, setName] = useState(manager?.name ?? '');
  const [email, setEmail] = useState(manager?.email ?? '');
  const [password, setPassword] = useState('');
  const [confirmation, setConfirmation] = useState('');
  const [accountIds, setAccountIds] = useState<string[]>(manager?.accountIds ?? []);
  // A new manager starts in the admin's own language; the manager's sign-in answers it.
  const { language: ownLanguage } = useSession();
  const [language, setLanguage] = useState<Language>(manager?.language ?? ownLanguage);
  const [errors, setErrors] = useState<FieldErrors>({});
  const [mfaCode, setMfaCode] = useState('');
  const hasMfa = useMfaStatus().data?.hasMfa ?? false;
  const mutation = manager ? update : create;
  const asksForCode = hasMfa && (!manager || password !== '');
  // A taken email belongs next to the email field rather than below the form.
  const emailTaken = mutation.error instanceof ApiError && mutation.error.code === 'UserAlreadyExist';

  const clear = (field: keyof FieldErrors) => setErrors((current) => ({ ...current, [field]: undefined }));

  const validate = (): FieldErrors => {
    const found: FieldErrors = {};
    if (!name.trim()) found.name = t('errors.missingName');
    const emailError = manager ? undefined : emailErrorKey(email);
    if (emailError) found.email = t(emailError);
    // Editing keeps the password unless a new one is typed.
    if (!manager || password || confirmation) {
      const passwordErrors = newPasswordErrorKeys(password, confirmation);
      if (passwordErrors.password) found.password = t(passwordErrors.password);
      if (passwordErrors.confirmation) found.confirmation = t(passwordErrors.confirmation);
    }
    if (asksForCode && !mfaCode.trim()) found.mfaCode = t('mfa.errors.missingCode');
    return found;
  };

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const found = validate();
    setErrors(found);
    if (Object.values(found).some(Boolean)) return;
    const code = asksForCode ? { mfaCode: mfaCode.trim() } : {};
    try {
      if (manager) {
        await update.mutateAsync({
          id: manager.id,
          name: name.trim(),
          accountIds,
          language,
          ...(password && { password }),
          ...code,
        });
      } else {
        await create.mutateAsync({ name: name.trim(), email: email.trim(), password, language, accountIds, ...code });
      }
      notifications.show({ color: 'teal', message: t(manager ? 'managers.saved' : 'managers.created') });
      onClose();
    } catch {
      // The mutation's error is shown in the form.
    }
  };

  return (
    <Modal opened onClose={onClose} title={t(manager ? 'managers.editTitle' : 'managers.createTitle')} centered>
      <form onSubmit={submit} noValidate>
        <Stack>
          <TextInput
            label={t('managers.name')}
            value={name}
            onChange={(event) => {
              setName(event.currentTarget.value);
              clear('name');
            }}
            error={errors.name}
            required
            maxLength={100}
            data-autofocus
          />
          <TextInput
            label={t('managers.email')}
            type="email"
            value={email}
            onChange={(event) => {
              setEmail(event.currentTarget.value);
              clear('email');
              if (emailTaken) create.reset();
            }}
            error={errors.email ?? (emailTaken ? t('errors.emailInUse') : undefined)}
            description={manager ? t('managers.emailFixed') : undefined}
            disabled={manager !== null}
            required={!manager}
            maxLength={254}
            autoComplete="off"
          />
          <PasswordInput
            label={t(manager ? 'managers.newPassword' : 'managers.password')}
            description={manager ? t('managers.newPasswordHint') : t('managers.passwordRule')}
            value={password}
            onChange={(event) => {
              setPassword(event.currentTarget.value);
              clear('password');
            }}
            error={errors.password}
            required={!manager}
            maxLength={256}
            autoComplete="new-password"
          />
          <PasswordInput
            label={t('managers.confirmPassword')}
            value={confirmation}
            onChange={(event) => {
              setConfirmation(event.currentTarget.value);
              clear('confirmation');
            }}
            error={errors.confirmation}
            required={!manager}
            maxLength={256}
            autoComplete="new-password"
          />
          {asksForCode && (
            <TextInput
              label={t('managers.mfaCode')}
              description={t('mfa.settings.disableHelp')}
              value={mfaCode}
              onChange={(event) => {
                setMfaCode(event.currentTarget.value);
                clear('mfaCode');
              }}
              error={errors.mfaCode}
              required
              autoComplete="one-time-code"
            />
          )}
          <Select
            label={t('managers.language')}
            data={languages.map((code) => ({ value: code, label: t(`language.${code}`) }))}
            value={language}
            onChange={(value) => value && setLanguage(value as Language)}
            allowDeselect={false}
            comboboxProps={{ withinPortal: true }}
          />
          <MultiSelect
            label={t('managers.accounts')}
            description={t('managers.accountsHint')}
            placeholder={accountIds.length ? undefined : t('managers.noAccounts')}
            data={(accounts.data ?? []).map((account) => ({ value: account.id, label: account.name }))}
            value={accountIds}
            onChange={setAccountIds}
            searchable
            clearable
            nothingFoundMessage={t('managers.noAccountFound')}
            comboboxProps={{ withinPortal: true }}
          />
          {accounts.isError && <LoadError error={accounts.error} onRetry={() => accounts.refetch()} />}
          <FormFooter
            editing={manager !== null}
            error={emailTaken ? null : mutation.error}
            saving={mutation.isPending}
            onCancel={onClose}
          />
        </Stack>
      </form>
    </Modal>
  );
}
