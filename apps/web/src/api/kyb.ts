import type { KybDocument } from '@rayo/shared';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { saveBlob } from '../components/save-blob.ts';
import { apiRequest, apiResponse } from './client.ts';

const kybKey = ['settings', 'kyb-documents'] as const;

export function useKybDocuments(enabled: boolean) {
  return useQuery({
    queryKey: kybKey,
    queryFn: () => apiRequest<KybDocument[]>('/settings/kyb-documents'),
    enabled,
  });
}

/** One file per request, so that each succeeds or fails on its own. */
export function useUploadKybDocument() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (file: File) => {
      const form = new FormData();
      form.append('file', file);
      return apiRequest<KybDocument>('/settings/kyb-documents', { method: 'POST', body: form });
    },
    onSuccess: (document) =>
      queryClient.setQueryData<KybDocument[]>(kybKey, (documents = []) => [...documents, document]),
  });
}

export function useDeleteKybDocument() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) =>
      apiRequest<void>(`/settings/kyb-documents/${encodeURIComponent(id)}`, { method: 'DELETE' }),
    onSuccess: (_, id) =>
      queryClient.setQueryData<KybDocument[]>(kybKey, (documents = []) => documents.filter((d) => d.id !== id)),
  });
}

/** Fetched with the session's token (a plain link would carry none), then saved under its name. */
export async function downloadKybDocument(document: KybDocument): Promise<void> {
  const response = await apiResponse(`/settings/kyb-documents/${encodeURIComponent(document.id)}`);
  saveBlob(await response.blob(), document.fileName);
}
