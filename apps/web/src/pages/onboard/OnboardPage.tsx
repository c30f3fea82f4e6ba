import { Alert, Anchor, Button, Center, Loader, PasswordInput, Select, Stack, Text, TextInput } from '@mantine/core';
import type { Language } from '@rayo/shared';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { Link, Navigate, useNavigate, useSearchParams } from 'react-router';
import { startSession } from '../../api/auth.ts';
import { useCurrencies } from '../../api/bpts.ts';
import { useCountries } from '../../api/catalog.ts';
import { ApiError } from '../../api/client.ts';
import { useCurrentOrganization } from '../../api/dashboard.ts';
import { errorMessage } from '../../api/error-messages.ts';
import { confirmEmail, onboard } from '../../api/onboarding.ts';
import { AuthHeading } from '../../components/AuthHeading.tsx';
import { localizedCountries } from '../../components/country-names.ts';
import { newPasswordErrorKeys } from '../../components/credentials.ts';
import { useFormFields } from '../../components/use-form-fields.ts';
import { useTranslation } from '../../i18n/index.ts';
import { sessionStore } from '../../session/session-store.ts';
import { useSession } from '../../session/use-session.ts';
import { defaultCurrencyOf } from './default-currency.ts';

/**
 * The emailed link lands here with `?code=`: whoever opened it types the account's password, which
 * confirms the address and signs the new admin in, and the organization form follows. The password
 * is asked here rather than taken from the sign-up, since anyone can make an address mail a link.
 * Anyone who already has an organization goes home.
 */
export function OnboardPage() {
  const { t } = useTranslation();
  const [searchParams] = useSearchParams();
  const code = searchParams.get('code');
  const { accessToken } = useSession();

  if (code) return <ConfirmEmailForm code={code} />;
  if (!accessToken) {
    return (
      <Stack gap="md">
        <AuthHeading title={t('pages.onboard')} subtitle={t('onboard.openLink')} />
        <Anchor component={Link} to="/login" size="sm">
          {t('checkEmail.toLogin')}
        </Anchor>
      </Stack>
    );
  }
  return <OnboardingGate />;
}

function ConfirmEmailForm({ code }: { code: string }) {
  const { t } = useTranslation();
  const [, setSearchParams] = useSearchParams();
  const { values, field, check } = useFormFields({ password: '', confirmation: '' });
  const confirmation = useMutation({
    mutationFn: confirmEmail,
    onSuccess: (session) => {
      startSession(session, sessionStore.get().remember);
      setSearchParams({}, { replace: true });
    },
  });

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!check(newPasswordErrorKeys(values.password, values.confirmation))) return;
    confirmation.mutate({ code, password: values.password });
  };

  if (confirmation.error instanceof ApiError && confirmation.error.code === 'InvalidCode') {
    return (
      <Stack gap="md">
        <AuthHeading title={t('pages.onboard')} subtitle={t('onboard.linkFailed')} />
        <Alert color="red" variant="light" role="alert">
          {errorMessage(t, confirmation.error)}
        </Alert>
        <Text size="sm">
          <Anchor component={Link} to="/signup">
            {t('checkEmail.again')}
          </Anchor>{' '}
          ·{' '}
          <Anchor component={Link} to="/login">
            {t('checkEmail.toLogin')}
          </Anchor>
        </Text>
      </Stack>
    );
  }
  return (
    <form onSubmit={submit} noValidate>
      <Stack gap="md">
        <AuthHeading
          title={t('onboard.confirmTitle')}
          subtitle={t('onboard.confirmSubtitle')}
          error={confirmation.error && errorMessage(t, confirmation.error)}
        />
        <PasswordInput
          label={t('login.password')}
          description={t('settings.password.rule')}
          autoComplete="new-password"
          {...field('password')}
        />
        <PasswordInput label={t('signup.confirmation')} autoComplete="new-password" {...field('confirmation')} />
        <Button type="submit" loading={confirmation.isPending} fullWidth size="md">
          {t('onboard.confirmSubmit')}
        </Button>
      </Stack>
    </form>
  );
}

function Waiting({ label }: { label: string }) {
  return (
    <Center py="xl">
      <Stack align="center" gap="sm">
        <Loader />
        <Text size="sm">{label}</Text>
      </Stack>
    </Center>
  );
}

/** Only an admin without an organization sees the form. */
function OnboardingGate() {
  const { t } = useTranslation();
  const organization = useCurrentOrganization();
  if (organization.isPending) return <Waiting label={t('common.loading')} />;
  if (organization.error instanceof ApiError && organization.error.code === 'OnboardingRequired') {
    return <OnboardForm />;
  }
  return <Navigate to="/" replace />;
}

function OnboardForm() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const session = useSession();
  const countries = useCountries();
  const currencies = useCurrencies();
  const fiat = (currencies.data ?? []).filter((currency) => currency.isFiat).map((currency) => currency.code);
  const [form, setForm] = useState({ name: '', countryCode: '', language: session.language, currency: '' });
  const [errors, setErrors] = useState<Partial<Record<keyof typeof form, string>>>({});
  // A field's error goes as soon as the field is given a value, not at the next submit.
  const change = (fields: Partial<typeof form>) => {
    setForm({ ...form, ...fields });
    setErrors((current) => {
      const left = { ...current };
      for (const [name, value] of Object.entries(fields)) if (value?.trim()) delete left[name as keyof typeof form];
      return left;
    });
  };
  const save = useMutation({
    mutationFn: onboard,
    onSuccess: async ({ accessToken }) => {
      sessionStore.replaceAccessToken(accessToken);
      sessionStore.setLanguage(form.language);
      await queryClient.invalidateQueries();
      navigate('/', { replace: true });
    },
  });

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const missing = {
      name: form.name.trim() === '' ? 'onboard.missingName' : undefined,
      countryCode: form.countryCode === '' ? 'onboard.missingCountry' : undefined,
      currency: form.currency === '' ? 'onboard.missingCurrency' : undefined,
    };
    setErrors(missing);
    if (Object.values(missing).some(Boolean)) return;
    save.mutate({ ...form, name: form.name.trim() });
  };

  const chooseCountry = (countryCode: string | null) =>
    change({
      countryCode: countryCode ?? '',
      currency: (countryCode && defaultCurrencyOf(countryCode, fiat)) || form.currency,
    });

  return (
    <form onSubmit={submit} noValidate>
      <Stack gap="md">
        <AuthHeading title={t('pages.onboard')} subtitle={t('onboard.subtitle')} />
        {save.isError && (
          <Alert color="red" variant="light" role="alert">
            {errorMessage(t, save.error)}
          </Alert>
        )}
        <TextInput
          label={t('onboard.name')}
          value={form.name}
          onChange={(event) => change({ name: event.currentTarget.value })}
          error={errors.name && t(errors.name)}
          autoComplete="organization"
        />
        <Select
          label={t('onboard.country')}
          searchable
          data={localizedCountries(countries.data ?? [], session.language).map((country) => ({
            value: country.code,
            label: country.name,
          }))}
          value={form.countryCode || null}
          onChange={chooseCountry}
          allowDeselect={false}
          error={errors.countryCode && t(errors.countryCode)}
          nothingFoundMessage={t('onboard.noCountry')}
        />
        <Select
          label={t('onboard.currency')}
          description={t('onboard.currencyHelp')}
          data={fiat}
          value={form.currency || null}
          onChange={(currency) => change({ currency: currency ?? '' })}
          allowDeselect={false}
          error={errors.currency && t(errors.currency)}
        />
        <Select
          label={t('language.label')}
          data={[
            { value: 'en', label: t('language.en') },
            { value: 'es', label: t('language.es') },
          ]}
          value={form.language}
          onChange={(language) => setForm({ ...form, language: (language ?? 'en') as Language })}
          allowDeselect={false}
        />
        <Button type="submit" loading={save.isPending} fullWidth size="md">
          {t('onboard.submit')}
        </Button>
      </Stack>
    </form>
  );
}
