import { useQuery } from '@tanstack/react-query';
import { apiCall } from './client.ts';

/**
 * Apart from `mfa.ts`'s changes, so that the main layout, which asks whether MFA is required,
 * does not load the mutations' code with home.
 */
export const mfaKey = ['settings', 'mfa'] as const;

/** SPEC §4: the switch shows what the server says, never a flag kept here. */
export function useMfaStatus() {
  return useQuery({ queryKey: mfaKey, queryFn: () => apiCall('GET /api/settings/mfa') });
}
