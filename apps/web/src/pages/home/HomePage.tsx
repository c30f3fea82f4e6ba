import { Select } from '@mantine/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useAccounts } from '../../api/catalog.ts';
import { ScreenTitle } from '../../components/ScreenTitle.tsx';

const ALL = 'all';

export function HomePage() {
  const { t } = useTranslation();
  const accounts = useAccounts();
  const [account, setAccount] = useState(ALL);
  const options = [
    { value: ALL, label: t('home.all') },
    ...(accounts.data ?? []).map((a) => ({ value: a.id, label: a.name })),
  ];
  return (
    <>
      <ScreenTitle titleKey="nav.index" />
      <Select
        label={t('home.account')}
        data={options}
        value={account}
        onChange={(value) => setAccount(value ?? ALL)}
        allowDeselect={false}
        maw={320}
      />
    </>
  );
}
