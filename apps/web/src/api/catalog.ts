import type { AccountSummary, Country, PublicConfig } from '@rayo/shared';
import { useQuery } from '@tanstack/react-query';
import { useEffect } from 'react';
import { showNetworkError } from '../components/network-error.ts';
import { useTranslation } from '../i18n/index.ts';
import { apiRequest, isNetworkError } from './client.ts';

export function useCountries() {
  const { t } = useTranslation();
  const query = useQuery({
    queryKey: ['countries'],
    queryFn: () => apiRequest<Country[]>('/countries', { auth: false }),
    staleTime: Number.POSITIVE_INFINITY,
  });
  useEffect(() => {
    if (isNetworkError(query.error)) showNetworkError(t);
  }, [query.error, t]);
  return query;
}

export function useAccounts() {
  return useQuery({ queryKey: ['accounts'], queryFn: () => apiRequest<AccountSummary[]>('/account/all') });
}

export function usePublicConfig() {
  return useQuery({
    queryKey: ['public-config'],
    queryFn: () => apiRequest<PublicConfig>('/public-config', { auth: false }),
    staleTime: Number.POSITIVE_INFINITY,
  });
}
