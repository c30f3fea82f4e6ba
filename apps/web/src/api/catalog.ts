import { useQuery } from '@tanstack/react-query';
import { useEffect } from 'react';
import { showNetworkError } from '../components/network-error.ts';
import { useTranslation } from '../i18n/index.ts';
import { apiCall, isNetworkError } from './client.ts';

export function useCountries() {
  const { t } = useTranslation();
  const query = useQuery({
    queryKey: ['countries'],
    queryFn: () => apiCall('GET /api/countries', { auth: false }),
    staleTime: Number.POSITIVE_INFINITY,
  });
  useEffect(() => {
    if (isNetworkError(query.error)) showNetworkError(t);
  }, [query.error, t]);
  return query;
}

export function useAccounts() {
  return useQuery({ queryKey: ['accounts'], queryFn: () => apiCall('GET /api/account/all') });
}

export function usePublicConfig() {
  return useQuery({
    queryKey: ['public-config'],
    queryFn: () => apiCall('GET /api/public-config', { auth: false }),
    staleTime: Number.POSITIVE_INFINITY,
  });
}
