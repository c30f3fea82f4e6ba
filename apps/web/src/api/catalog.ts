import { AccountSummaryListSchema, CountryListSchema, PublicConfigSchema } from '@rayo/shared';
import { useQuery } from '@tanstack/react-query';
import { useEffect } from 'react';
import { useTranslation } from '../i18n/index.ts';
import { showNetworkError } from '../components/network-error.ts';
import { apiRequest, isNetworkError } from './client.ts';

export function useCountries() {
  const { t } = useTranslation();
  const query = useQuery({
    queryKey: ['countries'],
    queryFn: () => apiRequest('/countries', CountryListSchema, { auth: false }),
    staleTime: Number.POSITIVE_INFINITY,
  });
  useEffect(() => {
    if (isNetworkError(query.error)) showNetworkError(t);
  }, [query.error, t]);
  return query;
}

export function useAccounts() {
  return useQuery({ queryKey: ['accounts'], queryFn: () => apiRequest('/account/all', AccountSummaryListSchema) });
}

export function usePublicConfig() {
  return useQuery({
    queryKey: ['public-config'],
    queryFn: () => apiRequest('/public-config', PublicConfigSchema, { auth: false }),
    staleTime: Number.POSITIVE_INFINITY,
  });
}
