import { Select } from '@mantine/core';
import { ALL_COUNTRIES_ID } from '@rayo/shared';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useCountries } from '../../api/catalog.ts';
import { ScreenTitle } from '../../components/ScreenTitle.tsx';

export function BackOfficePage() {
  const { t } = useTranslation();
  const countries = useCountries();
  const [country, setCountry] = useState(String(ALL_COUNTRIES_ID));
  // SPEC §3: a synthetic 'All Countries' entry comes first.
  const options = [
    { value: String(ALL_COUNTRIES_ID), label: t('backOffice.allCountries') },
    ...(countries.data ?? []).map((c) => ({ value: String(c.id), label: c.name })),
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
