import { type Branding, BrandingSchema } from '@rayo/shared';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from './client.ts';

const brandingKey = ['settings', 'branding'] as const;

export function useBranding() {
  return useQuery({ queryKey: brandingKey, queryFn: () => apiRequest('/settings/branding', BrandingSchema) });
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
    apiRequest('/settings/branding', BrandingSchema, { method: 'PUT', body: { accentColor } }),
  );
}

export function useUploadLogo() {
  return useBrandingChange((file: File) => {
    const form = new FormData();
    form.append('file', file);
    return apiRequest('/settings/branding/logo', BrandingSchema, { method: 'PUT', body: form });
  });
}

export function useRemoveLogo() {
  return useBrandingChange(() => apiRequest('/settings/branding/logo', BrandingSchema, { method: 'DELETE' }));
}
