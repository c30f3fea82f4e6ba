import { Select } from '@mantine/core';
import { ALL_COUNTRIES_ID } from '@rayo/shared';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useCountries } from '../../api/catalog.ts';
import { localizedCountries } from '../../components/country-names.ts';
import { ScreenTitle } from '../../components/ScreenTitle.tsx';
import { useSession } from '../../session/use-session.ts';

export function BackOfficePage() {
  const { t } = useTranslation();
  const { language } = useSession();
  const countries = useCountries();
  const [country, setCountry] = useState(String(ALL_COUNTRIES_ID));
  // SPEC §3: a synthetic 'All Countries' entry comes first.
  const options = [
    { value: String(ALL_COUNTRIES_ID), label: t('backOffice.allCountries') },
    ...localizedCountries(countries.data ?? [], language).map((c) => ({ value: String(c.id), label: c.name })),
  ];
  return (
    <>
      <ScreenTitle titleKey="nav.back-office" />
      <Select
        label={t('backOffice.country')}
        data={options}
        value={country}
        onChange={(value) => setCountry(value ?? String(ALL_COUNTRIES_ID))}
        allowDeselect={false}
        searchable
        maw={320}
      />
    </>
  );
}
