import type { KybDocument } from '@rayo/shared';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { saveBlob } from '../components/save-blob.ts';
import { apiCall, apiFile } from './client.ts';

const kybKey = ['settings', 'kyb-documents'] as const;

export function useKybDocuments(enabled: boolean) {
  return useQuery({
    queryKey: kybKey,
    queryFn: () => apiCall('GET /api/settings/kyb-documents'),
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
      return apiCall('POST /api/settings/kyb-documents', { body: form });
    },
    onSuccess: (document) =>
      queryClient.setQueryData<KybDocument[]>(kybKey, (documents = []) => [...documents, document]),
  });
}

export function useDeleteKybDocument() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => apiCall('DELETE /api/settings/kyb-documents/:id', { params: { id } }),
    onSuccess: (_, id) =>
      queryClient.setQueryData<KybDocument[]>(kybKey, (documents = []) => documents.filter((d) => d.id !== id)),
  });
}

/** Fetched with the session's token (a plain link would carry none), then saved under its name. */
export async function downloadKybDocument(document: KybDocument): Promise<void> {
  const response = await apiFile('GET /api/settings/kyb-documents/:id', { params: { id: document.id } });
  saveBlob(await response.blob(), document.fileName);
}
