import { Anchor, Button, Checkbox, Input, PasswordInput, PinInput, Stack, TextInput } from '@mantine/core';
import { RESET_CODE_LENGTH } from '@rayo/shared';
import { type FormEvent, useState } from 'react';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { ApiError } from '../../api/client.ts';
import { errorMessageKey } from '../../api/error-messages.ts';
import { resetPassword } from '../../api/onboarding.ts';
import { AuthHeading } from '../../components/AuthHeading.tsx';
import { emailErrorKey, newPasswordErrorKeys } from '../../components/credentials.ts';
import { notifications } from '../../components/notifications.ts';
import { useFormFields } from '../../components/use-form-fields.ts';
import { useTranslation } from '../../i18n/index.ts';

const codePattern = new RegExp(`^\\d{${RESET_CODE_LENGTH}}$`);

/** Reached from the reset screen, or from the mailed link with the email and code filled in. */
export function ConfirmForgotPasswordPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [searchParams] = useSearchParams();
  const { values, setValues, errors, field, check } = useFormFields({
    email: searchParams.get('email') ?? '',
    code: searchParams.get('code') ?? '',
    password: '',
    confirmation: '',
  });
  const [formError, setFormError] = useState<string | null>(null);
  const [submitting, setSubmitting] = useState(false);
  const [revokeDeveloperTokens, setRevokeDeveloperTokens] = useState(false);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setFormError(null);
    const valid = check({
      email: emailErrorKey(values.email),
      code: codePattern.test(values.code) ? undefined : 'passwordReset.codeRule',
      ...newPasswordErrorKeys(values.password, values.confirmation),
    });
    if (!valid) return;
    setSubmitting(true);
    try {
      await resetPassword({
        email: values.email.trim(),
        code: values.code,
        password: values.password,
        revokeDeveloperTokens,
      });
      notifications.show({ color: 'teal', message: t('passwordReset.done') });
      navigate('/login', { replace: true });
    } catch (error) {
      setFormError(errorMessageKey(error instanceof ApiError ? error.code : 'Default'));
      setSubmitting(false);
    }
  };

  return (
    <form onSubmit={submit} noValidate>
      <Stack gap="md">
        <AuthHeading
          title={t('pages.confirmForgotPassword')}
          subtitle={t('passwordReset.newSubtitle')}
          error={formError && t(formError)}
        />
        <TextInput label={t('login.email')} type="email" autoComplete="email" {...field('email')} />
        <Input.Wrapper label={t('passwordReset.code')} error={errors.code && t(errors.code)}>
          <PinInput
            length={RESET_CODE_LENGTH}
            type="number"
            oneTimeCode
            value={values.code}
            onChange={(code) => setValues((current) => ({ ...current, code }))}
            error={Boolean(errors.code)}
            aria-label={t('passwordReset.code')}
            mt={4}
          />
        </Input.Wrapper>
        <PasswordInput
          label={t('settings.password.new')}
          description={t('settings.password.rule')}
          autoComplete="new-password"
          {...field('password')}
        />
        <PasswordInput
          label={t('settings.password.confirmation')}
          autoComplete="new-password"
          {...field('confirmation')}
        />
        <Checkbox
          label={t('settings.password.revokeDeveloperTokens')}
          checked={revokeDeveloperTokens}
          onChange={(event) => setRevokeDeveloperTokens(event.currentTarget.checked)}
        />
        <Button type="submit" loading={submitting} fullWidth size="md">
          {t('passwordReset.save')}
        </Button>
        <Anchor component={Link} to="/forgot-password" size="sm" ta="center">
          {t('passwordReset.newCode')}
        </Anchor>
      </Stack>
    </form>
  );
}
