import type { Branding } from '@rayo/shared';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { apiCall } from './client.ts';

const brandingKey = ['settings', 'branding'] as const;

export function useBranding() {
  return useQuery({ queryKey: brandingKey, queryFn: () => apiCall('GET /api/settings/branding') });
}

function useBrandingChange<Input>(change: (input: Input) => Promise<Branding>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: change,
    onSuccess: (branding) => queryClient.setQueryData<Branding>(brandingKey, branding),
  });
}

export function useSetAccentColor() {
  return useBrandingChange((accentColor: string | null) =>
    apiCall('PUT /api/settings/branding', { body: { accentColor } }),
  );
}

export function useUploadLogo() {
  return useBrandingChange((file: File) => {
    const form = new FormData();
    form.append('file', file);
    return apiCall('PUT /api/settings/branding/logo', { body: form });
  });
}

export function useRemoveLogo() {
  return useBrandingChange(() => apiCall('DELETE /api/settings/branding/logo'));
}
